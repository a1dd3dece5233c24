package io.memloop.bench;

import java.util.List;

/**
 * Everything one run (one strategy, one seed) produced.
 *
 * @param rows every episode, in the order they ran
 * @param memoryCounts memories held at the end of each epoch
 * @param transferRows episodes on the held-out tasks after the last epoch, memory frozen (epoch =
 *     epochs + 1)
 * @param wallNanos wall time of the run
 */
public record RunResult(
    String strategy,
    long seed,
    int epochs,
    List<EpisodeRow> rows,
    List<Long> memoryCounts,
    List<EpisodeRow> transferRows,
    long wallNanos) {

  /** A run without transfer phase or timing (tests). */
  RunResult(String strategy, long seed, int epochs, List<EpisodeRow> rows, List<Long> memoryCounts) {
    this(strategy, seed, epochs, rows, memoryCounts, List.of(), 0);
  }

  public RunResult {
    rows = List.copyOf(rows);
    memoryCounts = List.copyOf(memoryCounts);
    transferRows = List.copyOf(transferRows);
    if (memoryCounts.size() != epochs) {
      throw new IllegalArgumentException(
          "memoryCounts has " + memoryCounts.size() + " entries for " + epochs + " epochs");
    }
  }
}
