package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.bench.GroundTruth;

/**
 * A named way to run the memory, compared against the others on the same environment and seeds.
 * Implementations are immutable; each run gets a fresh {@link MemoryRun}.
 */
public interface Strategy {

  /** Stable name used in reports ({@code no-memory}, {@code similarity}, {@code memrl}...). */
  String name();

  /** A fresh, empty memory for one run. {@code seed} drives any randomness of the strategy. */
  MemoryRun start(int dimension, long seed);

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

  /** The ceiling: shows only the stored memories that truly help (reads ground truth). */
  static Strategy oracle(GroundTruth truth) {
    return new OracleStrategy(truth);
  }

  /** The engine under any configuration. */
  static Strategy engine(String name, MemLoopConfig config) {
    return new EngineStrategy(name, config);
  }
}
