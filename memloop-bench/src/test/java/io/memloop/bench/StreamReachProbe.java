package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.MiniLmEmbedder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * Not a test: a plain-RAG stream loop (every instance remembered, the top k by a ranking shown, the frozen policy
 * attempts) with the ranking swapped, to see how far a ranking or a shown-set change can move first-encounter
 * success before building it into the engine. Per environment and variant it prints the mean success, how often a
 * memory that truly helps is shown (reach) against how often one exists above the gate, and the success when the
 * first shown success experience helps, when a helper is shown but not as the first success, and when none is.
 *
 * <p>Variants ({@code -Dvariants=a,b}): {@code raw} (cosine, newest first: {@code rag}); {@code centered} and
 * {@code standardised} (cosine after subtracting the mean of the intents seen so far, and dividing by their
 * per-dimension spread); {@code demote} (a success experience goes last when the query is at least as near a failed
 * episode that used it as to the memory itself); {@code cluster} and {@code cluster-dedup} (success experiences
 * chained by use into answer clusters, scored by their nearest member, demoted as above, one per cluster);
 * {@code cluster-centroid} (the same clusters scored by the cosine to their members' mean intent); {@code
 * failN-first} / {@code failN-last} (the failure notes among the N most similar shown as one note before or after the
 * top k); {@code kindfail-first} / {@code kindfail-last} (ground truth, a bound: every failure note of the instance's
 * own kind, as one note before or after the top k). Similarities learned from the stream's rewards, from each episode's
 * query and the memory it used (the first success shown): {@code fisherB} (a cosine weighted per dimension by how much
 * more failed pairs differ there than successful ones, to the power B/10), {@code rcaG} (relevant component analysis:
 * the cosine after whitening by the covariance of successful pairs' differences, shrunk by G/10 of its mean variance),
 * {@code kissG} (the KISS metric: the likelihood ratio of successful against failed pairs' differences), {@code rcagG}
 * ({@code rcaG} once its ranking of the used memory predicts the reward two standard errors better than the cosine's)
 * {@code rcatG} ({@code rcaG} or the cosine per episode by probability matching on each one's success rate) and
 * {@code rcamG} (the sum of the two cosines). {@code -DrcaTrial=u} scales each pair's difference to unit length,
 * {@code -DrcaTrial=n} keeps only the nearer half of the successful pairs, and {@code -Drank=R} whitens only the R
 * directions of most variance (subspace iteration), leaving the others as they are; with it, {@code -Damp=A} also
 * stretches the A directions in which failed pairs' differences vary most after that discount, each by the inverse of
 * the same shrinkage (its shrinkage multiple {@code -DampShrink}, default 4), at most {@code -DampCap} times (default
 * 3). {@code -Dnotes=failN-first|failN-last} adds a {@code failN} step to any variant's ranking.
 * {@code -Dpool=N} recalls the N nearest by cosine before ranking, as the engine's Phase A does (default: every memory
 * above the gate).
 *
 * <pre>
 * ./mvnw -q -o -pl memloop-bench -am test-compile
 * ./mvnw -q -o -pl memloop-bench dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt -Dmdep.includeScope=test
 * java -Dvariants=raw,fail10-last -Dk=3,5 -Dseeds=3001,3002 \
 *     -cp "$(cat /tmp/cp.txt):memloop-bench/target/classes:memloop-bench/target/test-classes" \
 *     io.memloop.bench.StreamReachProbe hashing|minilm [length=1000]
 * </pre>
 */
final class StreamReachProbe {
  private StreamReachProbe() {}

  interface Sim {
    void observe(float[] z);

    double[] score(float[] q, List<float[]> mem);
  }

  static final class Raw implements Sim {
    public void observe(float[] z) {}

    public double[] score(float[] q, List<float[]> mem) {
      double[] s = new double[mem.size()];
      for (int i = 0; i < s.length; i++) {
        s[i] = dot(q, mem.get(i));
      }
      return s;
    }
  }

  /**
   * {@code fisherB}: a cosine weighted per dimension by how much more the intents of failed (query, used memory) pairs
   * differ there than those of successful pairs, to the power B/10: {@code w_d = ((F_d + e) / (S_d + e))^β}, each the
   * mean squared difference in that dimension, normalised to mean 1.
   */
  static final class Fisher implements Sim {
    final double beta;
    double[] fail;
    double[] succ;
    int nFail;
    int nSucc;

    Fisher(double beta) {
      this.beta = beta;
    }

    public void observe(float[] z) {}

    void learn(float[] q, float[] m, boolean success) {
      if (fail == null) {
        fail = new double[q.length];
        succ = new double[q.length];
      }
      double[] into = success ? succ : fail;
      for (int d = 0; d < q.length; d++) {
        double x = q[d] - m[d];
        into[d] += x * x;
      }
      if (success) {
        nSucc++;
      } else {
        nFail++;
      }
    }

    double[] weights(int dim) {
      double[] w = new double[dim];
      if (nFail < 5 || nSucc < 5) {
        Arrays.fill(w, 1);
        return w;
      }
      double e = 0;
      for (int d = 0; d < dim; d++) {
        e += (fail[d] / nFail + succ[d] / nSucc) / 2;
      }
      e /= dim; // a typical dimension's mean squared difference
      double mean = 0;
      for (int d = 0; d < dim; d++) {
        w[d] = Math.pow((fail[d] / nFail + e) / (succ[d] / nSucc + e), beta);
        mean += w[d];
      }
      mean /= dim;
      for (int d = 0; d < dim; d++) {
        w[d] /= mean;
      }
      return w;
    }

    public double[] score(float[] q, List<float[]> mem) {
      double[] w = weights(q.length);
      double qq = 0;
      for (int d = 0; d < q.length; d++) {
        qq += w[d] * q[d] * q[d];
      }
      double[] s = new double[mem.size()];
      for (int i = 0; i < s.length; i++) {
        float[] m = mem.get(i);
        double qm = 0;
        double mm = 0;
        for (int d = 0; d < q.length; d++) {
          qm += w[d] * q[d] * m[d];
          mm += w[d] * m[d] * m[d];
        }
        s[i] = qm / Math.sqrt(qq * mm + 1e-12);
      }
      return s;
    }
  }

  /**
   * {@code rcaG}: relevant component analysis, the cosine after whitening by the covariance of the differences between
   * the query and the memory it used in successful episodes (what varies within a kind), shrunk towards the identity
   * by G/10 of its mean variance; refitted every 50 successes, vectors transformed once per fit.
   */
  static final class Rca implements Sim {
    final double shrink;
    final boolean kiss;
    final List<double[]> diffs = new ArrayList<>();
    final List<double[]> failDiffs = new ArrayList<>();
    double[][] linv; // L^-1 of the Cholesky factor of (S + g I), or null before the first fit
    double[][] flinv; // the same of the failed pairs' (kiss)
    final Map<float[], double[]> cache = new java.util.IdentityHashMap<>();
    final Map<float[], double[]> fcache = new java.util.IdentityHashMap<>();
    int fitted;

    Rca(double shrink, boolean kiss) {
      this.shrink = shrink;
      this.kiss = kiss;
    }

    /** A trial of which pairs count: 'u' unit differences, 'n' the nearer half of the successes, else every one as it is. */
    char trial = System.getProperty("rcaTrial", "-").charAt(0);
    final List<Double> nearNorms = new ArrayList<>();

    /** The guard ({@code rcag}): RCA only once its z-scored rank of the credited memory predicts the reward better. */
    boolean guarded;
    double gSum;
    double gSq;
    double uSum;
    int uN;

    /** Probability matching between cosine and RCA ({@code rcat}): [episodes, successes] of each arm since the first fit. */
    boolean matching;
    final double[] arms = new double[4];
    boolean current;
    java.util.SplittableRandom coin = new java.util.SplittableRandom(17);

    void draw() {
      if (!matching) {
        return;
      }
      if (linv == null) {
        current = false;
        return;
      }
      double mr = (arms[1] + 1) / (arms[0] + 2);
      double mc = (arms[3] + 1) / (arms[2] + 2);
      double var = mr * (1 - mr) / (arms[0] + 3) + mc * (1 - mc) / (arms[2] + 3);
      double p = io.memloop.bench.StreamReachProbe.phi((mr - mc) / Math.sqrt(var));
      current = coin.nextDouble() < p;
    }

    void outcome(boolean success) {
      if (matching && linv != null) {
        int a = current ? 0 : 2;
        arms[a]++;
        arms[a + 1] += success ? 1 : 0;
      }
    }

    boolean on() {
      if (matching) {
        return current;
      }
      return !guarded || gSum > 2 * Math.sqrt(1e-9 + gSq);
    }

    /** Updates the guard with the credited memory {@code used} of a pool scored {@code raw} and by this metric. */
    void judge(List<Integer> pool, double[] raw, float[] q, List<float[]> vecs, int used, boolean success) {
      if (linv == null || pool.size() < 2 || !pool.contains(used)) {
        return;
      }
      List<float[]> mem = new ArrayList<>();
      for (int j : pool) {
        mem.add(vecs.get(j));
      }
      double[] r = score(q, mem);
      double[] c = new double[pool.size()];
      for (int i = 0; i < c.length; i++) {
        c[i] = raw[pool.get(i)];
      }
      int at = pool.indexOf(used);
      double z = z(r, at) - z(c, at);
      double u = success ? 1 : 0;
      double mean = uN == 0 ? 0.5 : uSum / uN;
      double g = (u - mean) * z;
      gSum += g;
      gSq += g * g;
      uSum += u;
      uN++;
    }

    static double z(double[] v, int at) {
      double m = 0;
      for (double x : v) {
        m += x;
      }
      m /= v.length;
      double var = 0;
      for (double x : v) {
        var += (x - m) * (x - m);
      }
      double sd = Math.sqrt(var / v.length);
      return sd == 0 ? 0 : Math.max(-3, Math.min(3, (v[at] - m) / sd));
    }

    public void observe(float[] z) {}

    void learn(float[] q, float[] m, boolean success) {
      double[] x = new double[q.length];
      double norm = 0;
      for (int d = 0; d < q.length; d++) {
        x[d] = q[d] - m[d];
        norm += x[d] * x[d];
      }
      if (trial == 'u' && norm > 0) { // unit differences: every pair weighs alike
        for (int d = 0; d < q.length; d++) {
          x[d] /= Math.sqrt(norm);
        }
      }
      if (trial == 'n' && success) { // near pairs only: a success from far away is not the same kind
        nearNorms.add(norm);
        List<Double> sorted = new ArrayList<>(nearNorms.subList(Math.max(0, nearNorms.size() - 200), nearNorms.size()));
        sorted.sort(null);
        if (norm > sorted.get(sorted.size() / 2)) {
          return;
        }
      }
      (success ? diffs : failDiffs).add(x);
      if (diffs.size() >= 20 && (!kiss || failDiffs.size() >= 20) && diffs.size() + failDiffs.size() - fitted >= 50) {
        linv = fit(diffs, q.length);
        cache.clear();
        if (kiss) {
          flinv = fit(failDiffs, q.length);
          fcache.clear();
        }
        fitted = diffs.size() + failDiffs.size();
      }
    }

    /** The mean of {@code x xᵀ} over {@code xs} (d × d, symmetric). */
    static double[][] secondMoments(List<double[]> xs, int dim) {
      double[][] a = new double[dim][dim];
      for (double[] x : xs) {
        for (int i = 0; i < dim; i++) {
          for (int j = 0; j <= i; j++) {
            a[i][j] += x[i] * x[j];
          }
        }
      }
      for (int i = 0; i < dim; i++) {
        for (int j = 0; j <= i; j++) {
          a[i][j] /= xs.size();
          a[j][i] = a[i][j];
        }
      }
      return a;
    }

    static double trace(double[][] a) {
      double t = 0;
      for (int i = 0; i < a.length; i++) {
        t += a[i][i];
      }
      return t;
    }

    double[][] fit(List<double[]> diffs, int dim) {
      double[][] a = secondMoments(diffs, dim);
      double g = shrink * trace(a) / dim;
      if (RANK > 0) {
        lowRank(a, g, dim);
        if (AMP > 0 && failDiffs.size() >= 20) {
          amplify(dim);
        } else {
          w = null;
        }
        return new double[0][];
      }
      for (int i = 0; i < dim; i++) {
        a[i][i] += g;
      }
      double[][] l = new double[dim][dim]; // Cholesky
      for (int i = 0; i < dim; i++) {
        for (int j = 0; j <= i; j++) {
          double sum = a[i][j];
          for (int k = 0; k < j; k++) {
            sum -= l[i][k] * l[j][k];
          }
          l[i][j] = i == j ? Math.sqrt(sum) : sum / l[j][j];
        }
      }
      double[][] inv = new double[dim][dim]; // L^-1, lower triangular
      for (int c = 0; c < dim; c++) {
        inv[c][c] = 1 / l[c][c];
        for (int i = c + 1; i < dim; i++) {
          double sum = 0;
          for (int k = c; k < i; k++) {
            sum -= l[i][k] * inv[k][c];
          }
          inv[i][c] = sum / l[i][i];
        }
      }
      return inv;
    }

    double[] t(float[] v) {
      return RANK > 0 ? lowRankT(v) : t(v, linv, cache, !kiss);
    }

    /** {@code -Drank=R}: the transform kept to the top R eigenvectors of the covariance, the rest the identity. */
    static final int RANK = Integer.getInteger("rank", 0);
    double[][] u; // R eigenvectors
    double[] c; // sqrt(g / (lambda + g)) - 1 for each

    void lowRank(double[][] a, double g, int dim) {
      lowRankOf(a, g, dim, RANK);
    }

    void lowRankOf(double[][] a, double g, int dim, int rank) {
      int r = Math.min(rank, dim);
      java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
      double[][] q = new double[r][dim];
      for (double[] row : q) {
        for (int d = 0; d < dim; d++) {
          row[d] = rnd.nextGaussian();
        }
      }
      for (int it = 0; it < 40; it++) { // subspace iteration
        double[][] next = new double[r][dim];
        for (int k = 0; k < r; k++) {
          for (int i = 0; i < dim; i++) {
            double x = 0;
            for (int j = 0; j < dim; j++) {
              x += a[i][j] * q[k][j];
            }
            next[k][i] = x;
          }
        }
        orthonormalise(next);
        q = next;
      }
      // Rayleigh-Ritz: B = Q A Q^T (r x r), its eigenvectors by Jacobi
      double[][] b = new double[r][r];
      double[][] aq = new double[r][dim];
      for (int k = 0; k < r; k++) {
        for (int i = 0; i < dim; i++) {
          double x = 0;
          for (int j = 0; j < dim; j++) {
            x += a[i][j] * q[k][j];
          }
          aq[k][i] = x;
        }
      }
      for (int k = 0; k < r; k++) {
        for (int l = 0; l < r; l++) {
          double x = 0;
          for (int i = 0; i < dim; i++) {
            x += q[k][i] * aq[l][i];
          }
          b[k][l] = x;
        }
      }
      double[][] vecs = new double[r][r];
      for (int k = 0; k < r; k++) {
        vecs[k][k] = 1;
      }
      for (int sweep = 0; sweep < 50; sweep++) {
        for (int p = 0; p < r; p++) {
          for (int qq = p + 1; qq < r; qq++) {
            if (Math.abs(b[p][qq]) < 1e-15) {
              continue;
            }
            double theta = (b[qq][qq] - b[p][p]) / (2 * b[p][qq]);
            double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
            if (theta == 0) {
              t = 1;
            }
            double cs = 1 / Math.sqrt(t * t + 1);
            double sn = t * cs;
            for (int k = 0; k < r; k++) { // rotate columns p, q of b
              double bkp = b[k][p];
              double bkq = b[k][qq];
              b[k][p] = cs * bkp - sn * bkq;
              b[k][qq] = sn * bkp + cs * bkq;
            }
            for (int k = 0; k < r; k++) { // rows
              double bpk = b[p][k];
              double bqk = b[qq][k];
              b[p][k] = cs * bpk - sn * bqk;
              b[qq][k] = sn * bpk + cs * bqk;
            }
            for (int k = 0; k < r; k++) {
              double vkp = vecs[k][p];
              double vkq = vecs[k][qq];
              vecs[k][p] = cs * vkp - sn * vkq;
              vecs[k][qq] = sn * vkp + cs * vkq;
            }
          }
        }
      }
      u = new double[r][dim];
      c = new double[r];
      for (int e = 0; e < r; e++) {
        for (int k = 0; k < r; k++) {
          for (int i = 0; i < dim; i++) {
            u[e][i] += vecs[k][e] * q[k][i];
          }
        }
        double lambda = Math.max(0, b[e][e]);
        c[e] = Math.sqrt(g / (lambda + g)) - 1;
      }
      linv = new double[0][];
    }

    static void orthonormalise(double[][] rows) {
      for (int k = 0; k < rows.length; k++) {
        for (int l = 0; l < k; l++) {
          double x = 0;
          for (int i = 0; i < rows[k].length; i++) {
            x += rows[k][i] * rows[l][i];
          }
          for (int i = 0; i < rows[k].length; i++) {
            rows[k][i] -= x * rows[l][i];
          }
        }
        double n = 0;
        for (double x : rows[k]) {
          n += x * x;
        }
        n = Math.sqrt(n);
        for (int i = 0; i < rows[k].length; i++) {
          rows[k][i] /= n == 0 ? 1 : n;
        }
      }
    }

    /** {@code -Damp=A}: the A directions in which failed pairs differ most, after the shrink, amplified. */
    static final int AMP = Integer.getInteger("amp", 0);
    static final double AMP_SHRINK = Double.parseDouble(System.getProperty("ampShrink", "4"));
    static final double AMP_CAP = Double.parseDouble(System.getProperty("ampCap", "3"));
    double[][] w; // amplified directions, or null
    double[] aw; // their coefficients (factor - 1)

    void amplify(int dim) {
      List<double[]> shrunk = new ArrayList<>();
      for (double[] x : failDiffs.subList(Math.max(0, failDiffs.size() - 512), failDiffs.size())) {
        shrunk.add(shrunk(x));
      }
      double[][] f = secondMoments(shrunk, dim);
      double g = AMP_SHRINK * trace(f) / dim;
      double[][] saveU = u;
      double[] saveC = c;
      lowRankOf(f, g, dim, AMP);
      w = u;
      aw = new double[c.length];
      for (int e = 0; e < c.length; e++) { // lowRankOf left sqrt(g/(l+g)) - 1; the amplification is its inverse
        double shrinkFactor = c[e] + 1;
        aw[e] = Math.min(AMP_CAP, 1 / shrinkFactor) - 1;
      }
      u = saveU;
      c = saveC;
    }

    double[] shrunk(double[] v) {
      double[] out = v.clone();
      for (int e = 0; e < u.length; e++) {
        double proj = 0;
        for (int i = 0; i < v.length; i++) {
          proj += u[e][i] * v[i];
        }
        for (int i = 0; i < v.length; i++) {
          out[i] += c[e] * proj * u[e][i];
        }
      }
      return out;
    }

    double[] lowRankT(float[] v) {
      double[] out = cache.get(v);
      if (out != null) {
        return out;
      }
      out = new double[v.length];
      for (int i = 0; i < v.length; i++) {
        out[i] = v[i];
      }
      for (int e = 0; e < u.length; e++) {
        double proj = 0;
        for (int i = 0; i < v.length; i++) {
          proj += u[e][i] * v[i];
        }
        for (int i = 0; i < v.length; i++) {
          out[i] += c[e] * proj * u[e][i];
        }
      }
      if (w != null) {
        double[] base = out.clone();
        for (int e = 0; e < w.length; e++) {
          double proj = 0;
          for (int i = 0; i < v.length; i++) {
            proj += w[e][i] * base[i];
          }
          for (int i = 0; i < v.length; i++) {
            out[i] += aw[e] * proj * w[e][i];
          }
        }
      }
      double norm = 0;
      for (double x : out) {
        norm += x * x;
      }
      norm = Math.sqrt(norm);
      for (int i = 0; i < out.length; i++) {
        out[i] /= norm;
      }
      cache.put(v, out);
      return out;
    }

    static double[] t(float[] v, double[][] linv, Map<float[], double[]> cache, boolean unit) {
      double[] out = cache.get(v);
      if (out != null) {
        return out;
      }
      int dim = v.length;
      out = new double[dim];
      double norm = 0;
      for (int i = 0; i < dim; i++) {
        double x = 0;
        for (int k = 0; k <= i; k++) {
          x += linv[i][k] * v[k];
        }
        out[i] = x;
        norm += x * x;
      }
      norm = Math.sqrt(norm);
      for (int i = 0; i < dim && unit; i++) {
        out[i] /= norm;
      }
      cache.put(v, out);
      return out;
    }

    /** {@code rcamG}: the sum of the cosine and the RCA cosine. */
    boolean mixed;

    double[] ranked(float[] q, List<float[]> mem) {
      if (mixed) {
        double[] r = score(q, mem);
        if (linv != null) {
          for (int i = 0; i < r.length; i++) {
            r[i] += dot(q, mem.get(i));
          }
        }
        return r;
      }
      return on() ? score(q, mem) : new Raw().score(q, mem);
    }

    public double[] score(float[] q, List<float[]> mem) {
      double[] s = new double[mem.size()];
      if (kiss && linv != null) {
        double[] sq = t(q, linv, cache, false);
        double[] fq = t(q, flinv, fcache, false);
        for (int i = 0; i < s.length; i++) {
          double[] sm = t(mem.get(i), linv, cache, false);
          double[] fm = t(mem.get(i), flinv, fcache, false);
          double ds = 0;
          double df = 0;
          for (int d = 0; d < sq.length; d++) {
            ds += (sq[d] - sm[d]) * (sq[d] - sm[d]);
            df += (fq[d] - fm[d]) * (fq[d] - fm[d]);
          }
          s[i] = df - ds; // the log-likelihood ratio of "same kind" (up to constants): higher is nearer
        }
        return s;
      }
      return linv == null ? new Raw().score(q, mem) : transformedDots(q, mem, this::t);
    }
  }

  static double phi(double z) {
    double x = Math.abs(z) / Math.sqrt(2);
    double t = 1 / (1 + 0.3275911 * x);
    double erf = 1 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592)
        * t * Math.exp(-x * x);
    return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
  }

  static Rca mixedRca(double shrink) {
    Rca r = new Rca(shrink, false);
    r.mixed = true;
    return r;
  }

  static Rca matchingRca(double shrink) {
    Rca r = new Rca(shrink, false);
    r.matching = true;
    return r;
  }

  static Rca guardedRca(double shrink) {
    Rca r = new Rca(shrink, false);
    r.guarded = true;
    return r;
  }

  /** Centered (mode 1) or per-dimension standardised (mode 2) cosine over the intents seen so far. */
  static final class Stats implements Sim {
    final int mode;
    double[] sum;
    double[] sq;
    int n;

    Stats(int mode) {
      this.mode = mode;
    }

    public void observe(float[] z) {
      if (sum == null) {
        sum = new double[z.length];
        sq = new double[z.length];
      }
      for (int d = 0; d < z.length; d++) {
        sum[d] += z[d];
        sq[d] += z[d] * (double) z[d];
      }
      n++;
    }

    double[] t(float[] v) {
      double[] out = new double[v.length];
      double norm = 0;
      for (int d = 0; d < v.length; d++) {
        double mu = n == 0 ? 0 : sum[d] / n;
        double x = v[d] - mu;
        if (mode == 2 && n > 1) {
          double var = sq[d] / n - mu * mu;
          x /= Math.sqrt(Math.max(var, 0) + 1e-4);
        }
        out[d] = x;
        norm += x * x;
      }
      norm = Math.sqrt(norm);
      for (int d = 0; d < v.length; d++) {
        out[d] /= norm == 0 ? 1 : norm;
      }
      return out;
    }

    public double[] score(float[] q, List<float[]> mem) {
      return transformedDots(q, mem, this::t);
    }
  }

  /** The dot product of {@code q} with each of {@code mem}, each vector transformed by {@code t} first. */
  static double[] transformedDots(float[] q, List<float[]> mem, java.util.function.Function<float[], double[]> t) {
    double[] tq = t.apply(q);
    double[] s = new double[mem.size()];
    for (int i = 0; i < s.length; i++) {
      double[] tm = t.apply(mem.get(i));
      double x = 0;
      for (int d = 0; d < tq.length; d++) {
        x += tq[d] * tm[d];
      }
      s[i] = x;
    }
    return s;
  }

  static int find(int[] root, int x) {
    while (root[x] != x) {
      root[x] = root[root[x]];
      x = root[x];
    }
    return x;
  }

  /** {@code -Dnotes=failN-first|failN-last}: the failure notes step on top of any variant's ranking. */
  static final String NOTES = System.getProperty("notes", "");

  static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * (double) b[i];
    }
    return s;
  }

  /** Variants run when {@code -Dvariants} is not given: every one the javadoc describes. */
  static final String VARIANTS =
      "raw,centered,standardised,demote,cluster,cluster-dedup,cluster-centroid,fail10-first,fail10-last,"
          + "kindfail-first,kindfail-last,fisher10,rca10,kiss10,rcag10,rcat10";

  public static void main(String[] args) throws Exception {
    String model = args.length > 0 ? args[0] : "hashing";
    int length = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
    long[] seeds = Arrays.stream(System.getProperty("seeds", "3001,3002").split(",")).mapToLong(Long::parseLong).toArray();
    List<String> variants = List.of(System.getProperty("variants", VARIANTS).split(","));
    Embedder embedder = model.equals("minilm") ? MiniLmEmbedder.create() : new HashingEmbedder();
    try {
      for (String envName : List.of("recurring-ops", "sql", "text-world", "hard-questions")) {
        for (String kText : System.getProperty("k", "3").split(",")) {
          int k = Integer.parseInt(kText);
          StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-15s k=%d", envName, k));
          for (String variant : variants) {
            Tally tally = new Tally();
            for (long seed : seeds) {
              runStream(envName, seed, length, embedder, variant, k, tally);
            }
            line.append(String.format(Locale.ROOT, "  %s %.3f %s", variant, tally.success / seeds.length, tally));
          }
          System.out.println(line);
        }
      }
    } finally {
      if (embedder instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  /** What one variant did over its seeds. */
  static final class Tally {
    double success; // summed over seeds of each stream's mean success
    int reach; // episodes with a helper among the k shown
    int exists; // episodes with a helper above the gate
    final int[] episodes = new int[3]; // by case: first shown success helps, a helper behind another success, none
    final int[] solved = new int[3];

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "(reach %d/%d) firstHelps %d:%.2f helperLater %d:%.2f none %d:%.2f", reach,
          exists, episodes[0], solved[0] / (double) episodes[0], episodes[1], solved[1] / (double) episodes[1],
          episodes[2], solved[2] / (double) episodes[2]);
    }
  }

  /** One stream of {@code envName} and {@code seed} with the variant's ranking and shown set, into {@code tally}. */
  static void runStream(String envName, long seed, int length, Embedder embedder, String variant, int k, Tally tally)
      throws Exception {
    Environment env = EnvironmentCatalog.named(envName).create(seed, BenchSize.FULL, null, Map.of());
    try {
      StreamWorld world = ((StreamSource) env).stream(seed, new StreamShape(length, 0.5, 1.0 / 3));
      IntentEmbeddings emb = IntentEmbeddings.of(embedder, StreamLoop.intents(world));
      Sim sim = switch (variant) {
        case "centered" -> new Stats(1);
        case "standardised" -> new Stats(2);
        default -> variant.startsWith("rca") && !variant.startsWith("rcag") && !variant.startsWith("rcat") && !variant.startsWith("rcam") ? new Rca(Integer.parseInt(variant.substring(3)) / 10.0, false)
            : variant.startsWith("rcam") ? mixedRca(Integer.parseInt(variant.substring(4)) / 10.0)
            : variant.startsWith("rcat") ? matchingRca(Integer.parseInt(variant.substring(4)) / 10.0)
            : variant.startsWith("rcag") ? guardedRca(Integer.parseInt(variant.substring(4)) / 10.0)
            : variant.startsWith("kiss") ? new Rca(Integer.parseInt(variant.substring(4)) / 10.0, true)
            : variant.startsWith("fisher") ? new Fisher(Integer.parseInt(variant.substring(6)) / 10.0) : new Raw();
      };
      Store store = new Store();
      for (PriorExperience p : world.priorExperiences()) {
        float[] z = emb.of(new Task("prior", p.intent()));
        store.add(z, memory(store.size(), p.intent(), z, p.experience(), p.outcome()), -1, "prior");
        sim.observe(z);
      }
      long streamSeed = Seeds.derive(Seeds.derive(seed, "policy:" + envName), "stream");
      int solved = 0;
      for (int i = 0; i < world.tasks().size(); i++) {
        StreamTask instance = world.tasks().get(i);
        Task task = instance.task();
        float[] z = emb.of(task);
        sim.observe(z);
        double[] raw = new Raw().score(z, store.vecs);
        if (sim instanceof Rca r) {
          r.draw();
        }
        double[] s = sim instanceof Raw ? raw : sim instanceof Rca r ? r.ranked(z, store.vecs) : sim.score(z, store.vecs);
        List<Integer> judged = new ArrayList<>();
        List<Integer> pool = new ArrayList<>();
        for (int j = 0; j < raw.length; j++) {
          if (raw[j] >= 0.5) {
            pool.add(j);
          }
        }
        int poolLimit = Integer.getInteger("pool", Integer.MAX_VALUE);
        if (pool.size() > poolLimit) { // the engine's recall: the nearest by cosine only
          pool.sort((a, b) -> raw[a] != raw[b] ? Double.compare(raw[b], raw[a]) : Integer.compare(b, a));
          pool = new ArrayList<>(pool.subList(0, poolLimit));
        }
        judged.addAll(pool);
        pool.sort((a, b) -> s[a] != s[b] ? Double.compare(s[b], s[a]) : Integer.compare(b, a));
        if (variant.startsWith("cluster")) {
          pool = byClusters(pool, raw, z, store, variant);
        } else if (variant.equals("demote")) {
          pool = demoted(pool, raw, store);
        }
        List<Memory> shown = new ArrayList<>();
        boolean helps = false;
        boolean any = false;
        for (int r = 0; r < pool.size(); r++) {
          Memory m = store.mems.get(pool.get(r));
          boolean h = world.helps(task, m);
          any |= h;
          if (r < k) {
            shown.add(m);
            helps |= h;
          }
        }
        tally.exists += any ? 1 : 0;
        tally.reach += helps ? 1 : 0;
        if (variant.startsWith("kindfail")) { // ground truth: every failure note of the instance's own kind
          List<String> parts = new ArrayList<>();
          for (int j = store.size() - 1; j >= 0; j--) {
            if (!store.ok.get(j) && store.kinds.get(j).equals(instance.kind())) {
              parts.addAll(store.mems.get(j).parts());
            }
          }
          shown = withNote(shown, parts, z, variant.endsWith("first"));
        } else if (variant.startsWith("fail") || NOTES.startsWith("fail")) {
          String form = variant.startsWith("fail") ? variant : NOTES;
          int nearest = Integer.parseInt(form.substring(4, form.indexOf('-')));
          List<String> parts = new ArrayList<>();
          for (int r = 0; r < Math.min(nearest, pool.size()); r++) {
            Memory m = store.mems.get(pool.get(r));
            if (m.outcome() == Outcome.FAILURE) {
              parts.addAll(m.parts());
            }
          }
          shown = withNote(shown, parts, z, form.endsWith("first"));
        }
        Episode e = world.attempt(task, shown, new SplittableRandom(Seeds.derive(streamSeed, 0, i)));
        solved += e.success() ? 1 : 0;
        // the success the policy reads first: the memory per-task learning assumes was used
        Memory firstSuccess = shown.stream().filter(m -> m.outcome() == Outcome.SUCCESS).findFirst().orElse(null);
        int kase = firstSuccess == null ? 2 : world.helps(task, firstSuccess) ? 0 : helps ? 1 : 2;
        tally.episodes[kase]++;
        tally.solved[kase] += e.success() ? 1 : 0;
        int used = firstSuccess == null ? -1 : Integer.parseInt(firstSuccess.id().substring(1));
        if (sim instanceof Fisher f && used >= 0) {
          f.learn(z, store.vecs.get(used), e.success());
        }
        if (sim instanceof Rca f) {
          f.outcome(e.success());
        }
        if (sim instanceof Rca f && used >= 0) {
          if (f.guarded) {
            f.judge(judged, raw, z, store.vecs, used, e.success());
          }
          f.learn(z, store.vecs.get(used), e.success());
        }
        store.add(z, memory(store.size(), task.intent(), z, e.experience(), e.success() ? Outcome.SUCCESS : Outcome.FAILURE),
            used, instance.kind());
      }
      tally.success += solved / (double) world.tasks().size();
    } finally {
      if (env instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  /** Every instance remembered, oldest first, with what the probe knows of it. */
  static final class Store {
    final List<float[]> vecs = new ArrayList<>();
    final List<Memory> mems = new ArrayList<>();
    final List<Integer> parent = new ArrayList<>(); // the first success its episode was shown, or -1
    final List<Boolean> ok = new ArrayList<>(); // its episode succeeded
    final List<String> kinds = new ArrayList<>(); // ground truth, for the bounds only

    void add(float[] z, Memory m, int usedMemory, String kind) {
      vecs.add(z);
      mems.add(m);
      parent.add(usedMemory);
      ok.add(m.outcome() == Outcome.SUCCESS);
      kinds.add(kind);
    }

    int size() {
      return mems.size();
    }
  }

  /** {@code demote}: a success goes last when a failed episode that used it is at least as near the query. */
  static List<Integer> demoted(List<Integer> pool, double[] raw, Store store) {
    double[] opposed = new double[raw.length];
    Arrays.fill(opposed, -2);
    for (int f = 0; f < raw.length; f++) {
      if (!store.ok.get(f) && store.parent.get(f) >= 0) {
        opposed[store.parent.get(f)] = Math.max(opposed[store.parent.get(f)], raw[f]);
      }
    }
    List<Integer> keep = new ArrayList<>();
    List<Integer> last = new ArrayList<>();
    for (int j : pool) {
      (store.ok.get(j) && opposed[j] >= raw[j] ? last : keep).add(j);
    }
    keep.addAll(last);
    return keep;
  }

  /**
   * {@code cluster*}: successes chained by use (a success whose episode was shown another success joins its
   * cluster), each scored by its cluster's nearest member (or, {@code -centroid}, the cosine to the members' mean
   * intent), demoted when a failed use of the cluster is at least as near; {@code -dedup} keeps one per cluster.
   */
  static List<Integer> byClusters(List<Integer> pool, double[] raw, float[] z, Store store, String variant) {
    int n = raw.length;
    int[] root = new int[n];
    for (int j = 0; j < n; j++) {
      root[j] = j;
    }
    for (int j = 0; j < n; j++) {
      if (store.ok.get(j) && store.parent.get(j) >= 0) {
        root[find(root, j)] = find(root, store.parent.get(j));
      }
    }
    Map<Integer, Double> nearest = new HashMap<>();
    Map<Integer, Double> opposed = new HashMap<>();
    Map<Integer, double[]> sum = new HashMap<>();
    for (int j = 0; j < n; j++) {
      if (store.ok.get(j)) {
        int c = find(root, j);
        nearest.merge(c, raw[j], Math::max);
        double[] v = sum.computeIfAbsent(c, x -> new double[z.length]);
        float[] intent = store.vecs.get(j);
        for (int d = 0; d < intent.length; d++) {
          v[d] += intent[d];
        }
      } else if (store.parent.get(j) >= 0) {
        opposed.merge(find(root, store.parent.get(j)), raw[j], Math::max);
      }
    }
    boolean centroid = variant.contains("centroid");
    double[] score = new double[n];
    boolean[] last = new boolean[n];
    for (int j : pool) {
      if (!store.ok.get(j)) {
        score[j] = raw[j];
        continue;
      }
      int c = find(root, j);
      score[j] = centroid ? cosine(sum.get(c), z) : nearest.get(c);
      last[j] = opposed.getOrDefault(c, -2.0) >= score[j];
    }
    List<Integer> sorted = new ArrayList<>(pool);
    sorted.sort((a, b) -> last[a] != last[b] ? (last[a] ? 1 : -1)
        : score[a] != score[b] ? Double.compare(score[b], score[a]) : Double.compare(raw[b], raw[a]));
    if (!variant.endsWith("dedup")) {
      return sorted;
    }
    Set<Integer> seen = new HashSet<>();
    List<Integer> onePerCluster = new ArrayList<>();
    for (int j : sorted) {
      if (!store.ok.get(j) || seen.add(find(root, j))) {
        onePerCluster.add(j);
      }
    }
    return onePerCluster;
  }

  static double cosine(double[] v, float[] unit) {
    double dot = 0;
    double norm = 0;
    for (int d = 0; d < v.length; d++) {
      dot += v[d] * unit[d];
      norm += v[d] * v[d];
    }
    return dot / Math.sqrt(norm);
  }

  /** {@code shown} with {@code parts} as one failure note, first or last; {@code shown} itself when there are none. */
  static List<Memory> withNote(List<Memory> shown, List<String> parts, float[] z, boolean first) {
    if (parts.isEmpty()) {
      return shown;
    }
    List<Memory> out = new ArrayList<>(shown);
    out.add(first ? 0 : out.size(), memory(-1, "merged", z, String.join(Memory.PART_SEPARATOR, parts), Outcome.FAILURE));
    return out;
  }

  static Memory memory(int i, String intent, float[] z, String experience, Outcome outcome) {
    Instant t = Instant.EPOCH.plusSeconds(i);
    return new Memory("m" + i, "ns", "i" + i, intent, z, experience, outcome, 0, 0, t, t);
  }
}
