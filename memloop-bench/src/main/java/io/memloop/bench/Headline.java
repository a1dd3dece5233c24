package io.memloop.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The finding of one environment, stated first in every report: the best strategy that does not read
 * ground truth (last-epoch accuracy), its gain over no memory and over the best other baseline, and
 * MemLoop's {@code default} against the best baseline that is not itself; each gain is the mean of the
 * paired per-seed differences with a 95 % Student-t confidence interval over the seeds both ran.
 *
 * @param best the best non-oracle strategy
 * @param overNoMemory best minus no-memory, if no-memory ran
 * @param overBaseline best minus the best other non-oracle, non-floor strategy, if there is one
 * @param defaultVsBaseline default minus the best non-oracle strategy other than default, its variants
 *     ({@link BenchOptions#isDefaultVariant}) and the floor
 * @param identical strategy to the earlier strategy whose every per-seed, per-epoch accuracy it equals
 */
record Headline(
    String environment,
    Comparison.Side best,
    Optional<Comparison> overNoMemory,
    Optional<Comparison> overBaseline,
    Optional<Comparison> defaultVsBaseline,
    Map<String, String> identical) {

  static final String FLOOR = "no-memory";
  static final String CEILING = "oracle";
  static final String MEMLOOP = "default";

  /** A strategy's last-epoch accuracy over seeds. */
  record Comparison(Side a, Side b, Difference difference) {
    record Side(String strategy, double mean) {}
  }

  /** Mean paired difference with its 95 % t-interval; {@code n} seeds ({@code low = high = mean} for n = 1). */
  record Difference(double mean, double low, double high, int n) {
    String format() {
      if (n < 2) {
        return String.format(Locale.ROOT, "%+.2f (n=%d, no interval)", mean, n);
      }
      return String.format(Locale.ROOT, "%+.2f [%+.2f, %+.2f]", mean, low, high);
    }

    /** Whether the whole interval is above 0 (a gain), below 0 (a loss), or neither. */
    String verdict() {
      return n < 2 ? "one seed" : low > 0 ? "gain" : high < 0 ? "loss" : "no clear difference";
    }

    /** The verdict of a difference in episodes to recover, where fewer is better: "faster", "slower" or neither. */
    String recoveryVerdict() {
      return n < 2 ? "one seed" : high < 0 ? "faster" : low > 0 ? "slower" : "no clear difference";
    }
  }

  static Headline of(EnvironmentSummary env) {
    List<StrategySummary> nonOracle = env.strategies().stream().filter(s -> !s.strategy().equals(CEILING)).toList();
    // Only the oracle ran: it is all there is to report.
    List<StrategySummary> candidates = nonOracle.isEmpty() ? env.strategies() : nonOracle;
    StrategySummary best = candidates.get(0);
    for (StrategySummary s : candidates) {
      if (s.lastEpochAccuracy().mean() > best.lastEpochAccuracy().mean()) {
        best = s;
      }
    }
    StrategySummary bestFinal = best;
    Optional<Comparison> overFloor = env.strategy(FLOOR).filter(f -> f != bestFinal).map(f -> compare(bestFinal, f));
    Optional<Comparison> overBaseline = bestOf(candidates, List.of(best.strategy(), FLOOR)).map(b -> compare(bestFinal, b));
    Optional<Comparison> defaultVs = env.strategy(MEMLOOP).flatMap(d -> baselineOf(candidates).map(b -> compare(d, b)));
    return new Headline(env.environment(), side(best), overFloor, overBaseline, defaultVs, identical(env));
  }

  /** The best baseline {@code default} is measured against: neither the floor nor {@code default} or a variant of it. */
  private static Optional<StrategySummary> baselineOf(List<StrategySummary> candidates) {
    return bestOf(candidates.stream().filter(s -> !BenchOptions.isDefaultVariant(s.strategy())).toList(), List.of(MEMLOOP, FLOOR));
  }

  private static Optional<StrategySummary> bestOf(List<StrategySummary> candidates, List<String> excluded) {
    return candidates.stream().filter(s -> !excluded.contains(s.strategy()))
        .reduce((x, y) -> y.lastEpochAccuracy().mean() > x.lastEpochAccuracy().mean() ? y : x);
  }

  private static Comparison.Side side(StrategySummary s) {
    return new Comparison.Side(s.strategy(), s.lastEpochAccuracy().mean());
  }

  /** {@code a} minus {@code b}, paired by seed over the seeds both ran. */
  static Comparison compare(StrategySummary a, StrategySummary b) {
    return new Comparison(side(a), side(b), difference(new ArrayList<>(pairedBySeed(a, b).values())));
  }

  /** Seed → {@code a}'s last-epoch accuracy minus {@code b}'s, over the seeds both ran, in {@code a}'s run order. */
  private static Map<Long, Double> pairedBySeed(StrategySummary a, StrategySummary b) {
    Map<Long, Double> bySeed = new HashMap<>();
    b.runs().forEach(c -> bySeed.put(c.seed(), c.lastEpochAccuracy()));
    Map<Long, Double> out = new java.util.LinkedHashMap<>();
    for (LearningCurve c : a.runs()) {
      Double other = bySeed.get(c.seed());
      if (other != null) {
        out.put(c.seed(), c.lastEpochAccuracy() - other);
      }
    }
    return out;
  }

  static Difference difference(List<Double> diffs) {
    int n = diffs.size();
    if (n == 0) {
      throw new IllegalArgumentException("no seed in common");
    }
    double mean = diffs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    if (n == 1) {
      return new Difference(mean, mean, mean, 1);
    }
    double ss = 0;
    for (double d : diffs) {
      ss += (d - mean) * (d - mean);
    }
    double half = tQuantile975(n - 1) * Math.sqrt(ss / (n - 1)) / Math.sqrt(n);
    return new Difference(mean, mean - half, mean + half, n);
  }

  /**
   * Student's t 0.975 quantile for {@code df} degrees of freedom (table to 30; beyond, the value of the
   * next lower tabulated df, which is conservative).
   */
  static double tQuantile975(int df) {
    double[] table = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042};
    if (df < 1) {
      throw new IllegalArgumentException("df=" + df);
    }
    if (df <= table.length) {
      return table[df - 1];
    }
    return df < 40 ? 2.042 : df < 60 ? 2.021 : df < 120 ? 2.000 : 1.980;
  }

  /** Strategies whose every run equals an earlier strategy's run on the same seed, epoch by epoch. */
  static Map<String, String> identical(EnvironmentSummary env) {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    List<StrategySummary> all = env.strategies();
    for (int i = 0; i < all.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (!out.containsKey(all.get(j).strategy()) && sameCurves(all.get(i), all.get(j))) {
          out.put(all.get(i).strategy(), all.get(j).strategy());
          break;
        }
      }
    }
    return out;
  }

  private static boolean sameCurves(StrategySummary a, StrategySummary b) {
    if (a.runs().size() != b.runs().size()) {
      return false;
    }
    Map<Long, List<Double>> bySeed = new HashMap<>();
    b.runs().forEach(c -> bySeed.put(c.seed(), c.epochAccuracy()));
    return a.runs().stream().allMatch(c -> c.epochAccuracy().equals(bySeed.get(c.seed())));
  }

  /**
   * MemLoop's {@code default} against each environment's best baseline (the best strategy other than default,
   * its variants, the floor and the oracle), on average over the environments: for each seed that every compared run has,
   * the mean over environments of default minus that environment's baseline; then the mean and 95 % interval
   * of those per-seed averages.
   *
   * @param baselines environment → the baseline it was compared with
   */
  record Overall(Map<String, String> baselines, Difference difference) {
    /** Empty unless default and a baseline ran on at least two environments. */
    static Optional<Overall> of(List<EnvironmentSummary> environments) {
      Map<String, String> baselines = new java.util.LinkedHashMap<>();
      List<Map<Long, Double>> perEnvironment = new ArrayList<>();
      for (EnvironmentSummary env : environments) {
        List<StrategySummary> candidates = env.strategies().stream().filter(s -> !s.strategy().equals(CEILING)).toList();
        Optional<StrategySummary> d = env.strategy(MEMLOOP);
        Optional<StrategySummary> b = baselineOf(candidates);
        if (d.isEmpty() || b.isEmpty()) {
          continue;
        }
        baselines.put(env.environment(), b.get().strategy());
        perEnvironment.add(pairedBySeed(d.get(), b.get()));
      }
      if (perEnvironment.size() < 2) {
        return Optional.empty();
      }
      java.util.Set<Long> seeds = new java.util.TreeSet<>(perEnvironment.getFirst().keySet());
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

    String toMarkdown() {
      return String.format(Locale.ROOT, "- **on average over the %d environments**: MemLoop `default` vs each one's best"
          + " baseline (%s) %s (%s)%n", baselines.size(), String.join(", ", new java.util.LinkedHashSet<>(baselines.values())),
          difference.format(), difference.verdict());
    }
  }

  /** One Markdown line per finding, for the terminal and BENCHMARKS.md. */
  String toMarkdown() {
    StringBuilder b = new StringBuilder();
    b.append(String.format(Locale.ROOT, "- **%s**: best strategy `%s` (last epoch %.2f)", environment, best.strategy(), best.mean()));
    overNoMemory.ifPresent(c -> b.append("; over no memory ").append(c.difference().format()));
    overBaseline.ifPresent(c -> b.append("; over the next best, `").append(c.b().strategy()).append("`, ")
        .append(c.difference().format()).append(" (").append(c.difference().verdict()).append(")"));
    defaultVsBaseline.filter(c -> !c.a().strategy().equals(best.strategy()))
        .ifPresent(c -> b.append(String.format(Locale.ROOT, "; MemLoop `default` %.2f vs `%s` %s (%s)", c.a().mean(),
            c.b().strategy(), c.difference().format(), c.difference().verdict())));
    identical.forEach((s, same) -> b.append("; `").append(s).append("` = `").append(same).append("` (identical runs)"));
    return b.append('\n').toString();
  }
}
