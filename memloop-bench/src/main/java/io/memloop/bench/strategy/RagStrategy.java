package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Vectors;
import io.memloop.policy.TextChannel;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plain retrieval-augmented generation, as a practitioner deploys it: the {@code k2} individual
 * memories whose intents are most similar to the task (cosine, no intent grouping), above the same
 * similarity gate δ as the engine; ties broken <b>newest first</b>. {@code rag-success} does the same
 * over successful experiences only; {@code rag-k5} shows five instead of three (a prompt budget like the
 * default preset's, whose merged failure notes are longer). {@code rag-hybrid-kN} is hybrid retrieval: the N
 * memories above the gate ranked by the sum of two z-scores over them, the vectors' cosine and the lexical cosine
 * of the texts (words, word pairs and character trigrams, the engine's {@code textSimilarity} vector), so a word or
 * a number a dense model hardly moves for counts as much as the meaning. Nothing is learned from rewards.
 */
public final class RagStrategy implements Strategy {
  private static final MemLoopConfig SHARED = MemLoopConfig.preset(Preset.MEMRL); // same k2, δ, merge
  private static final int LEXICAL_DIMENSION = 384;

  private final boolean successOnly;
  private final int k;
  private final boolean hybrid;

  private RagStrategy(boolean successOnly, int k, boolean hybrid) {
    this.successOnly = successOnly;
    this.k = k;
    this.hybrid = hybrid;
  }

  public static RagStrategy all() {
    return new RagStrategy(false, SHARED.k2(), false);
  }

  public static RagStrategy successesOnly() {
    return new RagStrategy(true, SHARED.k2(), false);
  }

  /** {@link #all()} showing {@code k} memories. */
  public static RagStrategy top(int k) {
    return new RagStrategy(false, k, false);
  }

  /** Hybrid retrieval (vectors and texts) showing {@code k} memories. */
  public static RagStrategy hybrid(int k) {
    return new RagStrategy(false, k, true);
  }

  @Override
  public int shows() {
    return k;
  }

  @Override
  public String name() {
    if (hybrid) {
      return "rag-hybrid-k" + k;
    }
    return successOnly ? "rag-success" : k == SHARED.k2() ? "rag" : "rag-k" + k;
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    Map<Memory, float[]> lexical = new IdentityHashMap<>(); // each memory's text vector, made once (one run, one thread)
    return new PlainRun(SHARED.mergeThreshold(), (memory, query, task) -> {
      List<FlatMemory.Scored> pool = memory.scoreAll(query).stream()
          .filter(s -> s.similarity() >= SHARED.similarityThreshold())
          .filter(s -> !successOnly || s.memory().outcome() == Outcome.SUCCESS)
          .toList();
      if (hybrid) {
        pool = hybrid(pool, task.intent(), lexical);
      }
      return new PlainRun.Selection(
          pool.stream().sorted(FlatMemory.BY_SIMILARITY_NEWEST_FIRST).limit(k).map(FlatMemory.Scored::memory).toList(),
          pool.size());
    });
  }

  /** {@code pool} scored by z(vector cosine) + z(lexical cosine of the texts) over the pool. */
  private static List<FlatMemory.Scored> hybrid(List<FlatMemory.Scored> pool, String queryText,
      Map<Memory, float[]> lexical) {
    int n = pool.size();
    if (n < 2) {
      return pool;
    }
    float[] q = TextChannel.vector(queryText, LEXICAL_DIMENSION);
    double[] cos = new double[n];
    double[] lex = new double[n];
    for (int i = 0; i < n; i++) {
      cos[i] = pool.get(i).similarity();
      lex[i] = Vectors.dot(q, lexical.computeIfAbsent(pool.get(i).memory(),
          m -> TextChannel.vector(m.intentText(), LEXICAL_DIMENSION)));
    }
    double[] zc = zScores(cos);
    double[] zl = zScores(lex);
    List<FlatMemory.Scored> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      FlatMemory.Scored s = pool.get(i);
      out.add(new FlatMemory.Scored(s.memory(), zc[i] + zl[i], s.order()));
    }
    return out;
  }

  private static double[] zScores(double[] x) {
    double mean = 0;
    for (double v : x) {
      mean += v / x.length;
    }
    double var = 0;
    for (double v : x) {
      var += (v - mean) * (v - mean) / x.length;
    }
    double sd = Math.sqrt(var);
    double[] z = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      z[i] = sd < 1e-12 ? 0 : (x[i] - mean) / sd;
    }
    return z;
  }
}
