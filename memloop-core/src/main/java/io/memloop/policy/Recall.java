package io.memloop.policy;

import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import java.util.Comparator;

/**
 * The order of Phase A: intent groups most similar to the query first; groups at exactly the same
 * similarity by their intent id's sequence number, ascending (the older group first). Every store
 * returns {@link MemoryStore#recall} in this order, and {@link Grouping} picks the group a new memory
 * joins by it, so "the nearest intent" means the same thing everywhere.
 *
 * <p>Similarities compare as {@link Double#compare} does. (A cosine computed by {@link
 * io.memloop.Vectors#dot} is never {@code -0.0} or NaN for unit vectors, so this is the numeric order.)
 *
 * <p>The rule is a static method over primitives so that a store sorts its own hit type with it and
 * allocates nothing per comparison.
 */
public final class Recall {
  private Recall() {}

  /**
   * {@link #compare} over matches whose ids are store ids {@code i<digits>}; an id of another form sorts
   * after those at the same similarity, by its text.
   */
  public static final Comparator<IntentMatch> ORDER = (a, b) -> {
    long sa = MemoryStore.sequenceOf(a.intentId(), 'i');
    long sb = MemoryStore.sequenceOf(b.intentId(), 'i');
    int c = compare(a.similarity(), sa < 0 ? Long.MAX_VALUE : sa, b.similarity(), sb < 0 ? Long.MAX_VALUE : sb);
    return c != 0 || sa >= 0 || sb >= 0 ? c : a.intentId().compareTo(b.intentId());
  };

  /**
   * Negative if the group of {@code similarity1} and intent sequence {@code seq1} comes before the one of
   * {@code similarity2} and {@code seq2} in a recall: higher similarity first, then the lower sequence
   * number (the older group). Zero only for the same group.
   */
  public static int compare(double similarity1, long seq1, double similarity2, long seq2) {
    int c = Double.compare(similarity2, similarity1);
    return c != 0 ? c : Long.compare(seq1, seq2);
  }
}
