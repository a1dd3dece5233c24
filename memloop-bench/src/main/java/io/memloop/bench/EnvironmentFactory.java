package io.memloop.bench;

/** Generates one benchmark environment from a seed at a size; the same seed gives the same tasks. */
interface EnvironmentFactory {
  String name();

  /**
   * A fresh instance from {@code seed}.
   *
   * @param slip the frozen policy's chance of ignoring what it is shown (outcome noise), or
   *     {@code null} for the environment's default
   */
  Environment create(long seed, BenchSize size, @org.jspecify.annotations.Nullable Double slip);

  default Environment create(long seed, BenchSize size) {
    return create(seed, size, null);
  }
}
