package io.memloop;

import java.util.List;

/** The answer to {@link MemLoop#reward}: the utilities the reward changed, durable on return. */
public record RewardResult(String retrievalId, double reward, List<UtilityChange> changes) {
  public RewardResult {
    changes = List.copyOf(changes);
  }
}
