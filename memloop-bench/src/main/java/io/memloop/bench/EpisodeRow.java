package io.memloop.bench;

import java.util.List;

/**
 * One episode of a run, everything later analyses need (accuracy curves, forgetting, the Pearson
 * correlation of a memory's Q with the success of the episodes that used it).
 *
 * @param epoch 1-based
 * @param shownIds the memories shown to the policy, in rank order
 * @param candidates size of the candidate pool they were selected from
 */
record EpisodeRow(
    String strategy,
    long seed,
    int epoch,
    String taskId,
    boolean success,
    double reward,
    List<String> shownIds,
    int candidates) {
  EpisodeRow {
    shownIds = List.copyOf(shownIds);
    if (epoch < 1) {
      throw new IllegalArgumentException("epoch must be at least 1, got " + epoch);
    }
  }
}
