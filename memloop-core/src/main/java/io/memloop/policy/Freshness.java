package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.store.MemoryStore;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Newer memories first where a success has gone stale, for a task with no record of its own
 * ({@link MemLoopConfig#freshness()}). The step of Phase B that lets stale experiences lose to newer evidence after a
 * change in the world: a runbook that went stale, an answer that moved.
 *
 * <p>It acts only when all three hold:
 * <ul>
 *   <li>the task has no record of its own ({@link SelectionPipeline#firstEncounter}): with a record, per-task learning
 *       knows what worked for it and ranks that first;</li>
 *   <li>a success experience that has gone stale ({@link TaskView#stale}: it helped an episode that used it, and the
 *       last two episodes that used it failed) bears on the task ({@link #stale}): it is among what the task would be
 *       shown, or {@value #SEVERAL} stale successes are in its pool. One stale success far down a pool is most often a
 *       look-alike's plan that failed the look-alikes that followed it; newer-first over the whole pool for it costs
 *       the asker its own proven memories;</li>
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

  /** How many stale successes anywhere among the eligible bear on a task without one among what it would be shown. */
  static final int SEVERAL = 2;

  /**
   * The stale success ({@link TaskView#stale}) that bears on the task, or null when none does: the first among the
   * first {@code shown} eligible ({@code order[0..min(shown, m))}, what the task would be shown), or, when none is
   * there, the first of the eligible ({@code order[0..m)}) once {@value #SEVERAL} of them are stale.
   *
   * <p>One stale success far down the pool says little of the asking task: it is most often a look-alike's plan that
   * failed for the look-alikes that followed it, and putting the newer first over the whole pool for it pushes the
   * asker's own proven memories below newer ones of other tasks. One among what the task would be shown would mislead
   * it now; several anywhere in its pool say the world moved around it.
   */
  static @Nullable PoolEntry stale(List<PoolEntry> pool, int[] order, int m, int shown, TaskView task) {
    PoolEntry first = null;
    int count = 0;
    for (int r = 0; r < m; r++) {
      PoolEntry e = pool.get(order[r]);
      if (e.outcome() == Outcome.SUCCESS && task.stale().contains(e.id())) {
        if (r < shown) {
          return e;
        }
        if (first == null) {
          first = e;
        }
        if (++count >= SEVERAL) {
          return first;
        }
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
