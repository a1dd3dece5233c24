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
}
