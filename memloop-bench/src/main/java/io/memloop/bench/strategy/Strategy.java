package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.Seeds;
import java.util.List;

/**
 * A named way to run the memory, compared against the others on the same environment and seeds.
 * Implementations are immutable; each run gets a fresh {@link MemoryRun}.
 */
public interface Strategy {

  /** Stable name used in reports ({@code no-memory}, {@code similarity}, {@code memrl}...). */
  String name();

  /** A fresh, empty memory for one run. {@code seed} drives any randomness of the strategy. */
  MemoryRun start(int dimension, long seed);

  /**
   * A fresh, empty memory for the run seeded {@code runSeed}: the strategy's own seed is derived from the run's
   * and its name, so the same strategy in the same run starts the same wherever it is started. The loops start
   * every strategy this way; the oracle starts each of its shadows so, which makes each shadow that strategy's
   * own run (see {@link #oracle(GroundTruth, List)}).
   */
  default MemoryRun startRun(int dimension, long runSeed) {
    return start(dimension, Seeds.derive(runSeed, "strategy:" + name()));
  }

  /**
   * This strategy with its engine runs on {@code store} ({@link RunStore}); a strategy that keeps no engine store
   * (the floor, the plain baselines) is returned as it is.
   */
  default Strategy on(RunStore store) {
    return this;
  }

  /**
   * This strategy with its engine splitting vectors into {@code blocks} ({@link MemLoopConfig#similarityBlocks}), as
   * an engine embedding with a concatenation of models should ({@link io.memloop.embed.Embedder#blocks()}); unchanged
   * when {@code blocks} is 1, when its configuration names another count, or for a strategy without an engine.
   */
  default Strategy withBlocks(int blocks) {
    return this;
  }

  /**
   * The most memories one of its recalls can show, if that can be more than the oracle's default budget ({@code
   * rag-k5}'s five); 0 for a strategy that never shows more. The oracle's truth view shows as many as the widest of
   * its shadows.
   */
  default int shows() {
    return 0;
  }

  /** The floor: never retrieves, never stores. */
  static Strategy noMemory() {
    return NoMemoryStrategy.INSTANCE;
  }

  /** The engine under a preset, named after it ({@code similarity}, {@code memrl}, {@code default}). */
  static Strategy preset(Preset preset) {
    return new EngineStrategy(preset.id(), MemLoopConfig.preset(preset));
  }

  /** MemP-like: similarity retrieval, no utility learning, MemP's deletion rule. */
  static Strategy memp() {
    return new MempStrategy();
  }

  /** The ceiling with no shadows: its ground-truth view of every experience, or no memory (reads ground truth). */
  static Strategy oracle(GroundTruth truth) {
    return new OracleStrategy(truth, List.of());
  }

  /**
   * The ceiling of a run whose other memory strategies are {@code shadows}: it replays each episode over its
   * ground-truth view, each shadow's view and no memory, and keeps the first that succeeds, so per episode it
   * succeeds whenever any of them does (see {@link OracleStrategy}). Reads ground truth.
   *
   * @throws IllegalArgumentException if a shadow is the floor, another oracle, or named twice
   */
  static Strategy oracle(GroundTruth truth, List<Strategy> shadows) {
    return new OracleStrategy(truth, shadows);
  }

  /** The engine under any configuration. */
  static Strategy engine(String name, MemLoopConfig config) {
    return new EngineStrategy(name, config);
  }
}
