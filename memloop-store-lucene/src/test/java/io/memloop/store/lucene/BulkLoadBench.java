package io.memloop.store.lucene;

import io.memloop.Candidate;
import io.memloop.ClusteredVectors;
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
 * The vectors are those of the JMH benchmarks' {@link ClusteredVectors} (seed 42, {@code n / 50} centres
 * on the sphere, members at noise 0.5, queries at noise 0.3). With {@code BATCH} 0 the bench loads
 * nothing and measures an existing store in {@code DIR} (e.g. a copy of a JMH-built one) instead.
 */
public final class BulkLoadBench {
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
    ClusteredVectors data = new ClusteredVectors(42, n);
    long start = System.nanoTime();
    try (LuceneStore store = LuceneStore.open(dir, ClusteredVectors.DIMENSION, options)) {
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
      try (LuceneStore store = LuceneStore.open(dir, ClusteredVectors.DIMENSION, o)) {
        timeSaves("saveRetrieval, retrievalSyncDelayMillis=" + delayMillis, store, queries);
      }
    }
  }

  private static void report(String what, int done, long start, LuceneStore store) {
    double s = (System.nanoTime() - start) / 1e9;
    System.out.printf("%s: %d memories in %.1f s = %.0f memories/s, %d segments%n", what, done, s, done / s,
        store.segmentCountForTesting());
  }

  private static void timeRecall(String what, LuceneStore store, ClusteredVectors data, int queries, float[][] members) {
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
}
