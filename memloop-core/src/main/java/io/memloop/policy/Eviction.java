package io.memloop.policy;

import io.memloop.Memory;
import io.memloop.store.MemoryStore;
import java.util.Comparator;

/**
 * Which memory a capacity bound ({@link io.memloop.MemLoopConfig#maxMemories()}) removes first: the
 * lowest Q, then the fewest visits, then the oldest (the lowest memory sequence number); never the
 * memory just stored ({@link MemoryStore#evictionCandidate}'s {@code keepId}, which the store skips).
 *
 * <p>Q compares numerically ({@code <}, so {@code -0.0} ties {@code 0.0}), as the stores have always
 * compared it. The rule is a static method over primitives so that a store scans its own tables with it.
 */
public final class Eviction {
  private Eviction() {}

  /** {@link #compare} of memories whose ids are store ids {@code m<digits>} (another form counts as the oldest). */
  public static final Comparator<Memory> ORDER = (a, b) -> compare(
      a.q(), a.visits(), MemoryStore.sequenceOf(a.id()), b.q(), b.visits(), MemoryStore.sequenceOf(b.id()));

  /**
   * Negative if memory 1 ({@code q1}, {@code visits1}, sequence {@code seq1}) is evicted before memory 2:
   * lower Q first, then fewer visits, then the lower sequence number (the older). Zero only for equal triples.
   */
  public static int compare(double q1, long visits1, long seq1, double q2, long visits2, long seq2) {
    if (q1 < q2) {
      return -1;
    }
    if (q1 > q2) {
      return 1;
    }
    int c = Long.compare(visits1, visits2);
    return c != 0 ? c : Long.compare(seq1, seq2);
  }
}
