package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Preset;
import java.util.List;

/**
 * Plain retrieval-augmented generation, as a practitioner deploys it: the {@code k2} individual
 * memories whose intents are most similar to the task (cosine, no intent grouping), above the same
 * similarity gate δ as the engine; ties broken <b>newest first</b>. {@code rag-success} does the same
 * over successful experiences only; {@code rag-k5} shows five instead of three (a prompt budget like the
 * default preset's, whose merged failure notes are longer). Nothing is learned from rewards.
 */
public final class RagStrategy implements Strategy {
  private static final MemLoopConfig SHARED = MemLoopConfig.preset(Preset.MEMRL); // same k2, δ, merge

  private final boolean successOnly;
  private final int k;

  private RagStrategy(boolean successOnly, int k) {
    this.successOnly = successOnly;
    this.k = k;
  }

  public static RagStrategy all() {
    return new RagStrategy(false, SHARED.k2());
  }

  public static RagStrategy successesOnly() {
    return new RagStrategy(true, SHARED.k2());
  }

  /** {@link #all()} showing {@code k} memories. */
  public static RagStrategy top(int k) {
    return new RagStrategy(false, k);
  }

  @Override
  public int shows() {
    return k;
  }

  @Override
  public String name() {
    return successOnly ? "rag-success" : k == SHARED.k2() ? "rag" : "rag-k" + k;
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return new PlainRun(SHARED.mergeThreshold(), (memory, query) -> {
      List<FlatMemory.Scored> pool = memory.scoreAll(query).stream()
          .filter(s -> s.similarity() >= SHARED.similarityThreshold())
          .filter(s -> !successOnly || s.memory().outcome() == Outcome.SUCCESS)
          .sorted(FlatMemory.BY_SIMILARITY_NEWEST_FIRST)
          .toList();
      return new PlainRun.Selection(
          pool.stream().limit(k).map(FlatMemory.Scored::memory).toList(), pool.size());
    });
  }
}
