package io.memloop.bench;

import java.util.List;
import java.util.OptionalDouble;

/**
 * Mean and spread of one metric over seeds.
 *
 * @param n how many seeds had a value (a metric can be undefined for a run, e.g. transfer without
 *     held-out tasks); when 0 every other component is NaN
 * @param std sample standard deviation (n − 1); 0 for a single value
 */
public record Spread(int n, double mean, double std, double min, double max) {
  static final Spread EMPTY = new Spread(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      return EMPTY;
    }
    double mean = values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
    double ss = values.stream().mapToDouble(v -> (v - mean) * (v - mean)).sum();
    double std = values.size() < 2 ? 0 : Math.sqrt(ss / (values.size() - 1));
    return new Spread(
        values.size(), mean, std,
        values.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
        values.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
  }

  static Spread ofPresent(List<OptionalDouble> values) {
    return of(values.stream().filter(OptionalDouble::isPresent).map(OptionalDouble::getAsDouble).toList());
  }

  public boolean isEmpty() {
    return n == 0;
  }

  /** "0.62 ± 0.05", or "—" when undefined. */
  public String format() {
    return isEmpty() ? "—" : String.format(java.util.Locale.ROOT, "%.2f ± %.2f", mean, std);
  }

  /** {@link #format()}, with "(n=3)" appended when fewer than {@code runs} seeds had a value. */
  public String format(int runs) {
    return isEmpty() || n >= runs ? format() : format() + " (n=" + n + ")";
  }
}
