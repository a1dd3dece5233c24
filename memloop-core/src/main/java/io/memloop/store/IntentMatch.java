package io.memloop.store;

import io.memloop.Memory;
import java.util.List;

/**
 * Phase A hit: one intent group, its cosine to the query, and every memory grouped under it
 * (oldest first). The candidate pool is the union of these lists, so it can exceed k1.
 */
public record IntentMatch(String intentId, double similarity, List<Memory> memories) {
  public IntentMatch {
    memories = List.copyOf(memories);
  }
}
