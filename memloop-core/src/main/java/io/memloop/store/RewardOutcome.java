package io.memloop.store;

import io.memloop.UtilityChange;
import java.time.Instant;
import java.util.List;

/** What {@link MemoryStore#applyReward} did. */
public sealed interface RewardOutcome {
  /** The retrieval was claimed and its selected memories updated; durable on return. */
  record Applied(RetrievalRecord retrieval, List<UtilityChange> changes) implements RewardOutcome {
    public Applied {
      changes = List.copyOf(changes);
    }
  }

  /** No such retrieval in this namespace (never existed, or expired long ago and was purged). */
  record Unknown() implements RewardOutcome {}

  /** The retrieval was rewarded before, at {@code rewardedAt}. */
  record AlreadyRewarded(Instant rewardedAt) implements RewardOutcome {}

  /** The retrieval exists but its time to be rewarded ran out at {@code expiredAt}. */
  record Expired(Instant expiredAt) implements RewardOutcome {}
}
