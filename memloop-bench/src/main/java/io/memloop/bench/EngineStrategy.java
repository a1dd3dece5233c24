package io.memloop.bench;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Retrieval;
import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.time.InstantSource;

/**
 * The MemLoop engine under one configuration, on a fresh {@link InMemoryStore} per run.
 *
 * <p>The engine gets no embedder: intents arrive with their embeddings precomputed (embedding is
 * the slow part of a run), and a caller's embedder must outlive the runs, whereas
 * {@link MemLoop#close()} would close it. The clock is fixed so that runs are reproducible and
 * retrievals never expire mid-run.
 */
final class EngineStrategy implements Strategy {
  static final String NAMESPACE = "bench";

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

  MemLoopConfig config() {
    return config;
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
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
    private final MemLoop loop;

    Run(MemLoop loop) {
      this.loop = loop;
    }

    @Override
    public void preload(PriorExperience prior, float[] intentEmbedding) {
      loop.remember(NAMESPACE, Intent.of(prior.intent(), intentEmbedding), prior.experience(), prior.outcome());
    }

    @Override
    public Recall recall(Task task, float[] intentEmbedding) {
      Retrieval r = loop.retrieve(NAMESPACE, Intent.of(task.intent(), intentEmbedding));
      return new Recall(r.id(), r.selected(), r.candidates().size());
    }

    @Override
    public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
      // Every selected memory gets the episode's reward (MemRL: no per-memory credit).
      loop.reward(NAMESPACE, recall.retrievalId(), episode.reward());
      loop.remember(
          NAMESPACE,
          Intent.of(episode.task().intent(), intentEmbedding),
          episode.experience(),
          Outcome.ofReward(episode.reward()));
    }

    @Override
    public long memoryCount() {
      return loop.stats(NAMESPACE).memories();
    }

    @Override
    public java.util.Map<String, Double> utilities() {
      java.util.Map<String, Double> q = new java.util.HashMap<>();
      loop.store().forEachMemory(NAMESPACE, m -> q.put(m.id(), m.q()));
      return q;
    }

    @Override
    public void close() {
      loop.close();
    }
  }
}
