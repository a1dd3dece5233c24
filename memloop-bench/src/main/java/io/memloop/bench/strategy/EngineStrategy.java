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

  /** k2, or more for a task with no record of its own ({@link MemLoopConfig#firstEncounterK2()}). */
  @Override
  public int shows() {
    return config.shownAtMost();
  }

  @Override
  public Strategy on(RunStore store) {
    return new EngineStrategy(name, config, store);
  }

  @Override
  public Strategy withBlocks(int blocks) {
    return blocks == 1 || config.similarityBlocks() != 0 ? this
        : new EngineStrategy(name, config.toBuilder().similarityBlocks(blocks).build(), where);
  }
}
