package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;

/** The MemLoop engine under one configuration (see {@link EngineRun}). */
final class EngineStrategy implements Strategy {
  private final String name;
  private final MemLoopConfig config;

  EngineStrategy(String name, MemLoopConfig config) {
    if (name.isBlank()) {
      throw new IllegalArgumentException("strategy name must not be blank");
    }
    this.name = name;
    this.config = config;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return new EngineRun(config, dimension, seed);
  }
}
