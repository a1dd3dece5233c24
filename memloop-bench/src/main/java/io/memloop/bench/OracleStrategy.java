package io.memloop.bench;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Vectors;
import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The ceiling for the same memory contents: stores every experience like the other strategies, but
 * shows only memories the environment's {@link GroundTruth} says truly help the task (up to
 * {@link #K} of them, most similar first), then fills the remaining places with the task's own notes
 * that do not mislead; never a misleading memory. The only strategy that reads
 * ground truth; it is built per environment with that environment's truth.
 */
final class OracleStrategy implements Strategy {
  static final int K = MemLoopConfig.preset(Preset.MEMRL).k2();

  private final GroundTruth truth;

  OracleStrategy(GroundTruth truth) {
    this.truth = truth;
  }

  @Override
  public String name() {
    return "oracle";
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    MemLoop loop =
        MemLoop.builder()
            .store(new InMemoryStore(dimension))
            .config(MemLoopConfig.preset(Preset.SIMILARITY))
            .clock(InstantSource.fixed(Instant.EPOCH))
            .seed(seed)
            .build();
    return new Run(loop, truth);
  }

  private static final class Run implements MemoryRun {
    private static final String NS = EngineStrategy.NAMESPACE;
    private final MemLoop loop;
    private final GroundTruth truth;

    Run(MemLoop loop, GroundTruth truth) {
      this.loop = loop;
      this.truth = truth;
    }

    @Override
    public void preload(PriorExperience prior, float[] intentEmbedding) {
      loop.remember(NS, Intent.of(prior.intent(), intentEmbedding), prior.experience(), prior.outcome());
    }

    @Override
    public Recall recall(Task task, float[] intentEmbedding) {
      float[] query = Vectors.normalized(intentEmbedding, "intent.embedding");
      List<Memory> all = new ArrayList<>();
      loop.store().forEachMemory(NS, all::add);
      Comparator<Memory> bySimilarity = Comparator.comparingDouble((Memory m) -> -Vectors.dot(query, m.intentEmbedding()));
      List<Memory> shown = new ArrayList<>(
          all.stream().filter(m -> truth.helps(task, m)).sorted(bySimilarity).limit(K).toList());
      // Room left: the task's own notes that do not mislead (what went wrong here before), which
      // help a policy that explores; never another task's experiences, which may not apply.
      all.stream()
          .filter(m -> m.intentText().equals(task.intent()) && !shown.contains(m) && !GroundTruth.misleads(truth, task, m))
          .sorted(bySimilarity)
          .limit(K - shown.size())
          .forEach(shown::add);
      return new Recall("", shown, all.size());
    }

    @Override
    public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
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
      return Map.of();
    }

    @Override
    public void close() {
      loop.close();
    }
  }
}
