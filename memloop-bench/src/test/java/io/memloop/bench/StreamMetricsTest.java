package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

class StreamMetricsTest {

  /** {@code length} rows; row i is of a drifting kind when {@code drifting} says so, solved when {@code solved} does. */
  private static List<StreamRow> rows(int length, IntPredicate drifting, IntPredicate solved) {
    List<StreamRow> out = new ArrayList<>();
    for (int i = 0; i < length; i++) {
      out.add(StreamRow.of(i, drifting.test(i) ? "d" : "s", drifting.test(i), solved.test(i)));
    }
    return out;
  }

  @Test
  void curve_isTheSuccessOfEachWindowOf100_theLastOneShorter() {
    // 250 episodes: the first window solves 1 in 4, the second all, the last 50 one in 2.
    List<StreamRow> rows = rows(250, i -> false, i -> i < 100 ? i % 4 == 0 : i < 200 || i % 2 == 0);
    assertThat(StreamMetrics.curve(rows)).containsExactly(0.25, 1.0, 0.5);
    assertThat(StreamMetrics.windows(250)).isEqualTo(3);
    assertThat(StreamMetrics.windows(200)).isEqualTo(2);
  }

  @Test
  void successBeforeAndAfterTheDrift_splitAtDriftAt() {
    List<StreamRow> rows = rows(200, i -> false, i -> i < 150 ? i % 3 == 0 : true);
    StreamMetrics m = StreamMetrics.of(new StreamRun("s", 1, 150, rows, List.of(1L, 2L), 0), Optional.empty());
    assertThat(m.successBeforeDrift()).isCloseTo(50 / 150.0, within(1e-12));
    assertThat(m.successAfterDrift()).isEqualTo(1.0);
    assertThat(m.success()).isCloseTo(100 / 200.0, within(1e-12));
    assertThat(m.regret()).isEmpty();
    assertThat(m.regretCurve()).isEmpty();
    assertThat(m.memories()).containsExactly(1L, 2L);
  }

  @Test
  void regret_isPositiveWhereTheOracleDidBetter_andNegativeWhereTheRunWasLuckier() {
    List<StreamRow> oracle = rows(150, i -> false, i -> true);
    List<StreamRow> half = rows(150, i -> false, i -> i % 2 == 0);
    // 50 failures in the first window, 25 in the last 50
    assertThat(StreamMetrics.regretCurve(half, oracle)).containsExactly(50.0, 75.0);
    // against an oracle that solves nothing, every success counts below zero
    List<StreamRow> none = rows(150, i -> false, i -> false);
    assertThat(StreamMetrics.regretCurve(half, none)).containsExactly(-50.0, -75.0);
    StreamMetrics m = StreamMetrics.of(new StreamRun("s", 1, 100, half, List.of(0L, 0L), 0),
        Optional.of(new StreamRun("oracle", 1, 100, oracle, List.of(0L, 0L), 0)));
    assertThat(m.regret()).hasValue(75.0);
  }

  @Test
  void regret_refusesRunsOfOtherInstances() {
    List<StreamRow> a = rows(100, i -> false, i -> true);
    List<StreamRow> b = new ArrayList<>(a);
    b.set(7, new StreamRow(7, "other", "s", false, true, 1, List.of(), 0, EpisodeRow.FirstShown.NONE, 0));
    assertThatThrownBy(() -> StreamMetrics.regretCurve(a, b)).hasMessageContaining("episode 7");
    assertThatThrownBy(() -> StreamMetrics.regretCurve(a, a.subList(0, 99))).hasMessageContaining("99");
  }

  @Test
  void recovery_countsEpisodesOfEveryKindFromTheDrift_untilTheRolling50ReachTheLevelMinusTolerance() {
    // Drifting kind at even indices. Before the drift (300) it always succeeds: level 1.0. After it, its first 60
    // instances fail, then all succeed: the rolling 50 reach 0.95 at the 48th success (48/50 = 0.96; 47/50 < 0.95),
    // the 108th drifting instance after the drift, at index 300 + 2 * 107 = 514: 215 episodes from the drift.
    List<StreamRow> rows = rows(600, i -> i % 2 == 0, i -> i < 300 || i % 2 == 1 || (i - 300) / 2 >= 60);
    StreamMetrics.Recovery r = StreamMetrics.recovery(rows, 300).orElseThrow();
    assertThat(r.recovered()).isTrue();
    assertThat(r.episodes()).isEqualTo(215);
    assertThat(r.level()).isEqualTo(1.0);
    assertThat(r.dip()).hasValue(0.0);
  }

  @Test
  void recovery_neverReached_isCensoredAtTheEpisodesLeftAfterTheDrift() {
    List<StreamRow> rows = rows(600, i -> i % 2 == 0, i -> i < 300);
    StreamMetrics.Recovery r = StreamMetrics.recovery(rows, 300).orElseThrow();
    assertThat(r.recovered()).isFalse();
    assertThat(r.episodes()).isEqualTo(300);
    assertThat(r.dip()).hasValue(0.0);
  }

  @Test
  void recovery_levelIsTheLast200DriftingInstancesBeforeTheDrift() {
    // 300 drifting instances before the drift (every episode is of the drifting kind): the first 100 fail, the last
    // 200 succeed, so the level is 1.0, not 2/3; after the drift success runs at 0.9 (one failure in ten), below
    // 0.95 throughout: censored. At 2/3 it would have recovered at the 50th instance.
    List<StreamRow> rows = rows(600, i -> true, i -> i < 300 ? i >= 100 : i % 10 != 0);
    StreamMetrics.Recovery r = StreamMetrics.recovery(rows, 300).orElseThrow();
    assertThat(r.level()).isEqualTo(1.0);
    assertThat(r.recovered()).isFalse();
    assertThat(r.dip()).hasValue(0.9);
  }

  @Test
  void recovery_atLevelAlready_isTheEpisodeOfThe50thDriftingInstance() {
    List<StreamRow> rows = rows(400, i -> i % 4 == 0, i -> i % 8 == 0 || i % 4 != 0); // drifting kind: half solved
    StreamMetrics.Recovery r = StreamMetrics.recovery(rows, 200).orElseThrow();
    assertThat(r.level()).isEqualTo(0.5);
    // the 50th drifting instance after the drift is at 200 + 4 * 49 = 396
    assertThat(r.episodes()).isEqualTo(197);
    assertThat(r.recovered()).isTrue();
  }

  @Test
  void recovery_withoutDriftingInstancesOnBothSides_isEmpty_andFewerThan50After_isCensoredWithoutDip() {
    assertThat(StreamMetrics.recovery(rows(400, i -> false, i -> true), 200)).isEmpty();
    assertThat(StreamMetrics.recovery(rows(400, i -> i >= 200, i -> true), 200)).isEmpty();
    StreamMetrics.Recovery r = StreamMetrics.recovery(rows(400, i -> i % 10 == 0, i -> true), 200).orElseThrow();
    assertThat(r.recovered()).isFalse(); // 20 drifting instances after the drift: never 50
    assertThat(r.episodes()).isEqualTo(200);
    assertThat(r.dip()).isEqualTo(OptionalDouble.empty());
  }

  @Test
  void episodesTo_aLowerTarget_isReachedNoLaterThanTheOwnLevel_andANeverReachedOneIsCensored() {
    // As in the first recovery test: level 1.0; the first 60 drifting instances after the drift fail, then all
    // succeed. The rolling 50 reach 0.16 (8 successes) at the 68th drifting instance, index 300 + 2 * 67 = 434.
    List<StreamRow> rows = rows(600, i -> i % 2 == 0, i -> i < 300 || i % 2 == 1 || (i - 300) / 2 >= 60);
    StreamMetrics.Recovery r = StreamMetrics.recovery(rows, 300).orElseThrow();
    assertThat(r.episodesTo(0.15)).isEqualTo(135);
    assertThat(r.episodesTo(r.level() - StreamMetrics.TOLERANCE)).isEqualTo(r.episodes()).isEqualTo(215);
    assertThat(r.episodesTo(1.01)).isEqualTo(r.censoredAt()).isEqualTo(300);
    assertThat(r.episodesTo(0.0)).as("the first point: 50 drifting instances after the drift").isEqualTo(99);
    assertThat(r.firstWindow()).isEqualTo(99);
    assertThat(r.atFirstWindow(0.0)).isTrue();
    assertThat(r.atFirstWindow(0.15)).isFalse();
  }

  @Test
  void comparison_recoveryToTheCommonLevel_givesBothRunsTheLowerLevelAsTarget() {
    // a: level 1.0, 60 failures after the drift, then all solved: 215 episodes to its own level, 135 to 0.15.
    List<StreamRow> a = rows(600, i -> i % 2 == 0, i -> i < 300 || i % 2 == 1 || (i - 300) / 2 >= 60);
    // b: solves one drifting instance in five throughout: level 0.2, at 0.2 from the 50th instance after the drift
    // (index 398: 99 episodes), to its own level and to the common one alike.
    List<StreamRow> b = rows(600, i -> i % 2 == 0, i -> i % 2 == 1 || (i / 2) % 5 == 0);
    StreamStrategySummary sa = StreamStrategySummary.of("a", List.of(
        StreamMetrics.of(new StreamRun("a", 1, 300, a, java.util.Collections.nCopies(6, 1L), 0), Optional.empty())));
    StreamStrategySummary sb = StreamStrategySummary.of("b", List.of(
        StreamMetrics.of(new StreamRun("b", 1, 300, b, java.util.Collections.nCopies(6, 1L), 0), Optional.empty())));
    assertThat(sb.runs().getFirst().recovery().orElseThrow().level()).isEqualTo(0.2);
    StreamEnvironmentSummary.Comparison c = StreamEnvironmentSummary.compare(sa, sb);
    assertThat(c.recovery().orElseThrow().mean()).isEqualTo(215 - 99);
    assertThat(c.recoveryToCommonLevel().orElseThrow().mean()).isEqualTo(135 - 99);
    assertThat(StreamEnvironmentSummary.compare(sb, sa).recoveryToCommonLevel().orElseThrow().mean())
        .isEqualTo(99 - 135);
    assertThat(c.tiedAtFirstWindow()).as("a reaches 0.15 only at 135 episodes").isZero();
    assertThat(c.formatCommonLevel().orElseThrow()).isEqualTo("+36 (n=1, no interval) (one seed)");
    assertThat(c.bestToCommonLevel().orElseThrow().mean()).as("a at the first window (99) against b's 99").isZero();
  }

  @Test
  void comparison_countsTheSeedsWhereBothWereAtTheCommonTargetAtTheFirstWindow() {
    // Seed 1: a solves half the drifting instances before the drift and after (level 0.5), b one in five (0.2):
    // at the common target 0.15 both are there at the first window (99 episodes), a tie the measure cannot break.
    // Seed 2: a as seed 1, but b fails its first 30 drifting instances after the drift: b gets there later.
    List<StreamRow> a = rows(600, i -> i % 2 == 0, i -> i % 2 == 1 || (i / 2) % 2 == 0);
    List<StreamRow> b1 = rows(600, i -> i % 2 == 0, i -> i % 2 == 1 || (i / 2) % 5 == 0);
    List<StreamRow> b2 = rows(600, i -> i % 2 == 0, i -> i % 2 == 1 || ((i / 2) % 5 == 0 && (i < 300 || i >= 360)));
    StreamStrategySummary sa = StreamStrategySummary.of("a", List.of(run("a", 1, a), run("a", 2, a)));
    StreamStrategySummary sb = StreamStrategySummary.of("b", List.of(run("b", 1, b1), run("b", 2, b2)));
    StreamEnvironmentSummary.Comparison c = StreamEnvironmentSummary.compare(sa, sb);
    StreamMetrics.Recovery late = sb.run(2).orElseThrow().recovery().orElseThrow();
    assertThat(late.episodesTo(0.15)).isGreaterThan(late.firstWindow());
    assertThat(c.recoveryToCommonLevel().orElseThrow().n()).isEqualTo(2);
    assertThat(c.tiedAtFirstWindow()).isEqualTo(1);
    // the best a at the first window could do: 0 on seed 1, and on seed 2 the first window (99) against b's later one
    assertThat(c.bestToCommonLevel().orElseThrow().mean())
        .isEqualTo((0.0 + 99 - late.episodesTo(0.15)) / 2);
    assertThat(c.recoveryToCommonLevel().orElseThrow().mean()).isEqualTo(c.bestToCommonLevel().orElseThrow().mean());
    assertThat(c.formatCommonLevel().orElseThrow()).contains("; both at the first window on 1 of 2 seeds");
    assertThat(c.bestToCommonLevel().orElseThrow().high()).isPositive();
    assertThat(c.formatCommonLevel().orElseThrow()).endsWith("; at best "
        + StreamReport.format(c.bestToCommonLevel().orElseThrow(), 0) + ")");
  }

  private static StreamMetrics run(String strategy, long seed, List<StreamRow> rows) {
    return StreamMetrics.of(new StreamRun(strategy, seed, 300, rows, java.util.Collections.nCopies(6, 1L), 0),
        Optional.empty());
  }
}
