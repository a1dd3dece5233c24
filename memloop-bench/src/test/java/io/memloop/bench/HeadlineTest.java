package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The finding a report opens with: best strategy, paired gains with t-intervals, identical runs. */
class HeadlineTest {
  /** A run whose epochs end at {@code last} (two epochs: half of it, then it). */
  private static LearningCurve run(String strategy, long seed, double last) {
    return new LearningCurve(strategy, seed, List.of(last / 2, last), List.of(last, last), OptionalDouble.empty(),
        List.of(1L, 2L), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), 0);
  }

  private static StrategySummary strategy(String name, double... lastPerSeed) {
    List<LearningCurve> runs = new ArrayList<>();
    for (int i = 0; i < lastPerSeed.length; i++) {
      runs.add(run(name, 1001 + i, lastPerSeed[i]));
    }
    return StrategySummary.of(name, runs);
  }

  private static EnvironmentSummary env(StrategySummary... s) {
    return new EnvironmentSummary("env", 10, 2, Environment.HeldOut.TRANSFER, List.of(s));
  }

  @Test
  void best_ignoresTheOracle_andGainsArePairedBySeed() {
    Headline h = Headline.of(env(
        strategy("no-memory", 0.1, 0.2, 0.3),
        strategy("rag", 0.5, 0.6, 0.7),
        strategy("default", 0.6, 0.7, 0.8),
        strategy("oracle", 1.0, 1.0, 1.0)));
    assertThat(h.best().strategy()).isEqualTo("default");
    Headline.Difference overFloor = h.overNoMemory().orElseThrow().difference();
    // every seed gains exactly 0.5: the paired interval has no width, although the seeds differ a lot
    assertThat(overFloor.mean()).isCloseTo(0.5, within(1e-12));
    assertThat(overFloor.high() - overFloor.low()).isCloseTo(0, within(1e-12));
    assertThat(overFloor.verdict()).isEqualTo("gain");
    assertThat(h.overBaseline().orElseThrow().b().strategy()).isEqualTo("rag");
    assertThat(h.defaultVsBaseline().orElseThrow().b().strategy()).as("the best baseline that is not default").isEqualTo("rag");
  }

  @Test
  void variantsOfDefault_areNeverTheBaselineDefaultIsMeasuredAgainst() {
    EnvironmentSummary e = env(
        strategy("rag", 0.5, 0.6, 0.7),
        strategy("default", 0.6, 0.7, 0.8),
        strategy("default-narrow-first-recall", 0.9, 0.9, 0.9),
        strategy("default:k1=10", 0.95, 0.95, 0.95),
        strategy("memrl:lambda=0.3", 0.55, 0.65, 0.75));
    Headline h = Headline.of(e);
    assertThat(h.best().strategy()).as("the best strategy may be a variant").isEqualTo("default:k1=10");
    assertThat(h.defaultVsBaseline().orElseThrow().b().strategy()).as("a baseline's own variant still counts")
        .isEqualTo("memrl:lambda=0.3");
    EnvironmentSummary other = new EnvironmentSummary("b", 10, 2, Environment.HeldOut.TRANSFER, List.of(
        strategy("rag", 0.5, 0.5, 0.5), strategy("default+neighbours", 0.9, 0.9, 0.9), strategy("default", 0.8, 0.7, 0.9)));
    assertThat(Headline.Overall.of(List.of(e, other)).orElseThrow().baselines())
        .containsExactly(java.util.Map.entry("env", "memrl:lambda=0.3"), java.util.Map.entry("b", "rag"));
    assertThat(BenchOptions.isDefaultVariant("default")).isFalse();
    assertThat(BenchOptions.isDefaultVariant("default-narrow-first-recall:k2=5")).isTrue();
    assertThat(BenchOptions.isDefaultVariant("defaults")).isFalse();
    assertThat(BenchOptions.isDefaultVariant("rag-k8")).isFalse();
  }

  @Test
  void overall_averagesEachSeedsDifferences_overTheEnvironments_againstEachOnesBestBaseline() {
    EnvironmentSummary a = new EnvironmentSummary("a", 10, 2, Environment.HeldOut.TRANSFER, List.of(
        strategy("rag", 0.5, 0.6, 0.7), strategy("recent", 0.9, 0.9, 0.9), strategy("default", 0.6, 0.6, 0.6),
        strategy("oracle", 1.0, 1.0, 1.0)));
    EnvironmentSummary b = new EnvironmentSummary("b", 10, 2, Environment.HeldOut.TRANSFER, List.of(
        strategy("rag", 0.5, 0.5, 0.5), strategy("default", 0.8, 0.7, 0.9)));
    Headline.Overall o = Headline.Overall.of(List.of(a, b)).orElseThrow();
    assertThat(o.baselines()).containsExactly(java.util.Map.entry("a", "recent"), java.util.Map.entry("b", "rag"));
    // seed by seed: ((0.6 - 0.9) + (0.8 - 0.5)) / 2 = 0, ((0.6 - 0.9) + (0.7 - 0.5)) / 2 = -0.05, (-0.3 + 0.4) / 2 = 0.05
    assertThat(o.difference().mean()).isCloseTo(0, within(1e-12));
    assertThat(o.difference().n()).isEqualTo(3);
    assertThat(o.difference().low()).isCloseTo(-4.303 * 0.05 / Math.sqrt(3), within(1e-9));
    assertThat(o.toMarkdown()).contains("on average over the 2 environments", "(recent, rag)", "no clear difference");
    assertThat(Headline.Overall.of(List.of(a))).as("one environment: nothing to average").isEmpty();
  }

  @Test
  void interval_isStudentT_overTheSeedDifferences() {
    // differences 0.1, 0.2, 0.3: mean 0.2, sample std 0.1, t(0.975, 2) = 4.303
    Headline.Difference d = Headline.difference(List.of(0.1, 0.2, 0.3));
    assertThat(d.mean()).isCloseTo(0.2, within(1e-12));
    double half = 4.303 * 0.1 / Math.sqrt(3);
    assertThat(d.low()).isCloseTo(0.2 - half, within(1e-9));
    assertThat(d.high()).isCloseTo(0.2 + half, within(1e-9));
    assertThat(d.verdict()).isEqualTo("no clear difference"); // the interval reaches below 0
    assertThat(Headline.difference(List.of(0.3)).verdict()).isEqualTo("one seed");
    assertThat(Headline.tQuantile975(4)).isEqualTo(2.776);
    assertThat(Headline.tQuantile975(1000)).isEqualTo(1.980);
  }

  @Test
  void aLossIsALoss_andDefaultIsComparedEvenWhenItIsNotBest() {
    Headline h = Headline.of(env(
        strategy("no-memory", 0.1, 0.1, 0.1, 0.1),
        strategy("rag", 0.8, 0.9, 0.85, 0.8),
        strategy("default", 0.5, 0.6, 0.55, 0.5)));
    assertThat(h.best().strategy()).isEqualTo("rag");
    Headline.Comparison d = h.defaultVsBaseline().orElseThrow();
    assertThat(d.a().strategy()).isEqualTo("default");
    assertThat(d.b().strategy()).isEqualTo("rag");
    assertThat(d.difference().verdict()).isEqualTo("loss");
    assertThat(h.toMarkdown()).contains("best strategy `rag`", "MemLoop `default` 0.54 vs `rag` -0.30", "(loss)");
  }

  @Test
  void identicalRuns_areNamed_differentOnesAreNot() {
    Headline h = Headline.of(env(
        strategy("memrl", 0.4, 0.5),
        strategy("default", 0.4, 0.5),
        strategy("rag", 0.4, 0.6)));
    assertThat(h.identical()).containsExactly(java.util.Map.entry("default", "memrl"));
    assertThat(h.toMarkdown()).contains("`default` = `memrl` (identical runs)");
  }

  @Test
  void anOracleOnlyRun_reportsTheOracle_withNothingToCompare() {
    Headline h = Headline.of(env(strategy("oracle", 0.9, 0.8)));
    assertThat(h.best().strategy()).isEqualTo("oracle");
    assertThat(h.overNoMemory()).isEmpty();
    assertThat(h.overBaseline()).isEmpty();
    assertThat(h.defaultVsBaseline()).isEmpty();
  }

  @Test
  void onlyCommonSeedsArePaired() {
    StrategySummary a = strategy("a", 0.5, 0.6, 0.7);
    StrategySummary b = StrategySummary.of("b", List.of(run("b", 1002, 0.1)));
    Headline.Comparison c = Headline.compare(a, b);
    assertThat(c.difference().n()).isEqualTo(1);
    assertThat(c.difference().mean()).isCloseTo(0.5, within(1e-12));
  }
}
