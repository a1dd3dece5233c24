package io.memloop.bench;

import java.util.List;

/**
 * Everything one stream run (one strategy, one seed, one environment) produced.
 *
 * @param driftAt index of the first episode played after the drift
 * @param rows every episode, in stream order (row {@code i} has index {@code i})
 * @param memoryCounts memories held after each window of {@link StreamMetrics#WINDOW} episodes (the last window
 *     may be shorter), so the last entry is the count at the end
 * @param wallNanos wall time of the run
 */
public record StreamRun(String strategy, long seed, int driftAt, List<StreamRow> rows, List<Long> memoryCounts,
    long wallNanos) {

  public StreamRun {
    rows = List.copyOf(rows);
    memoryCounts = List.copyOf(memoryCounts);
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).index() != i) {
        throw new IllegalArgumentException("row " + i + " has index " + rows.get(i).index());
      }
    }
    if (driftAt < 0 || driftAt > rows.size()) {
      throw new IllegalArgumentException("driftAt=" + driftAt + " outside a stream of " + rows.size());
    }
    if (memoryCounts.size() != StreamMetrics.windows(rows.size())) {
      throw new IllegalArgumentException("memoryCounts has " + memoryCounts.size() + " entries for "
          + StreamMetrics.windows(rows.size()) + " windows");
    }
  }
}
