package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Preset;
import io.memloop.bench.Episode;
import java.util.HashMap;
import java.util.Map;

/**
 * A MemP-like baseline (procedural memory, see the research digest): similarity retrieval with no
 * utility learning (α = 0), plus MemP's deletion rule — a memory is deleted once it has been shown
 * at least {@link #MIN_HITS} times with a success rate below {@link #MAX_FAILING_RATE}.
 */
final class MempStrategy implements Strategy {
  static final int MIN_HITS = 3;
  static final double MAX_FAILING_RATE = 0.5;

  private final RunStore where;

  MempStrategy() {
    this(RunStore.MEMORY);
  }

  private MempStrategy(RunStore where) {
    this.where = where;
  }

  @Override
  public String name() {
    return "memp";
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return new Run(dimension, seed, where);
  }

  @Override
  public Strategy on(RunStore store) {
    return new MempStrategy(store);
  }

  private static final class Run extends EngineRun {
    private final Map<String, int[]> hits = new HashMap<>(); // id -> {shown, successes}

    Run(int dimension, long seed, RunStore where) {
      super(MemLoopConfig.preset(Preset.SIMILARITY), dimension, seed, where);
    }

    @Override
    public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
      for (Memory m : recall.shown()) {
        int[] h = hits.computeIfAbsent(m.id(), k -> new int[2]);
        h[0]++;
        h[1] += episode.success() ? 1 : 0;
      }
      super.learn(recall, intentEmbedding, episode);
      for (Memory m : recall.shown()) {
        int[] h = hits.get(m.id());
        if (h != null && h[0] >= MIN_HITS && (double) h[1] / h[0] < MAX_FAILING_RATE) {
          loop.forget(NAMESPACE, m.id());
          hits.remove(m.id());
        }
      }
    }

    @Override
    public Map<String, Double> utilities() {
      return Map.of(); // MemP keeps no utility: its Q never moves
    }
  }
}
