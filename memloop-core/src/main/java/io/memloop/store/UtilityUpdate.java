package io.memloop.store;

import io.memloop.Utility;

/**
 * The learning rule the engine hands to {@link MemoryStore#applyReward}: the store calls it under
 * its per-memory lock, so read-modify-write of Q never loses an update.
 */
@FunctionalInterface
public interface UtilityUpdate {
  Utility apply(String memoryId, Utility current);

  /**
   * Called once the retrieval is claimable, before {@link #apply} and before anything changes: a rule
   * that throws here leaves the retrieval pending and every memory as it was.
   */
  default void check(RetrievalRecord retrieval) {}
}
