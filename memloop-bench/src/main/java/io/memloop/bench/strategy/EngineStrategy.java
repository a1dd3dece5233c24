package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;

/** The MemLoop engine under one configuration (see {@link EngineRun}). */
final class EngineStrategy implements Strategy {
  private final String name;
  private final MemLoopConfig config;
  private final RunStore where;

  EngineStrategy(String name, MemLoopConfig config) {
    this(name, config, RunStore.MEMORY);
  }

  EngineStrategy(String name, MemLoopConfig config, RunStore where) {
    if (name.isBlank()) {
      throw new IllegalArgumentException("strategy name must not be blank");
    }
    this.name = name;
    this.config = config;
    this.where = where;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return new EngineRun(config, dimension, seed, where);
  }

  @Override
  public Strategy on(RunStore store) {
    return new EngineStrategy(name, config, store);
  }
}
