package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TieBreakTest {
  private static final Instant T = Instant.EPOCH;

  private static List<PoolEntry> pool(Instant... created) {
    List<PoolEntry> out = new ArrayList<>();
    for (int i = 0; i < created.length; i++) {
      out.add(new PoolEntry("m" + i, 0, 0, created[i], Outcome.SUCCESS, null, null));
    }
    return out;
  }

  @Test
  void higherScore_comesFirst_whateverTheSimilarity() {
    int[] order = TieBreak.order(new double[] {0.1, 0.5, 0.3}, new double[] {0.9, 0.1, 0.5}, pool(T, T, T),
        MemLoopConfig.TieBreak.OLDEST_FIRST);
    assertThat(order).containsExactly(1, 2, 0);
  }

  @Test
  void equalScores_goByHigherSimilarity() {
    int[] order = TieBreak.order(new double[] {0.5, 0.5, 0.5}, new double[] {0.7, 0.9, 0.8}, pool(T, T, T),
        MemLoopConfig.TieBreak.NEWEST_FIRST);
    assertThat(order).containsExactly(1, 2, 0);
  }

  @Test
  void equalScoreAndSimilarity_oldestFirst_keepsThePoolOrder() {
    int[] order = TieBreak.order(new double[4], new double[4], pool(T.plusSeconds(3), T, T.plusSeconds(1), T),
        MemLoopConfig.TieBreak.OLDEST_FIRST);
    assertThat(order).containsExactly(0, 1, 2, 3);
  }

  @Test
  void equalScoreAndSimilarity_newestFirst_laterCreationFirst_thenLaterInThePool() {
    int[] order = TieBreak.order(new double[4], new double[4], pool(T.plusSeconds(3), T, T.plusSeconds(1), T),
        MemLoopConfig.TieBreak.NEWEST_FIRST);
    assertThat(order).containsExactly(0, 2, 3, 1);
  }

  @Test
  void negativeZero_sortsAfterZero_asTheEngineAlwaysHas() {
    int[] order = TieBreak.order(new double[] {-0.0, 0.0}, new double[2], pool(T, T), MemLoopConfig.TieBreak.OLDEST_FIRST);
    assertThat(order).containsExactly(1, 0);
  }

  /** The order is the stable boxed sort the engine used before the pipeline, on pools with many ties. */
  @Test
  void order_equalsAStableComparatorSort_onRandomPoolsWithTies() {
    SplittableRandom rnd = new SplittableRandom(26);
    for (int trial = 0; trial < 3_000; trial++) {
      int n = rnd.nextInt(40);
      double[] score = new double[n];
      double[] sim = new double[n];
      Instant[] created = new Instant[n];
      for (int i = 0; i < n; i++) {
        score[i] = rnd.nextInt(4) == 0 ? -0.0 : rnd.nextInt(5) * 0.25 - 0.5;
        sim[i] = rnd.nextInt(3) * 0.1;
        created[i] = T.plusSeconds(rnd.nextInt(3));
      }
      List<PoolEntry> pool = pool(created);
      for (MemLoopConfig.TieBreak rule : MemLoopConfig.TieBreak.values()) {
        Integer[] expected = new Integer[n];
        Arrays.setAll(expected, i -> i);
        Comparator<Integer> byScore =
            Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingDouble(i -> -sim[i]);
        if (rule == MemLoopConfig.TieBreak.NEWEST_FIRST) {
          byScore = byScore.thenComparing((Integer i) -> created[i], Comparator.reverseOrder()).thenComparing(i -> -i);
        }
        Arrays.sort(expected, byScore);
        assertThat(TieBreak.order(score, sim, pool, rule)).as("trial %d, %s", trial, rule)
            .containsExactly(Arrays.stream(expected).mapToInt(Integer::intValue).toArray());
      }
    }
  }
}
