package io.memloop.policy;

/**
 * Step 3 of Phase B (MemRL's utility floor): a candidate whose Q is below {@code q_min} is never selected. It
 * stays in the logged pool, after every eligible candidate, with selection probability 0. A Q that is not
 * {@code >= q_min} (NaN included) is dropped.
 *
 * <p>Ties: none; the partition is stable, so eligible and dropped candidates each keep {@link TieBreak}'s order.
 * Stateless and thread-safe.
 */
final class QMinFilter {
  private QMinFilter() {}

  /**
   * Partitions {@code order} in place, stably: the eligible pool indices first, then the dropped ones.
   *
   * @return how many are eligible
   */
  static int apply(int[] order, double[] q, double qMin) {
    int[] dropped = null; // allocated at the first drop: most pools have none
    int m = 0;
    int d = 0;
    for (int i : order) {
      if (q[i] >= qMin) {
        order[m++] = i;
      } else {
        if (dropped == null) {
          dropped = new int[order.length - m];
        }
        dropped[d++] = i;
      }
    }
    if (dropped != null) {
      System.arraycopy(dropped, 0, order, m, d);
    }
    return m;
  }
}
