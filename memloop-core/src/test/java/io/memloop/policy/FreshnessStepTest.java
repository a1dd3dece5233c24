package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Preset;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Freshness}: its gate, its weight and its reorder, against a direct computation. */
class FreshnessStepTest {
  private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
  private static final MemLoopConfig DEFAULT = MemLoopConfig.preset(Preset.DEFAULT);

  private static PoolEntry entry(int seq, long second, double sim, double q, Outcome outcome) {
    return new PoolEntry("m" + seq, sim, q, T0.plusSeconds(second), outcome, null, null);
  }

  private static TaskView view(double recurrence) {
    return view(recurrence, Set.of());
  }

  private static TaskView view(double recurrence, Set<String> stale) {
    return new TaskView("tk", 0, 0, 0.5, Map.of(), 1, 0.5, Map.of(), recurrence, stale);
  }

  @Test
  void theWeightFallsWithRecurrence() {
    assertThat(Freshness.weight(DEFAULT, view(0))).isEqualTo(0.75);
    assertThat(Freshness.weight(DEFAULT, view(0.5))).isEqualTo(0.375);
    assertThat(Freshness.weight(DEFAULT, view(1))).isZero();
    assertThat(Freshness.weight(DEFAULT.toBuilder().freshness(0).build(), view(0))).isZero();
  }

  @Test
  void stale_isTheFirstEligibleSuccessTheLedgerCallsStale_notAFailureNote_notADroppedOne() {
    List<PoolEntry> pool = List.of(entry(1, 0, 0.9, 0, Outcome.FAILURE), entry(2, 1, 0.8, 0, Outcome.SUCCESS),
        entry(3, 2, 0.7, 0, Outcome.SUCCESS), entry(4, 3, 0.6, 0, Outcome.SUCCESS));
    TaskView task = view(0, Set.of("m1", "m3", "m4"));
    assertThat(Freshness.stale(pool, new int[] {0, 1, 2, 3}, 4, 8, task).id()).isEqualTo("m3");
    assertThat(Freshness.stale(pool, new int[] {0, 1, 3, 2}, 2, 8, task)).isNull(); // m3 and m4 not eligible
    assertThat(Freshness.stale(pool, new int[] {0, 1, 2, 3}, 4, 8, view(0))).isNull();
  }

  @Test
  void stale_bearsOnTheTaskAmongWhatItWouldBeShown_orWhenSeveralAreInItsPool() {
    List<PoolEntry> pool = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      pool.add(entry(i, i, 0.9 - i / 10.0, 0, Outcome.SUCCESS));
    }
    int[] order = {0, 1, 2, 3, 4, 5};
    // one stale success behind what the task would be shown (the first 3): says little of the task
    assertThat(Freshness.stale(pool, order, 6, 3, view(0, Set.of("m4")))).isNull();
    // the same one among what it would be shown
    assertThat(Freshness.stale(pool, order, 6, 5, view(0, Set.of("m4"))).id()).isEqualTo("m4");
    // two behind what it would be shown: the first of them
    assertThat(Freshness.stale(pool, order, 6, 3, view(0, Set.of("m5", "m3"))).id()).isEqualTo("m3");
    // two, but the second dropped (not eligible): one is not several
    assertThat(Freshness.stale(pool, order, 5, 3, view(0, Set.of("m5", "m3")))).isNull();
    // within what it would be shown, the first one wins even with others behind it
    assertThat(Freshness.stale(pool, order, 6, 3, view(0, Set.of("m1", "m4", "m5"))).id()).isEqualTo("m1");
    assertThat(Freshness.SEVERAL).isEqualTo(2);
    assertThat(DEFAULT.shownAtMost()).isEqualTo(8); // k2 = 3, firstEncounterK2 = 8
    assertThat(DEFAULT.toBuilder().firstEncounterK2(0).build().shownAtMost()).isEqualTo(DEFAULT.k2());
  }

  /**
   * Property over seeded random pools: the reorder is a permutation of the eligible only, and it is the order of
   * score + weight × z(creation rank) (creation time, then id sequence), highest first, equal sums in the order given.
   */
  @Test
  void reorder_isTheOrderOfScorePlusWeightedCreationRank_overRandomPools() {
    SplittableRandom rnd = new SplittableRandom(2026_11_27L);
    for (int trial = 0; trial < 500; trial++) {
      int n = 1 + rnd.nextInt(30);
      int m = rnd.nextInt(n + 1);
      List<PoolEntry> pool = new ArrayList<>();
      double[] score = new double[n];
      for (int i = 0; i < n; i++) {
        // few distinct creation times, so that the id sequence breaks ties; scores on a coarse grid, so sums tie too
        pool.add(entry(rnd.nextInt(1000), rnd.nextInt(4), rnd.nextDouble(), 0, Outcome.SUCCESS));
        score[i] = rnd.nextInt(5) - 2;
      }
      int[] order = new int[n];
      for (int i = 0; i < n; i++) {
        order[i] = i;
      }
      for (int i = n - 1; i > 0; i--) { // a random greedy order
        int j = rnd.nextInt(i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
      }
      double weight = rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble() * 3;
      int[] before = order.clone();
      Freshness.reorder(pool, order, m, score, weight);

      assertThat(Arrays.copyOfRange(order, m, n)).isEqualTo(Arrays.copyOfRange(before, m, n));
      // the reference: ranks by (createdAt, sequence), equal keys sharing the lower rank; z over the eligible
      double[] rank = new double[m];
      for (int r = 0; r < m; r++) {
        PoolEntry e = pool.get(before[r]);
        for (int o = 0; o < m; o++) {
          PoolEntry f = pool.get(before[o]);
          int c = f.createdAt().compareTo(e.createdAt());
          if (c < 0 || c == 0 && Long.parseLong(f.id().substring(1)) < Long.parseLong(e.id().substring(1))) {
            rank[r]++;
          }
        }
      }
      double[] z = Score.zScoreClipped(rank);
      Integer[] expected = new Integer[m];
      double[] sum = new double[m];
      for (int r = 0; r < m; r++) {
        expected[r] = r;
        sum[r] = score[before[r]] + weight * z[r];
      }
      Arrays.sort(expected, (a, b) -> Double.compare(sum[b], sum[a]));
      for (int r = 0; r < m; r++) {
        assertThat(order[r]).as("trial %d position %d", trial, r).isEqualTo(before[expected[r]]);
      }
    }
  }
}
