package io.memloop.store;

import io.memloop.Memory;
import io.memloop.Outcome;

/**
 * What {@link io.memloop.MemLoop#stats} reports of a namespace's memories, as one pass over them adds it up
 * ({@link MemoryStore#summary}): the memories counted, their outcomes, visits, and the sum, least and greatest of
 * their utilities (0 for all three when there are none).
 */
public record MemorySummary(long memories, long successes, long failures, long totalVisits, double sumQ, double minQ,
    double maxQ) {
  /** The summary of no memory. */
  public static final MemorySummary EMPTY = new MemorySummary(0, 0, 0, 0, 0, 0, 0);

  /** The mean utility, 0 when there is no memory. */
  public double meanQ() {
    return memories == 0 ? 0 : sumQ / memories;
  }

  /** Adds memories up one at a time; {@link #result()} is the summary so far. Not thread-safe. */
  public static final class Adder {
    private long memories;
    private long successes;
    private long failures;
    private long visits;
    private double sumQ;
    private double minQ = Double.POSITIVE_INFINITY;
    private double maxQ = Double.NEGATIVE_INFINITY;

    /** Adds one memory. */
    public void add(Memory m) {
      add(m.outcome(), m.q(), m.visits());
    }

    /** Adds one memory, given by its columns. */
    public void add(Outcome outcome, double q, long visits) {
      memories++;
      switch (outcome) {
        case SUCCESS -> successes++;
        case FAILURE -> failures++;
        case UNKNOWN -> {}
      }
      this.visits += visits;
      sumQ += q;
      minQ = Math.min(minQ, q);
      maxQ = Math.max(maxQ, q);
    }

    /** The summary of what was added. */
    public MemorySummary result() {
      return memories == 0 ? EMPTY : new MemorySummary(memories, successes, failures, visits, sumQ, minQ, maxQ);
    }
  }
}
