package io.memloop.bench.strategy;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Retrieval;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run of the MemLoop engine under a configuration, on a fresh store ({@link RunStore}; in memory unless
 * asked otherwise): retrieve,
 * reward what was shown with the episode's reward, remember the episode. Strategies that change one
 * step (MemP's deletion, the oracle's selection) extend it.
 *
 * <p>The engine gets no embedder: intents arrive with their embeddings precomputed (embedding is
 * the slow part of a run), and a caller's embedder must outlive the runs, whereas
 * {@link MemLoop#close()} would close it. The clock is fixed so that runs are reproducible and
 * retrievals never expire mid-run. Used by one thread.
 */
public class EngineRun implements MemoryRun {
  public static final String NAMESPACE = "bench";

  final MemLoop loop;
  private final Runnable cleanup;

  protected EngineRun(MemLoopConfig config, int dimension, long seed) {
    this(config, dimension, seed, RunStore.MEMORY);
  }

  protected EngineRun(MemLoopConfig config, int dimension, long seed, RunStore where) {
    RunStore.Opened opened = where.open(dimension);
    try {
      this.loop =
          MemLoop.builder()
              .store(opened.store())
              .config(config)
              .clock(InstantSource.fixed(Instant.EPOCH))
              .seed(seed)
              .build();
    } catch (RuntimeException e) {
      try {
        opened.store().close();
      } finally {
        opened.cleanup().run();
      }
      throw e;
    }
    this.cleanup = opened.cleanup();
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
    if (!recall.retrievalId().isEmpty()) {
      // Every selected memory gets the episode's reward (MemRL: no per-memory credit).
      loop.reward(NAMESPACE, recall.retrievalId(), episode.reward());
    }
    loop.remember(
        NAMESPACE, Intent.of(episode.task().intent(), intentEmbedding), episode.experience(),
        Outcome.ofReward(episode.reward()), recall.retrievalId().isEmpty() ? null : recall.retrievalId());
  }

  /** Every memory held now, oldest first. */
  List<Memory> memories() {
    List<Memory> all = new java.util.ArrayList<>();
    loop.store().forEachMemory(NAMESPACE, all::add);
    return all;
  }

  @Override
  public long memoryCount() {
    return loop.stats(NAMESPACE).memories();
  }

  @Override
  public Map<String, Double> utilities() {
    Map<String, Double> q = new HashMap<>();
    loop.store().forEachMemory(NAMESPACE, m -> q.put(m.id(), m.q()));
    return q;
  }

  @Override
  public void close() {
    try {
      loop.close();
    } finally {
      cleanup.run();
    }
  }
}
