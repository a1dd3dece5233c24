package io.memloop;

import java.util.List;

/**
 * The answer to {@link MemLoop#reward}: the utilities the reward changed, durable on return.
 *
 * @param target what the utilities moved towards: the reward, or a Bellman/TD reward's {@code r + γ·V'}
 */
public record RewardResult(String retrievalId, double reward, List<UtilityChange> changes, double target) {
  public RewardResult {
    changes = List.copyOf(changes);
  }

  /** A Monte-Carlo reward: the target is the reward. */
  public RewardResult(String retrievalId, double reward, List<UtilityChange> changes) {
    this(retrievalId, reward, changes, reward);
  }
}
