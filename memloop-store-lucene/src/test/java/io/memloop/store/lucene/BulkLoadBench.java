package io.memloop.store.lucene;

import io.memloop.Candidate;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecordDraft;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A quick measurement, not a test (surefire skips it): bulk-loads {@code n} clustered 384-d vectors
 * with {@link LuceneStore#insertAll} (merge threshold 1.01, as the JMH stores), then times Phase A
 * ({@code recall}, k = 5, gate 0.5) and its recall@5 against brute force as loaded, after {@code
 * forceMerge(4)} and after {@code forceMerge(1)}, and {@code saveRetrieval} with and without a sync
 * per save.
 *
 * <pre>
 *   java -cp ... io.memloop.store.lucene.BulkLoadBench DIR N BATCH [QUERIES [BEAM_WIDTH]]
 * </pre>
 *
 * The vectors are those of the JMH module's {@code ClusteredVectors} (seed 42, {@code n / 50} centres
 * on the sphere, members at noise 0.5, queries at noise 0.3). With {@code BATCH} 0 the bench loads
 * nothing and measures an existing store in {@code DIR} (e.g. a copy of a JMH-built one) instead.
 */
public final class BulkLoadBench {
  static final int DIM = 384;

  private BulkLoadBench() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int n = Integer.parseInt(args[1]);
    int batchSize = Integer.parseInt(args[2]);
    int queries = args.length > 3 ? Integer.parseInt(args[3]) : 2000;
    int beamWidth = args.length > 4 ? Integer.parseInt(args[4]) : 100;
    LuceneStoreOptions options = LuceneStoreOptions.builder().hnsw(16, beamWidth).build();
    if (batchSize > 0 && Files.exists(dir)) {
      throw new IllegalArgumentException(dir + " exists; give a fresh directory");
    }
    Clusters data = new Clusters(42, n);
    long start = System.nanoTime();
    try (LuceneStore store = LuceneStore.open(dir, DIM, options)) {
      report("opened", 0, start, store);
      for (int from = 0; batchSize > 0 && from < n; from += batchSize) {
        List<NewMemory> batch = new ArrayList<>(batchSize);
        for (int i = from; i < Math.min(n, from + batchSize); i++) {
          batch.add(new NewMemory("bench", "intent #" + i, data.member(i), "experience #" + i, Outcome.SUCCESS, 0,
              StoreFixtures.T0));
        }
        store.insertAll(batch, 1.01);
        if ((from / batchSize) % 5 == 4) {
          report("loaded", from + batch.size(), start, store);
        }
      }
      report("loaded (acknowledged, durable)", n, start, store);
      store.checkpoint();
      report("after checkpoint", n, start, store);

      float[][] members = new float[n][];
      for (int i = 0; i < n; i++) {
        members[i] = data.member(i);
      }
      timeRecall("Phase A, as loaded", store, data, queries, members);
      for (int segments : new int[] {4, 1}) {
        long merge = System.nanoTime();
        store.forceMerge(segments);
        System.out.printf("forceMerge(%d): %.1f s%n", segments, (System.nanoTime() - merge) / 1e9);
        timeRecall("Phase A after forceMerge(" + segments + ")", store, data, queries, members);
      }
    }
    for (long delayMillis : new long[] {0, 50}) {
      LuceneStoreOptions o = LuceneStoreOptions.builder().hnsw(16, beamWidth).retrievalSyncDelayMillis(delayMillis)
          .build();
      try (LuceneStore store = LuceneStore.open(dir, DIM, o)) {
        timeSaves("saveRetrieval, retrievalSyncDelayMillis=" + delayMillis, store, queries);
      }
    }
  }

  private static void report(String what, int done, long start, LuceneStore store) {
    double s = (System.nanoTime() - start) / 1e9;
    System.out.printf("%s: %d memories in %.1f s = %.0f memories/s, %d segments%n", what, done, s, done / s,
        store.segmentCountForTesting());
  }

  private static void timeRecall(String what, LuceneStore store, Clusters data, int queries, float[][] members) {
    float[][] qs = new float[queries][];
    for (int q = 0; q < queries; q++) {
      qs[q] = data.query(q);
    }
    for (int q = 0; q < Math.min(queries, 500); q++) { // warm-up
      store.recall("bench", qs[q], 5, 0.5);
    }
    long[] nanos = new long[queries];
    for (int q = 0; q < queries; q++) {
      long t = System.nanoTime();
      store.recall("bench", qs[q], 5, 0.5);
      nanos[q] = System.nanoTime() - t;
    }
    print(what + " (" + store.segmentCountForTesting() + " segments)", nanos);
    int checked = Math.min(queries, 200);
    double found = 0;
    for (int q = 0; q < checked; q++) {
      Set<String> exact = exactTop5(members, qs[q]);
      for (var match : store.recall("bench", qs[q], 5, -1)) {
        found += exact.contains(match.memories().get(0).experience()) ? 1 : 0;
      }
    }
    System.out.printf("  recall@5 vs exact over %d queries: %.4f%n", checked, found / (5.0 * checked));
  }

  private static Set<String> exactTop5(float[][] members, float[] q) {
    Integer[] best = new Integer[0];
    java.util.PriorityQueue<Integer> heap = new java.util.PriorityQueue<>(
        java.util.Comparator.comparingDouble((Integer i) -> Vectors.dot(members[i], q)));
    for (int i = 0; i < members.length; i++) {
      heap.add(i);
      if (heap.size() > 5) {
        heap.poll();
      }
    }
    Set<String> out = new HashSet<>();
    for (Integer i : heap.toArray(best)) {
      out.add("experience #" + i);
    }
    return out;
  }

  private static void timeSaves(String what, LuceneStore store, int count) {
    List<Candidate> candidates = List.of(new Candidate("m1", 0.9, 0, 1, true, 1));
    long[] nanos = new long[count];
    for (int i = 0; i < count; i++) {
      long t = System.nanoTime();
      store.saveRetrieval(new RetrievalRecordDraft("bench", StoreFixtures.T0, StoreFixtures.T0.plusSeconds(3600),
          candidates));
      nanos[i] = System.nanoTime() - t;
    }
    print(what, nanos);
  }

  private static void print(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf("%s: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms, mean %.3f ms (%d calls)%n", what,
        sorted[sorted.length / 2] / 1e6, sorted[(int) (sorted.length * 0.9)] / 1e6,
        sorted[(int) (sorted.length * 0.99)] / 1e6, Arrays.stream(sorted).average().orElse(0) / 1e6, sorted.length);
  }

  /**
   * Clustered unit vectors, a pure function of (seed, index): the same generator as the JMH module's
   * {@code ClusteredVectors} (copied, not depended on), so stores and queries match its benchmarks.
   */
  static final class Clusters {
    private final long seed;
    private final int size;
    private final int clusters;

    Clusters(long seed, int size) {
      this.seed = seed;
      this.size = size;
      this.clusters = Math.max(1, size / 50);
    }

    float[] member(int index) {
      float[] v = centre(index % clusters);
      addNoise(v, new SplittableRandom(mix(seed, 2L * index + 1)), 0.5);
      return v;
    }

    float[] query(int q) {
      SplittableRandom r = new SplittableRandom(mix(~seed, q));
      float[] v = member(r.nextInt(size));
      addNoise(v, r, 0.3);
      return v;
    }

    private float[] centre(int cluster) {
      SplittableRandom r = new SplittableRandom(mix(seed, -2L * cluster - 2));
      float[] v = new float[DIM];
      for (int d = 0; d < DIM; d++) {
        v[d] = (float) r.nextGaussian();
      }
      normalise(v);
      return v;
    }

    private static void addNoise(float[] v, SplittableRandom r, double norm) {
      double perComponent = norm / Math.sqrt(DIM);
      for (int d = 0; d < DIM; d++) {
        v[d] += (float) (perComponent * r.nextGaussian());
      }
      normalise(v);
    }

    private static void normalise(float[] v) {
      double s = 0;
      for (float x : v) {
        s += x * x;
      }
      float inv = (float) (1 / Math.sqrt(s));
      for (int d = 0; d < v.length; d++) {
        v[d] *= inv;
      }
    }

    private static long mix(long a, long b) {
      long z = a * 0x9E3779B97F4A7C15L + b;
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
