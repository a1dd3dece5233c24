package io.memloop.bench.strategy;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The memory of the plain baselines ({@link RagStrategy}, {@link RecentStrategy}): a list of
 * experiences in the order they were stored, each with its intent embedding, and intent groups formed
 * the way the engine forms them (a new intent joins the most similar group whose first intent is
 * within the merge threshold). No utility is ever learned. Used by one thread.
 */
final class FlatMemory {
  /** A memory found by a query: its cosine and when it was stored (higher = newer). */
  record Scored(Memory memory, double similarity, long order) {}

  /** Ties broken newest first (the most recent experience reflects the current state of the world). */
  static final Comparator<Scored> BY_SIMILARITY_NEWEST_FIRST =
      Comparator.comparingDouble((Scored s) -> -s.similarity()).thenComparingLong(s -> -s.order());

  private final List<Memory> memories = new ArrayList<>();
  private final List<float[]> groupVectors = new ArrayList<>(); // a group's first intent, by group index
  private final List<List<Integer>> groupMembers = new ArrayList<>(); // memory indexes, oldest first
  private final double mergeThreshold;

  FlatMemory(double mergeThreshold) {
    this.mergeThreshold = mergeThreshold;
  }

  /** Every memory with its cosine to {@code query}, in store order. */
  List<Scored> scoreAll(float[] query) {
    float[] q = Vectors.normalized(query, "intent.embedding");
    List<Scored> out = new ArrayList<>(memories.size());
    for (int i = 0; i < memories.size(); i++) {
      Memory m = memories.get(i);
      out.add(new Scored(m, Vectors.dot(q, m.intentEmbedding()), i));
    }
    return out;
  }

  /**
   * The memories of the {@code k1} intent groups nearest to {@code query} with cosine ≥ {@code gate},
   * each scored with its group's cosine.
   */
  List<Scored> nearestGroups(float[] query, int k1, double gate) {
    float[] q = Vectors.normalized(query, "intent.embedding");
    List<double[]> groups = new ArrayList<>(); // {cosine, index}
    for (int g = 0; g < groupVectors.size(); g++) {
      double cos = Vectors.dot(q, groupVectors.get(g));
      if (cos >= gate) {
        groups.add(new double[] {cos, g});
      }
    }
    groups.sort(Comparator.<double[]>comparingDouble(a -> -a[0]).thenComparingDouble(a -> a[1]));
    List<Scored> out = new ArrayList<>();
    for (double[] g : groups.subList(0, Math.min(k1, groups.size()))) {
      for (int i : groupMembers.get((int) g[1])) {
        out.add(new Scored(memories.get(i), g[0], i));
      }
    }
    return out;
  }

  void add(String intentText, float[] intentEmbedding, String experience, Outcome outcome) {
    float[] v = Vectors.normalized(intentEmbedding, "intent.embedding");
    int best = -1;
    double bestCos = Double.NEGATIVE_INFINITY;
    for (int g = 0; g < groupVectors.size(); g++) {
      double cos = Vectors.dot(v, groupVectors.get(g));
      if (cos >= mergeThreshold && cos > bestCos) {
        best = g;
        bestCos = cos;
      }
    }
    if (best < 0) {
      best = groupVectors.size();
      groupVectors.add(v);
      groupMembers.add(new ArrayList<>());
    }
    int index = memories.size();
    Instant at = Instant.EPOCH.plusSeconds(index);
    memories.add(new Memory("m" + (index + 1), EngineRun.NAMESPACE, "i" + (best + 1), intentText, v, experience,
        outcome, 0, 0, at, at));
    groupMembers.get(best).add(index);
  }

  int size() {
    return memories.size();
  }
}
