package io.memloop.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Every strategy's stream runs on one environment, and MemLoop's {@code default} against the others: paired
 * per-seed differences with 95 % Student-t intervals over the seeds both ran ({@link Headline#difference}).
 *
 * @param length episodes per run
 * @param driftAt index of the first episode after the drift
 * @param kinds distinct kinds in the stream (of the first seed)
 * @param driftingKinds kinds that change at the drift (of the first seed)
 */
public record StreamEnvironmentSummary(
    String environment, int length, int driftAt, int kinds, int driftingKinds, List<StreamStrategySummary> strategies) {

  public StreamEnvironmentSummary {
    strategies = List.copyOf(strategies);
  }

  /**
   * {@code strategy} minus {@code against}, paired by seed.
   *
   * @param success on first-encounter success (positive: {@code strategy} better)
   * @param recovery on episodes to recover after the drift, each to its own level before the drift
   *     ({@link StreamMetrics.Recovery}), censored runs at their censoring value (negative: {@code strategy} recovers
   *     faster); empty when no seed has a recovery for both
   * @param recoveryToCommonLevel on episodes until the drifting kinds' rolling success reaches the same target for
   *     both, the lower of the two levels before the drift minus the tolerance ({@link
   *     StreamMetrics.Recovery#episodesTo}): how fast each got back to a success both had had, where {@code recovery}
   *     gives a strategy that had learned less before the drift less to regain; empty as {@code recovery}
   * @param tiedAtFirstWindow of the seeds in {@code recoveryToCommonLevel}, those where both runs were at the common
   *     target at the first full rolling window after the drift ({@link StreamMetrics.Recovery#firstWindow}), the
   *     fewest episodes the measure can give: there it cannot tell the two apart, and the difference is 0 by
   *     construction
   * @param bestToCommonLevel what {@code recoveryToCommonLevel} would be if {@code strategy} were at the common target
   *     at the first window on every seed, the best the measure allows against {@code against}: where its interval
   *     is not clear of zero, no strategy could be faster beyond noise on these seeds; empty as {@code recovery}
   */
  public record Comparison(String strategy, double mean, String against, double againstMean,
      Headline.Difference success, Optional<Headline.Difference> recovery,
      Optional<Headline.Difference> recoveryToCommonLevel, int tiedAtFirstWindow,
      Optional<Headline.Difference> bestToCommonLevel) {

    /**
     * "−4 [−61, +54] (no clear difference; both at the first window on 2 of 5 seeds; at best −22 [−58, +14])":
     * {@link #recoveryToCommonLevel} with its verdict, the seeds the measure could not separate, and, where the
     * measure could not have found {@code strategy} faster beyond noise, {@link #bestToCommonLevel}; empty as
     * {@code recoveryToCommonLevel}.
     */
    Optional<String> formatCommonLevel() {
      return recoveryToCommonLevel.map(r -> withVerdict(r, (tiedAtFirstWindow == 0 ? ""
          : String.format(Locale.ROOT, "; both at the first window on %d of %d seeds", tiedAtFirstWindow, r.n()))
          + bestToCommonLevel.filter(b -> b.n() >= 2 && b.high() >= 0)
              .map(b -> "; at best " + StreamReport.format(b, 0)).orElse("")));
    }

    /** "+275 [+215, +336] (slower)": {@link #recovery} with its verdict; empty as {@code recovery}. */
    Optional<String> formatRecovery() {
      return recovery.map(r -> withVerdict(r, ""));
    }

    /** A difference in episodes, then its verdict and {@code more} in parentheses. */
    private static String withVerdict(Headline.Difference r, String more) {
      return StreamReport.format(r, 0) + " (" + r.recoveryVerdict() + more + ")";
    }

    /** "default 0.62 vs rag 0.55: +0.07 [+0.03, +0.11] (gain)". */
    String format() {
      return String.format(Locale.ROOT, "%s %.2f vs %s %.2f: %s (%s)", strategy, mean, against, againstMean,
          success.format(), success.verdict());
    }
  }

  public Optional<StreamStrategySummary> strategy(String name) {
    return strategies.stream().filter(s -> s.strategy().equals(name)).findFirst();
  }

  /** MemLoop {@code default} minus each other strategy that does not read ground truth, in run order. */
  public List<Comparison> comparisons() {
    Optional<StreamStrategySummary> d = strategy(Headline.MEMLOOP);
    if (d.isEmpty()) {
      return List.of();
    }
    return baselines().stream().map(b -> compare(d.get(), b)).toList();
  }

  /**
   * The best baseline: among the strategies other than {@code default}, its variants ({@link
   * BenchOptions#isDefaultVariant}) and the oracle (no memory included), the one with the highest mean success; on a
   * tie the first in run order.
   */
  public Optional<StreamStrategySummary> bestBaseline() {
    StreamStrategySummary best = null;
    for (StreamStrategySummary s : baselines()) {
      if (BenchOptions.isDefaultVariant(s.strategy())) {
        continue;
      }
      if (best == null || s.success().mean() > best.success().mean()) {
        best = s;
      }
    }
    return Optional.ofNullable(best);
  }

  /** The headline: {@code default} minus {@link #bestBaseline}. */
  public Optional<Comparison> headline() {
    return strategy(Headline.MEMLOOP).flatMap(d -> bestBaseline().map(b -> compare(d, b)));
  }

  private List<StreamStrategySummary> baselines() {
    return strategies.stream()
        .filter(s -> !s.strategy().equals(Headline.MEMLOOP) && !s.strategy().equals(Headline.CEILING)).toList();
  }

  static Comparison compare(StreamStrategySummary a, StreamStrategySummary b) {
    List<Double> success = new ArrayList<>(paired(a, b, m -> Optional.of(m.success())).values());
    List<Double> recovery = new ArrayList<>(paired(a, b, m -> m.recovery().map(r -> (double) r.episodes())).values());
    List<Double> common = new ArrayList<>(paired(a, b, StreamMetrics::recovery, (mine, theirs) -> {
      double target = commonTarget(mine, theirs);
      return (double) (mine.episodesTo(target) - theirs.episodesTo(target));
    }).values());
    int tied = (int) paired(a, b, StreamMetrics::recovery, (mine, theirs) -> {
      double target = commonTarget(mine, theirs);
      return mine.atFirstWindow(target) && theirs.atFirstWindow(target) ? 1.0 : 0.0;
    }).values().stream().mapToDouble(Double::doubleValue).sum();
    List<Double> best = new ArrayList<>(paired(a, b, StreamMetrics::recovery,
        (mine, theirs) -> (double) (mine.firstWindow() - theirs.episodesTo(commonTarget(mine, theirs)))).values());
    return new Comparison(a.strategy(), a.success().mean(), b.strategy(), b.success().mean(),
        Headline.difference(success), optionalDifference(recovery), optionalDifference(common), tied,
        optionalDifference(best));
  }

  /** The target both runs of a seed recover to in {@link Comparison#recoveryToCommonLevel}. */
  private static double commonTarget(StreamMetrics.Recovery mine, StreamMetrics.Recovery theirs) {
    return Math.min(mine.level(), theirs.level()) - StreamMetrics.TOLERANCE;
  }

  private static Optional<Headline.Difference> optionalDifference(List<Double> paired) {
    return paired.isEmpty() ? Optional.empty() : Optional.of(Headline.difference(paired));
  }

  /** Seed → {@code a}'s metric minus {@code b}'s, over the seeds where both have it, in {@code a}'s run order. */
  static Map<Long, Double> paired(StreamStrategySummary a, StreamStrategySummary b,
      Function<StreamMetrics, Optional<Double>> metric) {
    return paired(a, b, metric, (mine, theirs) -> mine - theirs);
  }

  /**
   * Seed → {@code difference} of {@code a}'s part of a run and {@code b}'s, over the seeds where both have it, in
   * {@code a}'s run order.
   */
  static <T> Map<Long, Double> paired(StreamStrategySummary a, StreamStrategySummary b,
      Function<StreamMetrics, Optional<T>> part, BiFunction<T, T, Double> difference) {
    Map<Long, Double> out = new LinkedHashMap<>();
    for (StreamMetrics x : a.runs()) {
      Optional<T> mine = part.apply(x);
      Optional<T> theirs = b.run(x.seed()).flatMap(part);
      if (mine.isPresent() && theirs.isPresent()) {
        out.put(x.seed(), difference.apply(mine.get(), theirs.get()));
      }
    }
    return out;
  }

  /**
   * {@code default} against each environment's best baseline on average over the environments: for each seed that
   * every compared environment ran, the mean over environments of default minus that environment's best baseline
   * (first-encounter success); then the mean and 95 % interval of those per-seed averages.
   *
   * @param baselines environment → the baseline it was compared with
   */
  public record Overall(Map<String, String> baselines, Headline.Difference difference) {
    /** Empty unless default and a baseline ran on at least two environments with a seed in common. */
    static Optional<Overall> of(List<StreamEnvironmentSummary> environments) {
      Map<String, String> baselines = new LinkedHashMap<>();
      List<Map<Long, Double>> perEnvironment = new ArrayList<>();
      for (StreamEnvironmentSummary env : environments) {
        Optional<StreamStrategySummary> d = env.strategy(Headline.MEMLOOP);
        Optional<StreamStrategySummary> b = env.bestBaseline();
        if (d.isPresent() && b.isPresent()) {
          baselines.put(env.environment(), b.get().strategy());
          perEnvironment.add(paired(d.get(), b.get(), m -> Optional.of(m.success())));
        }
      }
      if (perEnvironment.size() < 2) {
        return Optional.empty();
      }
      Set<Long> seeds = new TreeSet<>(perEnvironment.getFirst().keySet());
      perEnvironment.forEach(m -> seeds.retainAll(m.keySet()));
      if (seeds.isEmpty()) {
        return Optional.empty();
      }
      List<Double> averages = new ArrayList<>();
      for (long seed : seeds) {
        averages.add(perEnvironment.stream().mapToDouble(m -> m.get(seed)).average().orElseThrow());
      }
      return Optional.of(new Overall(baselines, Headline.difference(averages)));
    }
  }
}
