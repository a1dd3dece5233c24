package io.memloop.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * One strategy on one environment over all seeds: every metric's mean and spread, plus the per-seed
 * learning curves they come from.
 */
public record StrategySummary(
    String strategy,
    List<Spread> epochAccuracy,
    Spread lastEpochAccuracy,
    Spread cumulativeSuccess,
    Spread forgettingRate,
    Spread transferAccuracy,
    Spread qPredictsNext,
    Spread misledRate,
    Spread memories,
    Spread shownChars,
    Spread wallSeconds,
    List<LearningCurve> runs) {

  public StrategySummary {
    epochAccuracy = List.copyOf(epochAccuracy);
    runs = List.copyOf(runs);
  }

  static StrategySummary of(String strategy, List<LearningCurve> runs) {
    if (runs.isEmpty()) {
      throw new IllegalArgumentException("no runs of " + strategy);
    }
    int epochs = runs.getFirst().epochs();
    List<Spread> perEpoch = new ArrayList<>(epochs);
    for (int e = 0; e < epochs; e++) {
      int epoch = e;
      perEpoch.add(Spread.of(runs.stream().map(c -> c.epochAccuracy().get(epoch)).toList()));
    }
    return new StrategySummary(
        strategy,
        perEpoch,
        Spread.of(runs.stream().map(LearningCurve::lastEpochAccuracy).toList()),
        Spread.of(runs.stream().map(c -> c.cumulativeSuccess().getLast()).toList()),
        Spread.ofPresent(runs.stream().map(LearningCurve::forgettingRate).toList()),
        Spread.ofPresent(runs.stream().map(LearningCurve::transferAccuracy).toList()),
        Spread.ofPresent(runs.stream().map(LearningCurve::qPredictsNext).toList()),
        Spread.ofPresent(runs.stream().map(LearningCurve::misledRate).toList()),
        Spread.of(runs.stream().map(c -> (double) c.memoryCounts().getLast()).toList()),
        Spread.of(runs.stream().map(LearningCurve::shownChars).toList()),
        Spread.of(runs.stream().map(LearningCurve::wallSeconds).toList()),
        runs);
  }
}
