package io.memloop.policy;

import io.memloop.MemLoopConfig;
import java.util.List;

/**
 * Step 2 of Phase B: the greedy order of the whole pool. The full order, every key stated:
 * <ol>
 *   <li>score, highest first ({@link Score});
 *   <li>then similarity, highest first;
 *   <li>then the configured {@link MemLoopConfig.TieBreak}: {@code OLDEST_FIRST} keeps the pool's order (the
 *       reference: its store lists a group oldest first and its sort is stable), so the lower pool index first;
 *       {@code NEWEST_FIRST} puts the later creation time first, then the higher pool index (the later in the
 *       store's order within a group).
 * </ol>
 * Doubles compare as {@link Double#compare} compares their negations ({@code -0.0} and NaN included), as the
 * engine always has. The order is total (the pool index is its last key), so the sort's stability cannot
 * decide anything. Stateless and thread-safe.
 */
final class TieBreak {
  /** Pools up to this size are sorted by insertion; larger ones by merging. */
  static final int INSERTION_SORT_MAX = 16;

  private TieBreak() {}

  /** Pool indices {@code 0..n-1} in greedy order. */
  static int[] order(double[] score, double[] sim, List<PoolEntry> pool, MemLoopConfig.TieBreak rule) {
    int n = score.length;
    int[] order = new int[n];
    for (int i = 0; i < n; i++) {
      order[i] = i;
    }
    boolean newest = rule == MemLoopConfig.TieBreak.NEWEST_FIRST;
    if (n <= INSERTION_SORT_MAX) { // the common pool: in place, no scratch array
      for (int r = 1; r < n; r++) {
        int i = order[r];
        int s = r - 1;
        while (s >= 0 && compare(i, order[s], score, sim, pool, newest) < 0) {
          order[s + 1] = order[s];
          s--;
        }
        order[s + 1] = i;
      }
      return order;
    }
    // bottom-up merge sort over int indices: no boxing, one scratch array
    int[] from = order;
    int[] to = new int[n];
    for (int width = 1; width < n; width *= 2) {
      for (int lo = 0; lo < n; lo += 2 * width) {
        int mid = Math.min(lo + width, n);
        int hi = Math.min(lo + 2 * width, n);
        int a = lo;
        int b = mid;
        int k = lo;
        while (a < mid && b < hi) {
          to[k++] = compare(from[b], from[a], score, sim, pool, newest) < 0 ? from[b++] : from[a++];
        }
        while (a < mid) {
          to[k++] = from[a++];
        }
        while (b < hi) {
          to[k++] = from[b++];
        }
      }
      int[] t = from;
      from = to;
      to = t;
    }
    return from;
  }

  /** Negative when pool index {@code i} comes before {@code j} in the greedy order; 0 only when i == j. */
  static int compare(int i, int j, double[] score, double[] sim, List<PoolEntry> pool, boolean newestFirst) {
    int c = Double.compare(-score[i], -score[j]);
    if (c != 0) {
      return c;
    }
    c = Double.compare(-sim[i], -sim[j]);
    if (c != 0) {
      return c;
    }
    if (!newestFirst) {
      return Integer.compare(i, j);
    }
    c = pool.get(j).createdAt().compareTo(pool.get(i).createdAt());
    return c != 0 ? c : Integer.compare(j, i);
  }
}
