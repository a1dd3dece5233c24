package io.memloop.jmh;

import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.lucene.VectorFormat;
import io.memloop.ClusteredVectors;
import io.memloop.Memory;
import io.memloop.store.IntentMatch;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.lucene.util.VectorUtil;

/**
 * Phase A recall@k1 (k1 = 5): the fraction of the exact top-5 intents (brute-force cosine over every
 * memory's intent vector, regenerated from the seed) that {@link LuceneStore#recall} returns, averaged
 * over {@code QUERIES} queries. The similarity gate is off (δ = −1) so that only the HNSW search is
 * judged. Works on a scratch copy of the built store (closing checkpoints, which writes).
 *
 * <p>Queries {@code FIRST .. FIRST+QUERIES-1} of the store's query stream. The HNSW candidate count
 * was chosen on queries 0–499, so the reported recall uses a held-out range (default FIRST = 100,000);
 * {@code FIRST = 0} reproduces the tuning set. {@code FORMAT} picks the store built in that {@link VectorFormat}
 * (default float32) and {@code OVERSAMPLE} its search's {@link LuceneStoreOptions#searchOversample()} (default 0:
 * the format's own); both print the search's mean time per query after the recall, from a second pass.
 *
 * <pre>
 * scripts/jmh --main io.memloop.jmh.RecallCheck SIZE [SEED] [QUERIES] [FIRST] [FORMAT] [OVERSAMPLE]
 * </pre>
 */
public final class RecallCheck {
  private static final int K = 5;

  private RecallCheck() {}

  public static void main(String[] args) {
    int size = Integer.parseInt(args[0]);
    long seed = args.length > 1 ? Long.parseLong(args[1]) : Stores.DEFAULT_SEED;
    int queries = args.length > 2 ? Integer.parseInt(args[2]) : 500;
    int first = args.length > 3 ? Integer.parseInt(args[3]) : 100_000;
    VectorFormat format = args.length > 4 ? VectorFormat.parse("FORMAT", args[4]) : VectorFormat.FLOAT32;
    int oversample = args.length > 5 ? Integer.parseInt(args[5]) : 0;
    ClusteredVectors vectors = new ClusteredVectors(seed, size);
    float[][] q = new float[queries][];
    for (int i = 0; i < queries; i++) {
      q[i] = vectors.query(first + i);
    }

    long t0 = System.nanoTime();
    TopK[] exact = bruteForce(vectors, q);
    System.out.printf(Locale.ROOT, "brute force over %,d x %d queries: %.1f s%n", size, queries,
        (System.nanoTime() - t0) / 1e9);

    Path dir = Stores.scratchCopy(size, seed, format, "recall");
    int found = 0;
    double top1 = 0;
    double kth = 0;
    double next = 0;
    try (LuceneStore store = LuceneStore.open(dir, LuceneStoreOptions.builder().searchOversample(oversample).build())) {
      for (int i = 0; i < queries; i++) {
        List<IntentMatch> got = store.recall(Stores.NAMESPACE, q[i], K, -1);
        for (IntentMatch m : got) {
          for (Memory memory : m.memories()) {
            if (exact[i].contains(indexOf(memory))) {
              found++;
            }
          }
        }
        top1 += exact[i].sims[0];
        kth += exact[i].sims[K - 1];
        next += exact[i].sims[K];
      }
      // the same queries again, timed: three warm passes, the best one (a rough figure; RetrievalBenchmark is the measure)
      double best = Double.MAX_VALUE;
      for (int pass = 0; pass < 4; pass++) {
        long t = System.nanoTime();
        for (int i = 0; i < queries; i++) {
          store.recall(Stores.NAMESPACE, q[i], K, -1);
        }
        if (pass > 0) {
          best = Math.min(best, (System.nanoTime() - t) / 1e3 / queries);
        }
      }
      System.out.printf(Locale.ROOT, "format=%s oversample=%d: recall %.1f us per query (best of three passes)%n",
          format.id(), oversample, best);
    } finally {
      Stores.delete(dir);
    }
    System.out.printf(Locale.ROOT, "size=%d seed=%d queries=%d (from #%d) recall@%d=%.4f%n", size, seed, queries, first,
        K, found / (double) (queries * K));
    System.out.printf(Locale.ROOT, "exact cosine, mean over queries: top-1 %.3f, %dth %.3f, %dth %.3f%n",
        top1 / queries, K, kth / queries, K + 1, next / queries);
  }

  /** Memory index from its experience text "experience #i" (ids depend on insert interleaving). */
  private static int indexOf(Memory m) {
    String e = m.experience();
    return Integer.parseInt(e.substring(e.indexOf('#') + 1));
  }

  /** One pass over the members, each scored against every query: members are generated once. */
  private static TopK[] bruteForce(ClusteredVectors vectors, float[][] q) {
    TopK[] top = new TopK[q.length];
    for (int i = 0; i < q.length; i++) {
      top[i] = new TopK(K + 1);
    }
    for (int m = 0; m < vectors.size(); m++) {
      float[] v = vectors.member(m);
      for (int i = 0; i < q.length; i++) {
        top[i].offer(m, VectorUtil.dotProduct(v, q[i]));
      }
    }
    return top;
  }

  /** The k best (index, similarity) pairs seen, best first; insertion sort is fine for k = 6. */
  private static final class TopK {
    final int[] ids;
    final float[] sims;

    TopK(int k) {
      ids = new int[k];
      sims = new float[k];
      Arrays.fill(sims, Float.NEGATIVE_INFINITY);
    }

    void offer(int id, float sim) {
      int at = sims.length - 1;
      if (sim <= sims[at]) {
        return;
      }
      while (at > 0 && sims[at - 1] < sim) {
        sims[at] = sims[at - 1];
        ids[at] = ids[at - 1];
        at--;
      }
      sims[at] = sim;
      ids[at] = id;
    }

    /** Whether {@code id} is among the first K (the (K+1)th is kept only to report the margin). */
    boolean contains(int id) {
      for (int i = 0; i < K; i++) {
        if (ids[i] == id) {
          return true;
        }
      }
      return false;
    }
  }
}
