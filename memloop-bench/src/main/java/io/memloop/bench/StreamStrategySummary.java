package io.memloop.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * One strategy's stream runs on one environment over all seeds: every metric's mean and spread, and the per-seed
 * metrics they come from.
 *
 * @param recoveryEpisodes episodes to recover after the drift, censored runs counted at their censoring value
 * @param recovered runs that recovered (of {@code recoveryEpisodes.n()})
 * @param curve success per window, over seeds
 * @param regretCurve cumulative regret at the end of each window, over seeds; empty without the oracle
 * @param memoryCurve memories held after each window, over seeds
 */
public record StreamStrategySummary(
    String strategy,
    Spread success,
    Spread successBeforeDrift,
    Spread successAfterDrift,
    Spread regret,
    Spread recoveryEpisodes,
    int recovered,
    Spread dip,
    Spread memories,
    Spread shownChars,
    Spread misledRate,
    Spread wallSeconds,
    List<Spread> curve,
    List<Spread> regretCurve,
    List<Spread> memoryCurve,
    List<StreamMetrics> runs) {

  public StreamStrategySummary {
    curve = List.copyOf(curve);
    regretCurve = List.copyOf(regretCurve);
    memoryCurve = List.copyOf(memoryCurve);
    runs = List.copyOf(runs);
  }

  static StreamStrategySummary of(String strategy, List<StreamMetrics> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no runs of " + strategy);
    }
    List<StreamMetrics.Recovery> recoveries = runs.stream().flatMap(r -> r.recovery().stream()).toList();
    return new StreamStrategySummary(
        strategy,
        of(runs, StreamMetrics::success),
        of(runs, StreamMetrics::successBeforeDrift),
        of(runs, StreamMetrics::successAfterDrift),
        Spread.ofPresent(runs.stream().map(StreamMetrics::regret).toList()),
        Spread.of(recoveries.stream().map(r -> (double) r.episodes()).toList()),
        (int) recoveries.stream().filter(StreamMetrics.Recovery::recovered).count(),
        Spread.ofPresent(recoveries.stream().map(StreamMetrics.Recovery::dip).toList()),
        Spread.of(runs.stream().map(r -> (double) r.memories().getLast()).toList()),
        of(runs, StreamMetrics::shownChars),
        Spread.ofPresent(runs.stream().map(StreamMetrics::misledRate).toList()),
        of(runs, StreamMetrics::wallSeconds),
        perWindow(runs, StreamMetrics::curve),
        perWindow(runs, StreamMetrics::regretCurve),
        perWindow(runs, r -> r.memories().stream().map(Long::doubleValue).toList()),
        runs);
  }

  /** Seed → the run's {@link StreamMetrics}. */
  Optional<StreamMetrics> run(long seed) {
    return runs.stream().filter(r -> r.seed() == seed).findFirst();
  }

  private static Spread of(List<StreamMetrics> runs, Function<StreamMetrics, Double> metric) {
    return Spread.ofPresent(runs.stream().map(metric).map(v -> Double.isNaN(v) ? OptionalDouble.empty() : OptionalDouble.of(v))
        .toList());
  }

  /** Per window, the spread over the runs that have that window (all of them, for runs of one stream length). */
  private static List<Spread> perWindow(List<StreamMetrics> runs, Function<StreamMetrics, List<Double>> series) {
    int windows = runs.stream().mapToInt(r -> series.apply(r).size()).max().orElse(0);
    List<Spread> out = new ArrayList<>(windows);
    for (int w = 0; w < windows; w++) {
      int window = w;
      out.add(Spread.of(runs.stream().map(series).filter(s -> s.size() > window).map(s -> s.get(window)).toList()));
    }
    return out;
  }
}
