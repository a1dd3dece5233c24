package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.store.MemoryStore;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Newer memories first where a success has gone stale, for a task with no record of its own
 * ({@link MemLoopConfig#freshness()}). The step of Phase B that lets stale experiences lose to newer evidence after a
 * change in the world: a runbook that went stale, an answer that moved.
 *
 * <p>It acts only when all three hold:
 * <ul>
 *   <li>the task has no record of its own ({@link SelectionPipeline#firstEncounter}): with a record, per-task learning
 *       knows what worked for it and ranks that first;</li>
 *   <li>the pool holds a success experience that has gone stale ({@link TaskView#stale}): it helped an episode that
 *       used it, and the last two episodes that used it failed;</li>
 *   <li>tasks seldom come back in the namespace: the weight is {@code freshness × (1 − recurrence)}, where recurrence
 *       is the namespace's share of rewarded retrievals made by a task rewarded before ({@link TaskView#recurrence}).
 *       Where tasks come back, per-task learning knows what works for each, a success that fails was more often
 *       tried by look-alike tasks (their failures read just as a change would), and the newest memories are merely the
 *       tasks played last; where every task is new, a success that worked and now keeps failing is the sign of a
 *       change, and the newest memories are the evidence after it.</li>
 * </ul>
 * Each eligible candidate's score then gains {@code weight × z(creation rank)}: its rank by creation time (then by the
 * sequence in its id, for memories created in the same instant) among the eligible, z-scored over them (clipped to ±3,
 * as {@link Score} normalises), the newest highest. The eligible are reordered by that sum, highest first; equal sums
 * keep the order they had. Measured in BENCHMARKS.md (stream mode): episodes to recover after a drift.
 *
 * <p>Stateless and thread-safe.
 */
final class Freshness {
  private Freshness() {}

  /** The weight of the creation rank for {@code task}: {@code freshness × (1 − recurrence)}. */
  static double weight(MemLoopConfig config, TaskView task) {
    return config.freshness() * (1 - task.recurrence());
  }

  /** The first stale success ({@link TaskView#stale}) among the eligible ({@code order[0..m)}), or null when there is none. */
  static PoolEntry stale(List<PoolEntry> pool, int[] order, int m, TaskView task) {
    for (int r = 0; r < m; r++) {
      PoolEntry e = pool.get(order[r]);
      if (e.outcome() == Outcome.SUCCESS && task.stale().contains(e.id())) {
        return e;
      }
    }
    return null;
  }

  /**
   * Reorders the eligible candidates {@code order[0..m)} by {@code score + weight × z(creation rank)}, highest first
   * (equal sums keep their order). The rest of {@code order} is not touched.
   *
   * @param score by pool index
   */
  static void reorder(List<PoolEntry> pool, int[] order, int m, double[] score, double weight) {
    Integer[] byAge = new Integer[m]; // positions in order[0..m), oldest first
    for (int r = 0; r < m; r++) {
      byAge[r] = r;
    }
    Comparator<Integer> oldestFirst = Comparator.comparing((Integer r) -> pool.get(order[r]).createdAt())
        .thenComparingLong(r -> MemoryStore.sequenceOf(pool.get(order[r]).id()));
    Arrays.sort(byAge, oldestFirst);
    double[] rank = new double[m]; // by position: 0 for the oldest; memories of equal age share a rank
    for (int a = 1; a < m; a++) {
      rank[byAge[a]] = oldestFirst.compare(byAge[a - 1], byAge[a]) == 0 ? rank[byAge[a - 1]] : a;
    }
    double[] z = Score.zScoreClipped(rank);
    double[] sum = new double[m];
    Integer[] pos = new Integer[m];
    for (int r = 0; r < m; r++) {
      sum[r] = score[order[r]] + weight * z[r];
      pos[r] = r;
    }
    Arrays.sort(pos, (a, b) -> Double.compare(sum[b], sum[a])); // stable: equal sums keep their order
    int[] before = Arrays.copyOf(order, m);
    for (int r = 0; r < m; r++) {
      order[r] = before[pos[r]];
    }
  }
}
