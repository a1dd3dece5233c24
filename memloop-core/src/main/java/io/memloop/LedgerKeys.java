package io.memloop;

import org.jspecify.annotations.Nullable;

/**
 * The keys of a namespace's per-task learning ledger ({@link io.memloop.store.MemoryStore#ledger}) that name a memory,
 * in one place: what the engine writes ({@code TaskLedger}), what its sweep drops once the memory is gone, and what a
 * copy into another store renames to the memory's new id ({@link io.memloop.store.StoreCopy}). Memory ids never hold a
 * colon ({@link io.memloop.store.MemoryStore} makes them), so the memory is whatever follows a key's last colon.
 */
public final class LedgerKeys {
  private LedgerKeys() {}

  /** The entry of {@code task}'s net centred reward from the episodes that used {@code memoryId}. */
  static String pair(String task, String memoryId) {
    return "p:" + task + ":" + memoryId;
  }

  /** The {@code c:} entry of a memory: [episodes that used it and succeeded, failed uses since its last successful one]. */
  static String credit(String memoryId) {
    return "c:" + memoryId;
  }

  /** The {@code u:} entry of a memory: its uses, [task hash, centred reward, cosine] triples, oldest first. */
  static String uses(String memoryId) {
    return "u:" + memoryId;
  }

  /** The memory {@code key} names (a {@code p:}, {@code c:} or {@code u:} entry's); null for a key that names none. */
  public static @Nullable String memory(String key) {
    if (key.startsWith("c:") || key.startsWith("u:")) {
      return key.substring(2);
    }
    return key.startsWith("p:") ? key.substring(key.lastIndexOf(':') + 1) : null;
  }

  /** {@code key}, a key that names a memory ({@link #memory} not null), naming {@code memoryId} instead. */
  public static String renamed(String key, String memoryId) {
    if (memory(key) == null) {
      throw new IllegalArgumentException("ledger key " + key + " names no memory");
    }
    return key.substring(0, key.startsWith("p:") ? key.lastIndexOf(':') + 1 : 2) + memoryId;
  }

  /**
   * Whether {@code key}'s entry holds numbers of the embedding model's vectors (the learned weight of each block of a
   * vector, the weights of the vectors' similarity against the texts', the cosines of a memory's uses, the learned
   * similarity's pairs and fit, and the records of whether that similarity and the texts alone paid for new tasks),
   * which mean nothing once the memories are embedded again by another model.
   */
  public static boolean ofTheModel(String key) {
    return key.equals(io.memloop.policy.Blocks.LEDGER_KEY) || key.equals(io.memloop.policy.TextChannel.LEDGER_KEY)
        || key.equals(io.memloop.policy.DirectionsUse.LEDGER_KEY)
        || key.equals(io.memloop.policy.TextAlone.LEDGER_KEY)
        || key.startsWith("u:")
        || key.equals(io.memloop.policy.Directions.PAIRS_KEY) || key.equals(io.memloop.policy.Directions.FIT_KEY)
        || key.startsWith(io.memloop.policy.Directions.PAIRS_KEY + ":") || key.startsWith(io.memloop.policy.Directions.FIT_KEY + ":");
  }
}
