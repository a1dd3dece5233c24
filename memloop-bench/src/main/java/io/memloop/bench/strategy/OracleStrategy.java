package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Preset;
import io.memloop.Vectors;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.Task;
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
    return new Run(dimension, seed, truth);
  }

  private static final class Run extends EngineRun {
    private final GroundTruth truth;

    Run(int dimension, long seed, GroundTruth truth) {
      super(MemLoopConfig.preset(Preset.SIMILARITY), dimension, seed);
      this.truth = truth;
    }

    /** Keeps no retrieval to reward (its id is empty): the oracle's utilities never move. */
    @Override
    public Recall recall(Task task, float[] intentEmbedding) {
      float[] query = Vectors.normalized(intentEmbedding, "intent.embedding");
      List<Memory> all = memories();
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
    public Map<String, Double> utilities() {
      return Map.of();
    }
  }
}
