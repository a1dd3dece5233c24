package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Vectors;
import io.memloop.store.Annotations;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;

/**
 * A similarity a namespace learns from its rewards, for tasks it has never seen: the cosine after whitening the few
 * directions in which the intents of a successful pair differ most. A pair is a rewarded retrieval's query and the
 * memory it credited (the memory the agent named, else the first success shown); when the episode succeeded the two
 * asked for the same answer, so what their intents differ in is wording that does not tell one kind of task from
 * another (a template's filler, a paraphrase), and that is what the learned similarity discounts.
 *
 * <p>The rule is relevant component analysis kept to {@code r} directions. With {@code x_i} the unit differences of the
 * successful pairs and {@code C = mean(x_i x_iᵀ)}, the whitening is {@code (C + γI)^{-1/2}}, {@code γ} = {@value #SHRINK}
 * × C's mean variance ({@code 1/d} for unit differences); kept to C's top {@code r} eigenpairs {@code (λ_e, u_e)} and
 * scaled so that other directions are left as they are, it is {@code T x = x + Σ_e c_e u_e (u_eᵀ x)} with
 * {@code c_e = sqrt(γ / (λ_e + γ)) − 1} in (−1, 0]. The learned similarity of a query and a memory is the cosine of
 * their transforms. Measured in {@code StreamReachProbe} (BENCHMARKS.md, "A similarity learned from the stream's
 * rewards"): with eight directions, +0.02 to +0.03 first-encounter success on average over four environments with
 * either model, no environment below the cosine.
 *
 * <p>The directions are in decreasing order of variance. The eigenpairs come from subspace iteration ({@value #ITERATIONS} rounds, warm-started from the previous fit) on
 * {@code C v = mean(x_i (x_iᵀ v))}, so C is never formed: a fit costs {@code O(iterations · n · d · r)}, a transform
 * {@code O(d · r)}.
 *
 * <p>Kept in the ledger: {@value #PAIRS_KEY} = [successful pairs seen, pairs at the last fit], {@code x:<slot>} = the
 * unit difference of the pair numbered {@code slot} modulo {@value #RING} (the latest {@value #RING}), and
 * {@value #FIT_KEY} = [pairs at the fit, r, d, c_1 … c_r] with {@code X:<e>} = u_e ({@link #encode}). What the reward needs is kept
 * with the retrieval as annotation {@value #ANNOTATION} (version {@value #VERSION}): the query, d big-endian float32.
 *
 * <p>Ties: none decided here. Randomness: the first fit's starting subspace, from a fixed seed. Thread-safe; its only
 * state is a bounded cache of transforms ({@link #transformKept}), which changes nothing but the cost.
 */
public final class Directions {
  /** The shrinkage γ as a multiple of the differences' mean variance per dimension. */
  public static final double SHRINK = 4;
  /** The most directions a namespace may learn (the bound of {@code similarityDirections}). */
  public static final int MAX = 64;
  /** Successful pairs kept for fitting: the latest. */
  public static final int RING = 512;
  /** Successful pairs between fits (and before the first). */
  public static final int REFIT_EVERY = 32;
  /** Rounds of subspace iteration per fit. */
  static final int ITERATIONS = 20;
  /** The seed of the first fit's starting subspace. */
  static final long SEED = 0x5EEDL;

  /** The ledger entry [successful pairs seen, pairs at the last fit]. */
  public static final String PAIRS_KEY = "x";
  /** The ledger entry of the fit. */
  public static final String FIT_KEY = "X";
  /** The retrieval annotation holding the query. */
  public static final String ANNOTATION = "query";
  /** The annotation's data layout version. */
  public static final int VERSION = 1;

  private Directions() {}

  /** The ledger key of ring slot {@code slot}. */
  public static String slotKey(long pair) {
    return PAIRS_KEY + ":" + Math.floorMod(pair, RING);
  }

  /**
   * Whether a namespace under {@code config} learns a similarity: {@link MemLoopConfig#similarityDirections} above 0, per-task
   * learning on (it keeps the ledger), and vectors of one block ({@code blocks}; the block weights rank otherwise).
   */
  public static boolean on(MemLoopConfig config, int blocks) {
    return config.similarityDirections() > 0 && config.taskLearning() == MemLoopConfig.TaskLearning.ON && blocks <= 1;
  }

  /** {@code annotations} with the query kept for the reward ({@value #ANNOTATION}). */
  public static Annotations withQuery(Annotations annotations, float[] query) {
    ByteBuffer buf = ByteBuffer.allocate(query.length * Float.BYTES);
    for (float f : query) {
      buf.putFloat(f);
    }
    return annotations.with(ANNOTATION, VERSION, buf.array());
  }

  /**
   * The query a rewarded retrieval kept ({@link #withQuery}); null when it kept none.
   *
   * @throws IllegalArgumentException if the annotation is of another version or malformed
   */
  public static float @Nullable [] query(Annotations annotations) {
    var entry = annotations.get(ANNOTATION);
    if (entry.isEmpty()) {
      return null;
    }
    if (entry.get().version() != VERSION || entry.get().data().length % Float.BYTES != 0) {
      throw new IllegalArgumentException("annotation '" + ANNOTATION + "' has version " + entry.get().version()
          + " and " + entry.get().data().length + " bytes (this build reads version " + VERSION + ", whole floats)");
    }
    ByteBuffer buf = ByteBuffer.wrap(entry.get().data());
    float[] q = new float[entry.get().data().length / Float.BYTES];
    for (int i = 0; i < q.length; i++) {
      q[i] = buf.getFloat();
    }
    return q;
  }

  /** The ledger key of the fit's direction {@code e}. */
  public static String directionKey(int e) {
    return FIT_KEY + ":" + e;
  }

  /**
   * {@code fit} as ledger entries: {@value #FIT_KEY} = [pairs at the fit, r, d, c_1 … c_r] and {@link #directionKey}
   * {@code (e)} = u_e, so that no value holds more numbers than a vector ({@link
   * io.memloop.store.MemoryStore#MAX_LEDGER_VALUE}).
   */
  public static java.util.Map<String, double[]> encode(Fit fit) {
    int r = fit.coefficients().length;
    int d = r == 0 ? 0 : fit.directions()[0].length;
    java.util.Map<String, double[]> out = new java.util.LinkedHashMap<>();
    double[] head = new double[3 + r];
    head[0] = fit.pairs();
    head[1] = r;
    head[2] = d;
    System.arraycopy(fit.coefficients(), 0, head, 3, r);
    out.put(FIT_KEY, head);
    for (int e = 0; e < r; e++) {
      out.put(directionKey(e), fit.directions()[e].clone());
    }
    return out;
  }

  /** The keys of a fit's entries, given its head ({@value #FIT_KEY}); empty for a head that is not one. */
  public static List<String> directionKeys(double @Nullable [] head) {
    if (head == null || head.length < 3 || head[1] < 1 || head[1] > MAX || head.length != 3 + (int) head[1]) {
      return List.of();
    }
    List<String> keys = new java.util.ArrayList<>();
    for (int e = 0; e < (int) head[1]; e++) {
      keys.add(directionKey(e));
    }
    return keys;
  }

  /**
   * The fit of ledger entries {@code entries} ({@link #encode}) for vectors of dimension {@code d}; null when absent, or
   * not of that shape.
   */
  public static @Nullable Fit decode(java.util.Map<String, double[]> entries, int d) {
    double[] head = entries.get(FIT_KEY);
    List<String> keys = directionKeys(head);
    if (keys.isEmpty() || head[2] != d) {
      return null;
    }
    int r = keys.size();
    double[] c = new double[r];
    System.arraycopy(head, 3, c, 0, r);
    double[][] u = new double[r][];
    for (int e = 0; e < r; e++) {
      double[] v = entries.get(keys.get(e));
      if (v == null || v.length != d) {
        return null;
      }
      u[e] = v.clone();
    }
    return new Fit(u, c, (long) head[0]);
  }

  /**
   * A fitted transform: orthonormal directions {@code u_e} (each of the vectors' dimension) and their coefficients
   * {@code c_e} in (−1, 0].
   *
   * @param pairs how many successful pairs the fit saw
   */
  public record Fit(double[][] directions, double[] coefficients, long pairs) {
    /**
     * The share of the differences' variance the directions hold: {@code Σ λ_e / trace(C)}, read back from the
     * coefficients ({@code λ_e = γ (1 / (1 + c_e)² − 1)}, with {@code γ = SHRINK · trace / d} and unit differences,
     * whose trace is 1). In [0, 1]; 0 with no direction.
     */
    public double varianceShare() {
      if (directions.length == 0) {
        return 0;
      }
      double gamma = SHRINK / directions[0].length;
      double share = 0;
      for (double c : coefficients) {
        double scale = 1 + c;
        share += scale > 0 ? gamma * (1 / (scale * scale) - 1) : 0;
      }
      return Math.min(1, Math.max(0, share));
    }

    /** {@code T v}, scaled to unit length (zero stays zero). */
    public double[] transform(float[] v) {
      double[] out = new double[v.length];
      for (int i = 0; i < v.length; i++) {
        out[i] = v[i];
      }
      for (int e = 0; e < directions.length; e++) {
        double[] u = directions[e];
        double proj = 0;
        for (int i = 0; i < v.length; i++) {
          proj += u[i] * v[i];
        }
        double step = coefficients[e] * proj;
        for (int i = 0; i < v.length; i++) {
          out[i] += step * u[i];
        }
      }
      double norm = 0;
      for (double x : out) {
        norm += x * x;
      }
      if (norm > 0) {
        double inv = 1 / Math.sqrt(norm);
        for (int i = 0; i < out.length; i++) {
          out[i] *= inv;
        }
      }
      return out;
    }
  }

  /** Most transforms {@link #transformKept} keeps; past it, it starts again from none. */
  static final int TRANSFORMS_KEPT = 4096;

  /** A vector under a fit: the fit by identity (a refit is another fit), the vector by content. */
  private record Transformed(Fit fit, float[] vector) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Transformed t && t.fit == fit && Arrays.equals(t.vector, vector);
    }

    @Override
    public int hashCode() {
      return 31 * System.identityHashCode(fit) + Arrays.hashCode(vector);
    }

    /** This key with a copy of its vector, to keep. */
    Transformed copy() {
      return new Transformed(fit, vector.clone());
    }
  }

  /** (fit, vector) → {@code fit.transform(vector)}, bounded by {@link #TRANSFORMS_KEPT}. */
  private static final Kept<Transformed, double[]> TRANSFORMS = new Kept<>(TRANSFORMS_KEPT);

  /** How many transforms {@link #transformKept} keeps now. */
  static int transformsKept() {
    return TRANSFORMS.size();
  }

  /**
   * {@code fit.transform(v)}, kept for the next retrievals: a namespace keeps one fit for {@value #REFIT_EVERY}
   * successful pairs or more, and the same memories come back in pool after pool, so transforming their intents was
   * most of ranking by the learned similarity. The transform depends on the fit and the vector alone, so keeping it
   * changes nothing but the cost; the key holds a copy of the vector, and comparing it costs {@code O(d)} against the
   * transform's {@code O(d · r)}. At most {@link #TRANSFORMS_KEPT} are kept (about 18 MiB at 384 dimensions); when full,
   * the map is emptied and fills again with the vectors in use. The returned array is shared: read it only.
   */
  static double[] transformKept(Fit fit, float[] v) {
    return TRANSFORMS.get(new Transformed(fit, v), Transformed::copy, t -> t.fit().transform(t.vector()));
  }

  /** The cosine of two transformed vectors ({@link Fit#transform}): unit length, so their dot product. */
  public static double cosine(double[] a, double[] b) {
    return dot(a, b);
  }

  /**
   * The unit difference {@code (q − m) / |q − m|} of a successful pair; null when the two are the same vector (the same
   * intent asked again: nothing to learn) or either holds a non-finite number.
   */
  public static float @Nullable [] difference(float[] q, float[] m) {
    if (q.length != m.length) {
      throw new IllegalArgumentException("vectors of " + q.length + " and " + m.length + " dimensions");
    }
    float[] x = new float[q.length];
    double norm = 0;
    for (int i = 0; i < q.length; i++) {
      x[i] = q[i] - m[i];
      norm += x[i] * (double) x[i];
    }
    if (!(norm > 1e-12) || !Double.isFinite(norm)) {
      return null;
    }
    return Vectors.normalized(x, "difference");
  }

  /**
   * Fits {@code r} directions to the unit differences {@code diffs} (each of dimension d; at least one), warm-started
   * from {@code previous}'s directions when they have the same shape.
   */
  public static Fit fit(List<float[]> diffs, int r, @Nullable Fit previous, long pairs) {
    if (diffs.isEmpty()) {
      throw new IllegalArgumentException("no differences to fit");
    }
    int d = diffs.getFirst().length;
    int k = Math.min(r, d);
    double[][] q = start(d, k, previous);
    orthonormalise(q);
    for (int it = 0; it < ITERATIONS; it++) {
      q = times(diffs, q);
      orthonormalise(q);
    }
    // Rayleigh-Ritz: the eigenpairs of B = Qᵀ C Q within the subspace
    double[][] cq = times(diffs, q);
    double[][] b = new double[k][k];
    for (int e = 0; e < k; e++) {
      for (int f = 0; f < k; f++) {
        b[e][f] = dot(q[e], cq[f]);
      }
    }
    double[][] v = jacobi(b);
    double trace = 0; // C's trace: the mean squared norm of the differences
    for (float[] x : diffs) {
      double s = 0;
      for (float xi : x) {
        s += xi * (double) xi;
      }
      trace += s;
    }
    trace /= diffs.size();
    double gamma = SHRINK * trace / d;
    Integer[] byVariance = new Integer[k]; // the directions in decreasing order of variance
    for (int e = 0; e < k; e++) {
      byVariance[e] = e;
    }
    Arrays.sort(byVariance, (x, y) -> Double.compare(b[y][y], b[x][x]));
    double[][] directions = new double[k][d];
    double[] coefficients = new double[k];
    for (int e = 0; e < k; e++) {
      int col = byVariance[e];
      for (int f = 0; f < k; f++) {
        double w = v[f][col];
        for (int i = 0; i < d; i++) {
          directions[e][i] += w * q[f][i];
        }
      }
      double lambda = Math.max(0, b[col][col]);
      coefficients[e] = gamma > 0 ? Math.sqrt(gamma / (lambda + gamma)) - 1 : 0;
    }
    orthonormalise(directions);
    return new Fit(directions, coefficients, pairs);
  }

  /** The starting subspace: {@code previous}'s directions, else random ones from {@link #SEED}. */
  private static double[][] start(int d, int k, @Nullable Fit previous) {
    double[][] q = new double[k][];
    if (previous != null && previous.directions().length == k && previous.directions()[0].length == d) {
      for (int e = 0; e < k; e++) {
        q[e] = previous.directions()[e].clone();
      }
      return q;
    }
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int e = 0; e < k; e++) {
      q[e] = new double[d];
      for (int i = 0; i < d; i++) {
        q[e][i] = rnd.nextGaussian();
      }
    }
    return q;
  }

  /** {@code C v} for each row {@code v} of {@code q}, with {@code C = mean(x xᵀ)} over {@code diffs}. */
  private static double[][] times(List<float[]> diffs, double[][] q) {
    int k = q.length;
    int d = q[0].length;
    double[][] out = new double[k][d];
    double[] proj = new double[k];
    for (float[] x : diffs) {
      int e = 0;
      for (; e + 4 <= k; e += 4) { // four projections at once: independent sums, each in the order of i
        double[] v0 = q[e];
        double[] v1 = q[e + 1];
        double[] v2 = q[e + 2];
        double[] v3 = q[e + 3];
        double s0 = 0;
        double s1 = 0;
        double s2 = 0;
        double s3 = 0;
        for (int i = 0; i < d; i++) {
          double xi = x[i];
          s0 += xi * v0[i];
          s1 += xi * v1[i];
          s2 += xi * v2[i];
          s3 += xi * v3[i];
        }
        proj[e] = s0;
        proj[e + 1] = s1;
        proj[e + 2] = s2;
        proj[e + 3] = s3;
      }
      for (; e < k; e++) {
        double s = 0;
        double[] v = q[e];
        for (int i = 0; i < d; i++) {
          s += x[i] * v[i];
        }
        proj[e] = s;
      }
      for (e = 0; e < k; e++) {
        double p = proj[e];
        double[] o = out[e];
        for (int i = 0; i < d; i++) {
          o[i] += p * x[i];
        }
      }
    }
    double inv = 1.0 / diffs.size();
    for (double[] o : out) {
      for (int i = 0; i < d; i++) {
        o[i] *= inv;
      }
    }
    return out;
  }

  private static double dot(double[] a, double[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  /**
   * Gram-Schmidt on the rows, in place (twice, for orthogonality to rounding); a row that vanishes becomes a unit
   * vector along the first axis the others leave free enough.
   */
  static void orthonormalise(double[][] rows) {
    for (int k = 0; k < rows.length; k++) {
      for (int pass = 0; pass < 2; pass++) {
        for (int l = 0; l < k; l++) {
          double x = dot(rows[k], rows[l]);
          for (int i = 0; i < rows[k].length; i++) {
            rows[k][i] -= x * rows[l][i];
          }
        }
      }
      double n = Math.sqrt(dot(rows[k], rows[k]));
      if (n < 1e-12) { // degenerate: take the axis least covered by the earlier rows
        int axis = freeAxis(rows, k);
        Arrays.fill(rows[k], 0);
        rows[k][axis] = 1;
        for (int l = 0; l < k; l++) {
          double x = rows[l][axis];
          for (int i = 0; i < rows[k].length; i++) {
            rows[k][i] -= x * rows[l][i];
          }
        }
        n = Math.sqrt(dot(rows[k], rows[k]));
      }
      for (int i = 0; i < rows[k].length; i++) {
        rows[k][i] /= n;
      }
    }
  }

  private static int freeAxis(double[][] rows, int k) {
    int best = 0;
    double least = Double.POSITIVE_INFINITY;
    for (int i = 0; i < rows[k].length; i++) {
      double covered = 0;
      for (int l = 0; l < k; l++) {
        covered += rows[l][i] * rows[l][i];
      }
      if (covered < least) {
        least = covered;
        best = i;
      }
    }
    return best;
  }

  /**
   * The eigenvectors of the symmetric matrix {@code b} by cyclic Jacobi rotations, as the columns of the result;
   * {@code b} is left diagonal, its diagonal the eigenvalues.
   */
  static double[][] jacobi(double[][] b) {
    int k = b.length;
    double[][] v = new double[k][k];
    for (int e = 0; e < k; e++) {
      v[e][e] = 1;
    }
    for (int sweep = 0; sweep < 64; sweep++) {
      double off = 0;
      for (int p = 0; p < k; p++) {
        for (int q = p + 1; q < k; q++) {
          off += b[p][q] * b[p][q];
        }
      }
      if (off < 1e-30) {
        break;
      }
      for (int p = 0; p < k; p++) {
        for (int q = p + 1; q < k; q++) {
          if (Math.abs(b[p][q]) < 1e-300) {
            continue;
          }
          double theta = (b[q][q] - b[p][p]) / (2 * b[p][q]);
          double t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
          double c = 1 / Math.sqrt(t * t + 1);
          double s = t * c;
          for (int i = 0; i < k; i++) {
            double bip = b[i][p];
            double biq = b[i][q];
            b[i][p] = c * bip - s * biq;
            b[i][q] = s * bip + c * biq;
          }
          for (int i = 0; i < k; i++) {
            double bpi = b[p][i];
            double bqi = b[q][i];
            b[p][i] = c * bpi - s * bqi;
            b[q][i] = s * bpi + c * bqi;
          }
          for (int i = 0; i < k; i++) {
            double vip = v[i][p];
            double viq = v[i][q];
            v[i][p] = c * vip - s * viq;
            v[i][q] = s * vip + c * viq;
          }
        }
      }
    }
    return v;
  }
}
