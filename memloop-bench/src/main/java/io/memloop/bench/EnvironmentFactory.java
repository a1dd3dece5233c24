package io.memloop.bench;

/** Generates one benchmark environment from a seed at a size; the same seed gives the same tasks. */
interface EnvironmentFactory {
  String name();

  Environment create(long seed, BenchSize size);
}
