package io.memloop;

import io.memloop.policy.PoolEntry;
import io.memloop.policy.SelectionPipeline;
import io.memloop.store.MemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Phase B of a configuration on a logged candidate pool, for off-policy evaluation: which memories the
 * configuration would have selected from the candidates a logged retrieval had, with the similarities and
 * utilities they had then. Greedy (exploration off: a deterministic policy is evaluated) and without
 * per-task learning (its ledger is replayed by {@link OfflineLearning}). Ties go by the memory id's sequence
 * ({@code m<n>} grows with time), oldest or newest first as the configuration says: never by the logged pool's
 * order, which is the logging policy's score order and would carry its utilities into a candidate that ignores them.
 * Runs the engine's own {@link SelectionPipeline} over the logged candidates as {@link PoolEntry} values.
 */
public final class OfflineSelection {
  private static final float[] UNIT = {1f};

  private OfflineSelection() {}

  /**
   * What a configuration's Phase A would have recalled of a logged pool, and whether the log holds all of it.
   *
   * @param pool the logged candidates it would have recalled, in the logged order
   * @param complete false when it would have recalled intents the logging policy did not: a wider recall, or a lower
   *     similarity gate, reaching past what the log holds
   */
  public record Recalled(List<Candidate> pool, boolean complete) {}

  /**
   * The part of a logged pool that a Phase A recalling {@code width} intents at gate {@code config}'s δ would have
   * recalled: the {@code width} most similar intents at or above δ, where the candidates that share a logged
   * similarity are one intent's (a memory's similarity is its intent's). The log holds the logging policy's own
   * recall ({@code logged}'s k1 intents, or its {@code firstEncounterK1} where the pool shows more than k1, at its
   * δ), so a recall reaching past it is flagged rather than guessed at.
   */
  public static Recalled recall(List<Candidate> pool, MemLoopConfig config, int width, MemLoopConfig logged) {
    double[] sims = pool.stream().mapToDouble(Candidate::similarity).distinct().sorted().toArray(); // ascending
    int intents = sims.length;
    int asked = intents > logged.k1()
        ? (SelectionPipeline.wideRecall(logged) ? Math.max(intents, logged.firstEncounterK1()) : intents)
        : logged.k1();
    double gate = config.similarityThreshold();
    boolean complete = intents >= asked
        // the log holds the most similar intents there were: enough of them, or the rest are below this gate
        ? width <= asked || sims[0] < gate
        // the logging gate cut its recall: it holds every intent at or above that gate
        : gate >= logged.similarityThreshold() || width <= intents;
    java.util.Set<Double> kept = new java.util.HashSet<>();
    for (int i = intents - 1; i >= 0 && kept.size() < width && sims[i] >= gate; i--) {
      kept.add(sims[i]);
    }
    List<Candidate> recalled = pool.stream().filter(c -> kept.contains(c.similarity())).toList();
    return new Recalled(recalled, complete);
  }

  /** Ids of the candidates {@code config} would select, in the order it would show them. */
  public static List<String> select(List<Candidate> pool, MemLoopConfig config) {
    MemLoopConfig greedy = config.toBuilder()
        .set("similarityScope", "INTENT_GROUP") // each candidate is its own group: its logged similarity is used
        .set("taskLearning", "OFF")
        .set("epsilon", "0")
        .set("exploration", "NONE")
        .build();
    List<Candidate> sorted = oldestFirst(pool);
    List<PoolEntry> entries = new ArrayList<>(sorted.size());
    for (Candidate c : sorted) {
      // newest-first ties by the id's sequence number; ids of another form sort as oldest
      long seq = MemoryStore.sequenceOf(c.memoryId());
      Instant created = Instant.ofEpochSecond(Math.max(0, Math.min(seq, Instant.MAX.getEpochSecond())));
      entries.add(new PoolEntry(c.memoryId(), c.similarity(), c.q(), created, Outcome.UNKNOWN, null, null));
    }
    return SelectionPipeline.select(entries, UNIT, greedy, null, new SplittableRandom(0)).selectedIds();
  }

  /**
   * The pool in the order a store lists memories, oldest first (by the id's sequence; ids of another form first,
   * in their logged order): the order Phase B's stable sort leaves ties in.
   */
  static List<Candidate> oldestFirst(List<Candidate> pool) {
    List<Candidate> sorted = new ArrayList<>(pool);
    sorted.sort(Comparator.comparingLong(c -> MemoryStore.sequenceOf(c.memoryId())));
    return sorted;
  }
}
