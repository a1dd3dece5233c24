package io.memloop.bench;

import java.util.List;

/**
 * One episode of a run, everything later analyses need (accuracy curves, forgetting, whether the
 * top-ranked memory's Q predicted the episode's success).
 *
 * @param epoch 1-based
 * @param shownIds the memories shown to the policy, in rank order
 * @param candidates size of the candidate pool they were selected from
 * @param firstShown whether the top-ranked memory truly helped (measured with the environment's
 *     ground truth after the fact; the strategy never sees it)
 * @param firstShownQ the top-ranked memory's Q when it was retrieved, learned from earlier episodes
 *     only; NaN when nothing was shown, the strategy learns no Q, or that memory was never rewarded
 * @param shownChars characters of experience text shown to the policy (the prompt budget memory took)
 */
public record EpisodeRow(
    String strategy,
    long seed,
    int epoch,
    String taskId,
    boolean success,
    double reward,
    List<String> shownIds,
    int candidates,
    FirstShown firstShown,
    double firstShownQ,
    int shownChars) {

  /** What the top-ranked memory of an episode was, judged by ground truth. */
  public enum FirstShown {
    /** Nothing was shown. */
    NONE,
    /** The first memory shown truly helps the task. */
    HELPS,
    /** The first memory shown misleads: a distractor's or a stale success that does not fit the task. */
    MISLEADS,
    /** The first memory shown neither helps nor misleads (e.g. a failure note). */
    NEUTRAL,
    /** The environment has no ground truth to judge with. */
    UNKNOWN
  }

  /** An episode whose first shown memory was not judged (tests). */
  EpisodeRow(String strategy, long seed, int epoch, String taskId, boolean success, double reward,
      List<String> shownIds, int candidates) {
    this(strategy, seed, epoch, taskId, success, reward, shownIds, candidates,
        shownIds.isEmpty() ? FirstShown.NONE : FirstShown.UNKNOWN, Double.NaN, 0);
  }

  /** An episode without a learned Q for its first shown memory. */
  EpisodeRow(String strategy, long seed, int epoch, String taskId, boolean success, double reward,
      List<String> shownIds, int candidates, FirstShown firstShown) {
    this(strategy, seed, epoch, taskId, success, reward, shownIds, candidates, firstShown, Double.NaN, 0);
  }

  public EpisodeRow {
    shownIds = List.copyOf(shownIds);
    if (epoch < 1) {
      throw new IllegalArgumentException("epoch must be at least 1, got " + epoch);
    }
  }
}
