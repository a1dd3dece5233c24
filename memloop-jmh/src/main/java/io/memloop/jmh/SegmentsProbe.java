package io.memloop.jmh;

import io.memloop.ClusteredVectors;
import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.store.NewMemory;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.lucene.VectorFormat;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Locale;

/**
 * What the segments that inserts leave behind cost Phase A: the clustered store of {@code SIZE}, then {@code ROUNDS}
 * rounds of {@code PER_ROUND} single inserts (as episodes add memories), each followed by {@code QUERIES} timed
 * recalls (the default preset's k1, gate off); then a {@code forceMerge(1)} and the same recalls again. Prints, per
 * round, the index's segment count, the recall's p50 / p90 in microseconds (one thread; a rough figure beside JMH's)
 * and the process's CPU time while the round inserted (Lucene's merges included).
 *
 * <pre>
 * scripts/jmh --main io.memloop.jmh.SegmentsProbe SIZE ROUNDS PER_ROUND QUERIES
 * </pre>
 */
public final class SegmentsProbe {
  private SegmentsProbe() {}

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    int perRound = Integer.parseInt(args[2]);
    int queries = Integer.parseInt(args[3]);
    int k1 = MemLoopConfig.builder().build().k1();
    ClusteredVectors vectors = new ClusteredVectors(Stores.DEFAULT_SEED ^ 0x5E6L, size);
    Path dir = Stores.scratchCopy(size, Stores.DEFAULT_SEED, VectorFormat.FLOAT32, "segments");
    Method segments = LuceneStore.class.getDeclaredMethod("segmentCountForTesting");
    segments.setAccessible(true);
    try (LuceneStore store = LuceneStore.open(dir, LuceneStoreOptions.builder().build())) {
      System.out.printf(Locale.ROOT, "%-8s %8s %9s %8s %8s%n", "round", "inserted", "segments", "p50 us", "p90 us");
      int next = 0;
      for (int round = 0; round <= rounds; round++) {
        long cpu0 = LoadGenerator.ownCpuNanos();
        if (round > 0) {
          for (int i = 0; i < perRound; i++) {
            float[] v = vectors.query(2_000_000 + next++);
            store.insert(new NewMemory(Stores.NAMESPACE, "", v, "inserted " + next, Outcome.SUCCESS, 0.0, Instant.now()), 2.0);
          }
        }
        long insertCpu = LoadGenerator.ownCpuNanos() - cpu0;
        print("r" + round, next, segments.invoke(store), time(store, vectors, k1, queries, round));
        System.out.printf(Locale.ROOT, "         process CPU while inserting (and merging): %.0f ms%n", insertCpu / 1e6);
      }
      store.forceMerge(1);
      print("merged", next, segments.invoke(store), time(store, vectors, k1, queries, rounds + 1));
    }
  }

  private static long[] time(LuceneStore store, ClusteredVectors vectors, int k1, int queries, int round) {
    long[] t = new long[queries];
    for (int pass = 0; pass < 2; pass++) { // the first pass warms up
      for (int i = 0; i < queries; i++) {
        float[] q = vectors.query(round * queries + i);
        long t0 = System.nanoTime();
        store.recall(Stores.NAMESPACE, q, k1, -1);
        t[i] = System.nanoTime() - t0;
      }
    }
    Arrays.sort(t);
    return t;
  }

  private static void print(String round, int inserted, Object segments, long[] t) {
    System.out.printf(Locale.ROOT, "%-8s %8d %9s %8.0f %8.0f%n", round, inserted, segments,
        t[t.length / 2] / 1e3, t[t.length * 9 / 10] / 1e3);
  }
}
