package io.memloop.policy;

import io.memloop.store.IntentMatch;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where a new memory goes: it joins the intent group nearest to its intent, in {@link Recall} order
 * (most similar, ties to the lower intent sequence, the older group), if that group's cosine is at
 * least the merge threshold; otherwise it starts a new group whose representative embedding is its
 * own. Equivalently: the first result of a {@link io.memloop.store.MemoryStore#recall} with k = 1 at
 * the merge threshold.
 *
 * <p>The engine decides this ({@link io.memloop.MemLoop} searches, or reuses its retrieval's search)
 * and hands the store its decision as a hint ({@link io.memloop.store.MemoryStore#insert(
 * io.memloop.store.NewMemory, double, String)}); a store obeys a hint as it is (null: a new group) and
 * decides with this rule only when it has no hint (a plain {@code insert}, {@code insertAll}, a copy, an
 * import) or when the hinted group has been deleted since. A store's search for the nearest group may
 * be approximate (HNSW); the rule is stated on the exact cosines it recomputes.
 */
public final class Grouping {
  private Grouping() {}

  /** Whether a group at cosine {@code similarity} to the new intent may take the memory: {@code similarity >= mergeThreshold}. */
  public static boolean qualifies(double similarity, double mergeThreshold) {
    return similarity >= mergeThreshold;
  }

  /**
   * Whether a qualifying group of {@code similarity} and intent sequence {@code seq} is a better home than
   * the best found so far ({@code bestSimilarity}, {@code bestSeq}): it comes first in {@link Recall} order.
   */
  public static boolean prefers(double similarity, long seq, double bestSimilarity, long bestSeq) {
    return Recall.compare(similarity, seq, bestSimilarity, bestSeq) < 0;
  }

  /**
   * The group a new memory joins given the nearest group ({@code nearestIntentId}, null if there is none,
   * at cosine {@code nearestSimilarity}): that group if it {@link #qualifies}, else null (a new group).
   */
  public static @Nullable String join(@Nullable String nearestIntentId, double nearestSimilarity, double mergeThreshold) {
    return nearestIntentId != null && qualifies(nearestSimilarity, mergeThreshold) ? nearestIntentId : null;
  }

  /** {@link #join(String, double, double)} of the first of {@code recalled}, a recall in {@link Recall} order. */
  public static @Nullable String join(List<IntentMatch> recalled, double mergeThreshold) {
    if (recalled.isEmpty()) {
      return null;
    }
    IntentMatch nearest = recalled.getFirst();
    return join(nearest.intentId(), nearest.similarity(), mergeThreshold);
  }
}
