package io.memloop.store.lucene;

/**
 * Store ids are a one-letter kind and a sequence number: {@code "i12"} (intent group), {@code "m13"}
 * (memory), {@code "r14"} (retrieval), the same shapes as the in-memory store. Only the canonical
 * spelling is accepted, so two different strings never name the same thing.
 */
final class Ids {
  private Ids() {}

  /** The sequence number of {@code id} if it is a canonical id of kind {@code kind} (no leading zero), else -1. */
  static long parse(String id, char kind) {
    return id.length() > 1 && id.charAt(1) == '0' ? -1 : io.memloop.store.MemoryStore.sequenceOf(id, kind);
  }
}
