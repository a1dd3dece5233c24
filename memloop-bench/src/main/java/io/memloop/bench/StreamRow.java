package io.memloop.bench;

import java.util.List;

/**
 * One episode of a stream run ({@link StreamLoop}): everything {@link StreamMetrics} and the raw files need.
 *
 * @param index position in the stream, 0-based
 * @param taskId the environment's readable id of the instance (strategies saw an opaque one)
 * @param kind the instance's recurring kind (never shown to strategies)
 * @param driftingKind whether its kind is one that changes at the drift
 * @param shownIds the memories shown to the policy, in rank order
 * @param candidates size of the pool they were selected from
 * @param firstShown the top-ranked memory judged with the world's ground truth after the fact
 * @param shownChars characters of experience text shown to the policy
 */
public record StreamRow(
    int index,
    String taskId,
    String kind,
    boolean driftingKind,
    boolean success,
    double reward,
    List<String> shownIds,
    int candidates,
    EpisodeRow.FirstShown firstShown,
    int shownChars) {

  public StreamRow {
    shownIds = List.copyOf(shownIds);
    if (index < 0) {
      throw new IllegalArgumentException("index must be >= 0, got " + index);
    }
  }

  /** A row with nothing shown (tests). */
  static StreamRow of(int index, String kind, boolean driftingKind, boolean success) {
    return new StreamRow(index, "t" + index, kind, driftingKind, success, success ? 1 : -1, List.of(), 0,
        EpisodeRow.FirstShown.NONE, 0);
  }
}
