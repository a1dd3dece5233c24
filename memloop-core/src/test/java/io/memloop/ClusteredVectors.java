package io.memloop;

import java.util.SplittableRandom;

/**
 * Seeded, clustered unit vectors standing in for intent embeddings. Random vectors on a 384-d sphere
 * are all nearly orthogonal (cosine ≈ 0 ± 0.05), so every ANN index "finds" their neighbours and a
 * recall figure on them means nothing; real intents come in topics. Here memory {@code i} belongs to
 * cluster {@code i mod clusters} ({@code clusters = max(1, n / 50)}, interleaved so inserts visit the
 * clusters round-robin as a live agent would) and is its centre plus gaussian noise of norm ≈
 * {@link #MEMBER_NOISE}, renormalised: two members of a cluster then have cosine ≈ 1 / (1 + 0.5²) =
 * 0.8, a member and its centre ≈ 0.89.
 *
 * <p>Every vector is a pure function of (seed, index): nothing is held in memory, so a 1M store can be
 * rebuilt, and its queries regenerated, in any process. Queries are members perturbed by noise of norm
 * ≈ {@link #QUERY_NOISE} (cosine ≈ 0.96 to the member they came from), drawn from a second stream.
 *
 * <p>Shared (in this module's test-jar) by the JMH benchmarks and the store's bulk-load bench, so
 * their stores and queries are the same vectors.
 *
 * <p>Thread safety: immutable; safe for concurrent use.
 */
public final class ClusteredVectors {
  public static final int DIMENSION = 384;
  public static final int MEMBERS_PER_CLUSTER = 50;
  public static final double MEMBER_NOISE = 0.5;
  public static final double QUERY_NOISE = 0.3;

  private final long seed;
  private final int size;
  private final int clusters;

  public ClusteredVectors(long seed, int size) {
    if (size < 1) {
      throw new IllegalArgumentException("size must be positive, got " + size);
    }
    this.seed = seed;
    this.size = size;
    this.clusters = Math.max(1, size / MEMBERS_PER_CLUSTER);
  }

  public int size() {
    return size;
  }

  /** Intent embedding of memory {@code index} (0 ≤ index < size). */
  public float[] member(int index) {
    assert index >= 0 && index < size : "index=" + index + " size=" + size;
    float[] v = centre(index % clusters);
    addNoise(v, new SplittableRandom(mix(seed, 2L * index + 1)), MEMBER_NOISE);
    return v;
  }

  /** Query {@code q}: a perturbed copy of a member chosen by the query stream. */
  public float[] query(int q) {
    SplittableRandom r = new SplittableRandom(mix(~seed, q));
    float[] v = member(r.nextInt(size));
    addNoise(v, r, QUERY_NOISE);
    return v;
  }

  private float[] centre(int cluster) {
    SplittableRandom r = new SplittableRandom(mix(seed, -2L * cluster - 2));
    float[] v = new float[DIMENSION];
    for (int d = 0; d < DIMENSION; d++) {
      v[d] = (float) r.nextGaussian();
    }
    normalise(v);
    return v;
  }

  /** Adds isotropic noise of expected norm {@code norm} to unit vector {@code v}, then renormalises. */
  private static void addNoise(float[] v, SplittableRandom r, double norm) {
    double perComponent = norm / Math.sqrt(DIMENSION);
    for (int d = 0; d < DIMENSION; d++) {
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

  /** SplitMix64 finaliser: decorrelates the per-index streams of neighbouring indices. */
  private static long mix(long a, long b) {
    long z = a * 0x9E3779B97F4A7C15L + b;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
