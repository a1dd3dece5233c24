package io.memloop.bench;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Generates one benchmark environment from a seed at a size; the same seed gives the same tasks. */
interface EnvironmentFactory {
  String name();

  /** The knobs that {@code --knob} can override, in the environment's order ({@link KnobOverrides#names}). */
  List<String> knobNames();

  /**
   * The knobs the environment is generated with: those of {@code size}, with the outcome noise and overrides
   * applied.
   *
   * @param slip the frozen policy's chance of ignoring what it is shown (outcome noise), or {@code null} for the
   *     environment's default
   * @param overrides knob name → value text ({@link KnobOverrides#apply})
   * @throws io.memloop.MemLoopException INVALID_ARGUMENT naming the knob when an override is not valid
   */
  Record knobs(BenchSize size, @Nullable Double slip, Map<String, String> overrides);

  /** A fresh instance from {@code seed} with {@link #knobs}. */
  Environment create(long seed, BenchSize size, @Nullable Double slip, Map<String, String> overrides);

  /** A fresh instance from {@code seed} with the knobs of {@code size} and no overrides. */
  default Environment create(long seed, BenchSize size, @Nullable Double slip) {
    return create(seed, size, slip, Map.of());
  }

  default Environment create(long seed, BenchSize size) {
    return create(seed, size, null);
  }
}
