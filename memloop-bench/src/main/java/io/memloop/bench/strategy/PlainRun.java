package io.memloop.bench.strategy;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import java.util.List;
import java.util.Map;

/**
 * A run of a plain baseline: experiences go into a {@link FlatMemory}, a {@link Selector} picks what to
 * show, and nothing is learned from rewards (no retrieval is kept, no utility exists).
 */
final class PlainRun implements MemoryRun {
  /** What a baseline shows, and the size of the pool it chose from. */
  record Selection(List<Memory> shown, int pool) {}

  @FunctionalInterface
  interface Selector {
    /** What to show for {@code task}, whose intent embedding is {@code query}. */
    Selection select(FlatMemory memory, float[] query, Task task);
  }

  private final FlatMemory memory;
  private final Selector selector;

  PlainRun(double mergeThreshold, Selector selector) {
    this.memory = new FlatMemory(mergeThreshold);
    this.selector = selector;
  }

  @Override
  public void preload(PriorExperience prior, float[] intentEmbedding) {
    memory.add(prior.intent(), intentEmbedding, prior.experience(), prior.outcome());
  }

  @Override
  public Recall recall(Task task, float[] intentEmbedding) {
    Selection s = selector.select(memory, intentEmbedding, task);
    return new Recall("", s.shown(), s.pool());
  }

  @Override
  public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
    memory.add(episode.task().intent(), intentEmbedding, episode.experience(), Outcome.ofReward(episode.reward()));
  }

  @Override
  public long memoryCount() {
    return memory.size();
  }

  @Override
  public Map<String, Double> utilities() {
    return Map.of(); // nothing is learned
  }

  @Override
  public void close() {}
}
