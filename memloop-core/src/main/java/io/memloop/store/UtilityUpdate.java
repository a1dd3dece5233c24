package io.memloop.store;

import io.memloop.Utility;

/**
 * The learning rule the engine hands to {@link MemoryStore#applyReward}: the store calls it under
 * its per-memory lock, so read-modify-write of Q never loses an update.
 */
@FunctionalInterface
public interface UtilityUpdate {
  Utility apply(String memoryId, Utility current);
}
