package io.memloop.bench;

import java.util.List;

/**
 * Everything one run (one strategy, one seed) produced.
 *
 * @param rows every episode, in the order they ran
 * @param memoryCounts memories held at the end of each epoch
 */
record RunResult(String strategy, long seed, int epochs, List<EpisodeRow> rows, List<Long> memoryCounts) {
  RunResult {
    rows = List.copyOf(rows);
    memoryCounts = List.copyOf(memoryCounts);
    if (memoryCounts.size() != epochs) {
      throw new IllegalArgumentException(
          "memoryCounts has " + memoryCounts.size() + " entries for " + epochs + " epochs");
    }
  }
}
