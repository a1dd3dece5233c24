package io.memloop.bench;

import java.util.List;
import java.util.Optional;

/**
 * Every strategy's summary on one environment; {@code tasks}/{@code heldOut} are per seed, {@code heldOutKind}
 * says what the held-out metric ({@link StrategySummary#transferAccuracy}) measures there.
 */
public record EnvironmentSummary(
    String environment, int tasks, int heldOut, Environment.HeldOut heldOutKind, List<StrategySummary> strategies) {
  public EnvironmentSummary {
    strategies = List.copyOf(strategies);
  }

  public Optional<StrategySummary> strategy(String name) {
    return strategies.stream().filter(s -> s.strategy().equals(name)).findFirst();
  }
}
