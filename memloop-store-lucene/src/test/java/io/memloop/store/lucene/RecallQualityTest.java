package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.IntentMatch;
import io.memloop.store.NewMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Phase A through Lucene's HNSW graphs against exact brute force, on clustered data (the hard case
 * for graph search: many near-duplicates per cluster, few links between clusters), with two
 * namespaces sharing the graphs so every search is filtered; in every {@link VectorFormat} (the quantized ones
 * rescore their candidates exactly, so the similarities are exact too).
 */
class RecallQualityTest {
  static final int DIM = 64;
  static final int POINTS = 2000;
  static final int CENTRES = 50;
  static final int QUERIES = 200;
  static final int K = 5;

  @TempDir Path dir;

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(VectorFormat.class)
  void recallAtK_onClusteredData_isAtLeast95PercentOfExact(VectorFormat format) {
    SplittableRandom rnd = new SplittableRandom(42);
    float[][] centres = new float[CENTRES][];
    for (int c = 0; c < CENTRES; c++) {
      centres[c] = StoreFixtures.randomUnit(rnd, DIM);
    }
    float[][] points = new float[POINTS][];
    for (int i = 0; i < POINTS; i++) {
      points[i] = near(centres[rnd.nextInt(CENTRES)], 0.04, rnd);
    }
    // several segments with real graphs (each well over Lucene's 100-vector brute-force threshold)
    LuceneStoreOptions options = LuceneStoreOptions.builder().refreshEveryInserts(400).vectorFormat(format).build();
    try (LuceneStore store = LuceneStore.open(dir, DIM, options)) {
      Map<String, Integer> pointOfIntent = new ConcurrentHashMap<>();
      // four writers share each fsync (group commit); a threshold above 1 never merges: one group per point
      StoreFixtures.inParallel(4, w -> {
        for (int i = w; i < POINTS; i += 4) {
          Memory m = store.insert(new NewMemory(namespace(i), "", points[i], "p" + i, Outcome.SUCCESS, 0,
              StoreFixtures.T0), 2.0);
          pointOfIntent.put(m.intentId(), i);
        }
      });
      store.refreshForTesting(); // nothing left in the exact in-memory tail

      double found = 0;
      for (int q = 0; q < QUERIES; q++) {
        float[] query = near(centres[q % CENTRES], 0.04, rnd);
        int ns = q % 2; // each namespace holds half the points: Lucene searches with a filter
        Set<Integer> exact = exactTopK(points, ns, query, K);
        List<IntentMatch> hits = store.recall(namespace(ns), query, K, -1.0);
        assertThat(hits).hasSize(K);
        Set<Integer> approx = new HashSet<>();
        hits.forEach(h -> approx.add(pointOfIntent.get(h.intentId())));
        approx.retainAll(exact);
        found += approx.size();
      }
      double recall = found / (QUERIES * K);
      assertThat(recall).as("recall@%d over %d queries, %s", K, QUERIES, format).isGreaterThanOrEqualTo(0.95);
    }
  }

  private static float[] near(float[] centre, double noise, SplittableRandom rnd) {
    float[] v = centre.clone();
    for (int i = 0; i < v.length; i++) {
      v[i] += (float) (noise * rnd.nextGaussian());
    }
    return Vectors.normalized(v, "point");
  }

  private static String namespace(int point) {
    return point % 2 == 0 ? "even" : "odd";
  }

  private static Set<Integer> exactTopK(float[][] points, int ns, float[] query, int k) {
    List<Integer> order =
        new ArrayList<>(IntStream.range(0, points.length).filter(i -> i % 2 == ns).boxed().toList());
    order.sort(Comparator.comparingDouble((Integer i) -> -Vectors.dot(points[i], query)).thenComparing(i -> i));
    return new HashSet<>(order.subList(0, k));
  }
}
