package io.memloop.bench.strategy;

import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;

/** The floor every other strategy is measured against: the frozen policy alone. */
public final class NoMemoryStrategy implements Strategy, MemoryRun {
  static final NoMemoryStrategy INSTANCE = new NoMemoryStrategy();

  private NoMemoryStrategy() {}

  @Override
  public String name() {
    return "no-memory";
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return this; // stateless, so one instance serves every run
  }

  @Override
  public void preload(PriorExperience prior, float[] intentEmbedding) {}

  @Override
  public Recall recall(Task task, float[] intentEmbedding) {
    return Recall.NONE;
  }

  @Override
  public void learn(Recall recall, float[] intentEmbedding, Episode episode) {}

  @Override
  public long memoryCount() {
    return 0;
  }

  @Override
  public java.util.Map<String, Double> utilities() {
    return java.util.Map.of();
  }

  @Override
  public void close() {}
}
