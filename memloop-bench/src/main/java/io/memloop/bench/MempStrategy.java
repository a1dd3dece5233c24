package io.memloop.bench;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.time.InstantSource;
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

  @Override
  public String name() {
    return "memp";
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    MemLoopConfig config = MemLoopConfig.preset(Preset.SIMILARITY);
    MemLoop loop =
        MemLoop.builder()
            .store(new InMemoryStore(dimension))
            .config(config)
            .clock(InstantSource.fixed(Instant.EPOCH))
            .seed(seed)
            .build();
    return new Run(loop);
  }

  private static final class Run implements MemoryRun {
    private static final String NS = EngineStrategy.NAMESPACE;
    private final MemLoop loop;
    private final Map<String, int[]> hits = new HashMap<>(); // id -> {shown, successes}

    Run(MemLoop loop) {
      this.loop = loop;
    }

    @Override
    public void preload(PriorExperience prior, float[] intentEmbedding) {
      loop.remember(NS, Intent.of(prior.intent(), intentEmbedding), prior.experience(), prior.outcome());
    }

    @Override
    public Recall recall(Task task, float[] intentEmbedding) {
      Retrieval r = loop.retrieve(NS, Intent.of(task.intent(), intentEmbedding));
      return new Recall(r.id(), r.selected(), r.candidates().size());
    }

    @Override
    public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
      for (Memory m : recall.shown()) {
        int[] h = hits.computeIfAbsent(m.id(), k -> new int[2]);
        h[0]++;
        h[1] += episode.success() ? 1 : 0;
        if (h[0] >= MIN_HITS && (double) h[1] / h[0] < MAX_FAILING_RATE) {
          loop.forget(NS, m.id());
          hits.remove(m.id());
        }
      }
      loop.remember(
          NS, Intent.of(episode.task().intent(), intentEmbedding), episode.experience(),
          Outcome.ofReward(episode.reward()));
    }

    @Override
    public long memoryCount() {
      return loop.stats(NS).memories();
    }

    @Override
    public Map<String, Double> utilities() {
      return Map.of(); // MemP keeps no utility: its Q never moves
    }

    @Override
    public void close() {
      loop.close();
    }
  }
}
