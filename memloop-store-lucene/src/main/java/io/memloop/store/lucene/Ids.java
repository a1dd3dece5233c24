package io.memloop.store.lucene;

/**
 * Store ids are a one-letter kind and a sequence number: {@code "i12"} (intent group), {@code "m13"}
 * (memory), {@code "r14"} (retrieval), the same shapes as the in-memory store. Only the canonical
 * spelling is accepted, so two different strings never name the same thing.
 */
final class Ids {
  private Ids() {}

  /** The sequence number of {@code id} if it is a canonical id of kind {@code kind}, else -1. */
  static long parse(String id, char kind) {
    int n = id.length();
    if (n < 2 || n > 20 || id.charAt(0) != kind || id.charAt(1) == '0') {
      return -1;
    }
    long v = 0;
    for (int i = 1; i < n; i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
      if (v < 0) {
        return -1;
      }
    }
    return v;
  }
}
