package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** Shared builders of the bench tests. */
public final class Fixtures {
  private Fixtures() {}

  private static final AtomicInteger NEXT_ID = new AtomicInteger();

  /** A stored memory carrying {@code experience}, as a strategy would show it to the policy. */
  public static Memory memory(String experience) {
    return memory(experience, Outcome.UNKNOWN);
  }

  /** The same, stored with {@code outcome} (which the frozen policies never read, but LLM prompts do). */
  public static Memory memory(String experience, Outcome outcome) {
    return new Memory(
        "m" + NEXT_ID.incrementAndGet(), "bench", "i1", "", new float[] {1}, experience, outcome, 0, 0,
        Instant.EPOCH, Instant.EPOCH);
  }

  /** Rows of one run from a success matrix {@code solved[epoch][task]}, tasks named t0, t1... */
  static List<EpisodeRow> rows(boolean[][] solved) {
    List<EpisodeRow> rows = new ArrayList<>();
    for (int e = 0; e < solved.length; e++) {
      for (int t = 0; t < solved[e].length; t++) {
        rows.add(new EpisodeRow("s", 1, e + 1, "t" + t, solved[e][t], solved[e][t] ? 1 : -1, List.of(), 0));
      }
    }
    return rows;
  }

  public static RecurringTasksEnvironment env(long seed, int families, int twins, double staleShare, double slip) {
    return RecurringTasksEnvironment.generate(
        seed, new RecurringTasksEnvironment.Knobs(families, twins, staleShare, slip));
  }
}
