package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Every metric checked against values worked out by hand on tiny runs. */
class MetricsTest {
  private static final boolean T = true;
  private static final boolean F = false;

  /** Three tasks, three epochs: t0 solved then forgotten, t1 learned, t2 never solved. */
  private static final boolean[][] SMALL = {
    {T, F, F},
    {T, T, F},
    {F, T, F},
  };

  @Test
  void epochAccuracy_isMeanSuccessPerEpoch() {
    assertThat(Metrics.epochAccuracy(SMALL)).containsExactly(1.0 / 3, 2.0 / 3, 1.0 / 3);
    assertThat(Metrics.lastEpochAccuracy(SMALL)).isEqualTo(1.0 / 3);
  }

  @Test
  void cumulativeSuccess_countsTasksSolvedAtLeastOnce() {
    // After e1: {t0}; after e2: {t0, t1}; after e3: still {t0, t1} although t0 failed in e3.
    assertThat(Metrics.cumulativeSuccess(SMALL)).containsExactly(1.0 / 3, 2.0 / 3, 2.0 / 3);
  }

  @Test
  void forgettingRate_averagesFailedAmongPreviouslySolved() {
    // t=2: solved in e1 {t0}, all still solved in e2 → 0. t=3: solved in e2 {t0, t1}, t0 failed → 1/2.
    assertThat(Metrics.forgettingRate(SMALL).getAsDouble()).isCloseTo(0.25, within(1e-12));
  }

  @Test
  void forgettingRate_skipsEpochsAfterNothingWasSolved() {
    boolean[][] solved = {
      {F, F},
      {T, F}, // t=2 has no term: nothing was solved in e1
      {F, F}, // t=3: {t0} solved in e2, failed now → 1
      {F, T}, // t=4: nothing solved in e3 → no term
    };
    assertThat(Metrics.forgettingRate(solved).getAsDouble()).isEqualTo(1.0);
  }

  @Test
  void forgettingRate_isEmptyWithOneEpochOrNothingSolved() {
    assertThat(Metrics.forgettingRate(new boolean[][] {{T, T}})).isEqualTo(OptionalDouble.empty());
    assertThat(Metrics.forgettingRate(new boolean[][] {{F}, {F}, {T}})).isEqualTo(OptionalDouble.empty());
  }

  @Test
  void solved_rebuildsTheMatrixFromRows() {
    boolean[][] rebuilt = Metrics.solved(Fixtures.rows(SMALL), 3);
    assertThat(rebuilt).isDeepEqualTo(SMALL);
  }

  @Test
  void solved_withATaskMissingFromAnEpoch_throws() {
    List<EpisodeRow> rows = new ArrayList<>(Fixtures.rows(SMALL));
    rows.removeIf(r -> r.epoch() == 2 && r.taskId().equals("t1"));
    assertThatThrownBy(() -> Metrics.solved(rows, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("task t1 ran 0 times in epoch 2");
  }

  @Test
  void solved_withRowsBeyondTheLastEpoch_throws() {
    assertThatThrownBy(() -> Metrics.solved(Fixtures.rows(SMALL), 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("epoch 3 in a run of 2 epochs");
  }

  @Test
  void curve_combinesEveryMetricOfARun() {
    RunResult run = new RunResult("memrl", 7, 3, Fixtures.rows(SMALL), List.of(3L, 6L, 9L));
    LearningCurve c = Metrics.curve(run);
    assertThat(c.strategy()).isEqualTo("memrl");
    assertThat(c.seed()).isEqualTo(7);
    assertThat(c.epochAccuracy()).containsExactly(1.0 / 3, 2.0 / 3, 1.0 / 3);
    assertThat(c.lastEpochAccuracy()).isEqualTo(1.0 / 3);
    assertThat(c.cumulativeSuccess()).containsExactly(1.0 / 3, 2.0 / 3, 2.0 / 3);
    assertThat(c.forgettingRate().getAsDouble()).isCloseTo(0.25, within(1e-12));
    assertThat(c.memoryCounts()).containsExactly(3L, 6L, 9L);
  }

  private static EpisodeRow row(boolean success, EpisodeRow.FirstShown first, double q) {
    return new EpisodeRow("s", 1, 1, "t", success, success ? 1 : -1, first == EpisodeRow.FirstShown.NONE ? List.of() : List.of("m1"),
        1, first, q, 0);
  }

  @Test
  void qPredictsNext_correlatesQBeforeTheEpisodeWithItsOutcome_skippingUnlearnedQ() {
    List<EpisodeRow> rows = List.of(
        row(T, EpisodeRow.FirstShown.HELPS, 0.9), row(T, EpisodeRow.FirstShown.HELPS, 0.5),
        row(F, EpisodeRow.FirstShown.NEUTRAL, -0.5), row(F, EpisodeRow.FirstShown.NEUTRAL, 0.1),
        row(T, EpisodeRow.FirstShown.NEUTRAL, Double.NaN), row(F, EpisodeRow.FirstShown.NONE, Double.NaN));
    // pairs (0.9,1) (0.5,1) (-0.5,0) (0.1,0): mean q 0.25, mean y 0.5; sxy = 0.65·.5+.25·.5+.75·.5+.15·.5 = 0.9
    // sxx = .4225+.0625+.5625+.0225 = 1.07, syy = 1 → r = 0.9 / sqrt(1.07)
    assertThat(Metrics.qPredictsNext(rows).getAsDouble()).isCloseTo(0.9 / Math.sqrt(1.07), within(1e-12));
    // a Q that is the opposite of what happens next correlates negatively: the metric can fail
    List<EpisodeRow> wrong = List.of(row(F, EpisodeRow.FirstShown.HELPS, 0.9), row(F, EpisodeRow.FirstShown.HELPS, 0.5),
        row(T, EpisodeRow.FirstShown.NEUTRAL, -0.5));
    assertThat(Metrics.qPredictsNext(wrong).getAsDouble()).isNegative();
    assertThat(Metrics.qPredictsNext(rows.subList(4, 6))).isEmpty();
  }

  @Test
  void misledRate_countsOnlyEpisodesThatShowedAJudgedMemory() {
    List<EpisodeRow> rows = List.of(
        row(F, EpisodeRow.FirstShown.MISLEADS, Double.NaN), row(T, EpisodeRow.FirstShown.HELPS, Double.NaN),
        row(F, EpisodeRow.FirstShown.NEUTRAL, Double.NaN), row(F, EpisodeRow.FirstShown.NONE, Double.NaN),
        row(F, EpisodeRow.FirstShown.UNKNOWN, Double.NaN));
    assertThat(Metrics.misledRate(rows).getAsDouble()).isCloseTo(1.0 / 3, within(1e-12));
  }

  @Test
  void spread_showsHowManySeedsHadAValue_whenSomeHadNone() {
    Spread two = Spread.ofPresent(List.of(OptionalDouble.of(0.5), OptionalDouble.empty(), OptionalDouble.of(0.7)));
    assertThat(two.n()).isEqualTo(2);
    assertThat(two.format(3)).isEqualTo("0.60 ± 0.14 (n=2)");
    assertThat(two.format(2)).isEqualTo("0.60 ± 0.14");
    assertThat(Spread.ofPresent(List.of(OptionalDouble.empty())).format(3)).isEqualTo("—");
  }
}
