package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Directions} against a simple reference model: the covariance of the differences formed in full and
 * diagonalised with every direction, in seeded random cases.
 */
class DirectionsTest {

  /** Unit differences with {@code strong} directions of large variance over isotropic noise, in {@code d} dimensions. */
  private static List<float[]> differences(SplittableRandom rnd, int d, int n, int strong) {
    return differencesAlong(rnd, axes(rnd, d, strong), n);
  }

  /** {@code strong} random orthonormal axes in {@code d} dimensions. */
  private static double[][] axes(SplittableRandom rnd, int d, int strong) {
    double[][] axes = new double[strong][d];
    for (double[] a : axes) {
      for (int i = 0; i < d; i++) {
        a[i] = rnd.nextGaussian();
      }
    }
    Directions.orthonormalise(axes);
    return axes;
  }

  /** Unit differences of large variance along {@code axes} (decreasing), over isotropic noise. */
  private static List<float[]> differencesAlong(SplittableRandom rnd, double[][] axes, int n) {
    int d = axes[0].length;
    int strong = axes.length;
    List<float[]> out = new ArrayList<>();
    for (int j = 0; j < n; j++) {
      double[] x = new double[d];
      for (int i = 0; i < d; i++) {
        x[i] = 0.3 * rnd.nextGaussian();
      }
      for (int s = 0; s < strong; s++) {
        double a = (4.0 - s) * rnd.nextGaussian(); // decreasing variances, well apart
        for (int i = 0; i < d; i++) {
          x[i] += a * axes[s][i];
        }
      }
      float[] f = new float[d];
      for (int i = 0; i < d; i++) {
        f[i] = (float) x[i];
      }
      float[] unit = Directions.difference(f, new float[d]);
      if (unit != null) {
        out.add(unit);
      }
    }
    return out;
  }

  /** The reference: C = mean(x xᵀ) formed in full, its eigenvalues in decreasing order. */
  private static double[] referenceEigenvalues(List<float[]> diffs) {
    int d = diffs.getFirst().length;
    double[][] c = covariance(diffs);
    Directions.jacobi(c);
    double[] lambda = new double[d];
    for (int i = 0; i < d; i++) {
      lambda[i] = c[i][i];
    }
    Arrays.sort(lambda);
    double[] desc = new double[d];
    for (int i = 0; i < d; i++) {
      desc[i] = lambda[d - 1 - i];
    }
    return desc;
  }

  private static double[][] covariance(List<float[]> diffs) {
    int d = diffs.getFirst().length;
    double[][] c = new double[d][d];
    for (float[] x : diffs) {
      for (int i = 0; i < d; i++) {
        for (int j = 0; j < d; j++) {
          c[i][j] += x[i] * (double) x[j] / diffs.size();
        }
      }
    }
    return c;
  }

  /** The Rayleigh quotient {@code uᵀ C u}. */
  private static double rayleigh(double[][] c, double[] u) {
    double lambda = 0;
    for (int i = 0; i < u.length; i++) {
      for (int j = 0; j < u.length; j++) {
        lambda += u[i] * c[i][j] * u[j];
      }
    }
    return lambda;
  }

  @Test
  void eachFittedDirectionIsAnEigenvectorOfTheCovariance_withTheTopEigenvalues_inRandomCases() {
    SplittableRandom rnd = new SplittableRandom(42);
    for (int trial = 0; trial < 40; trial++) {
      int d = 6 + rnd.nextInt(20);
      int strong = 1 + rnd.nextInt(3);
      int r = strong + rnd.nextInt(2);
      List<float[]> diffs = differences(rnd, d, 200 + rnd.nextInt(300), strong);
      Directions.Fit fit = Directions.fit(diffs, r, null, diffs.size());
      double[][] c = covariance(diffs);
      double[] reference = referenceEigenvalues(diffs);
      assertThat(fit.directions()).hasNumberOfRows(r);
      double gamma = Directions.SHRINK / d; // unit differences: C's trace is 1
      double held = 0; // the variance the fitted directions hold, of C's trace 1
      for (int e = 0; e < r; e++) {
        double[] u = fit.directions()[e];
        assertThat(Directions.cosine(u, u)).as("unit").isCloseTo(1, within(1e-9));
        for (int f = 0; f < e; f++) {
          assertThat(Directions.cosine(u, fit.directions()[f])).as("orthogonal").isCloseTo(0, within(1e-9));
        }
        double lambda = 0; // Rayleigh quotient, and the residual of C u = λ u
        double[] cu = new double[d];
        for (int i = 0; i < d; i++) {
          for (int j = 0; j < d; j++) {
            cu[i] += c[i][j] * u[j];
          }
          lambda += u[i] * cu[i];
        }
        double residual = 0;
        for (int i = 0; i < d; i++) {
          residual += (cu[i] - lambda * u[i]) * (cu[i] - lambda * u[i]);
        }
        if (lambda > reference[strong - 1] * 0.9) { // a strong direction, well apart from the rest
          assertThat(Math.sqrt(residual)).as("trial %d direction %d is an eigenvector", trial, e)
              .isLessThan(1e-3 * reference[0]);
        } else { // within the noise's bulk, where subspace iteration converges slowly: below every strong one
          assertThat(lambda).as("trial %d direction %d", trial, e).isLessThanOrEqualTo(reference[strong - 1]);
        }
        if (e < strong) { // the strong directions, well apart from the rest: the top eigenvalues, in some order
          int rank = 0;
          while (rank < d && Math.abs(reference[rank] - lambda) > 1e-4 * reference[0]) {
            rank++;
          }
          assertThat(rank).as("trial %d: λ = %s is among the top %d of %s", trial, lambda, strong,
              Arrays.toString(reference)).isLessThan(strong);
        }
        assertThat(fit.coefficients()[e]).isCloseTo(Math.sqrt(gamma / (Math.max(0, lambda) + gamma)) - 1, within(1e-6))
            .isGreaterThan(-1).isLessThanOrEqualTo(0);
        held += Math.max(0, lambda);
      }
      assertThat(fit.varianceShare()).as("trial %d: the share of the variance the directions hold", trial)
          .isCloseTo(held, within(1e-5));
    }
  }

  @Test
  void transformsAreUnitAndFinite_andTheFitHoldsOnDegenerateInput() {
    SplittableRandom rnd = new SplittableRandom(7);
    int d = 12;
    float[] one = new float[d];
    one[3] = 1;
    List<float[]> same = new ArrayList<>(); // every difference the same: rank 1, more directions asked for
    for (int i = 0; i < 50; i++) {
      same.add(one.clone());
    }
    Directions.Fit fit = Directions.fit(same, 4, null, 50);
    double gamma = Directions.SHRINK / d; // λ = 1 along the one direction
    assertThat(fit.coefficients()[0]).as("the one direction of variance is discounted")
        .isCloseTo(Math.sqrt(gamma / (1 + gamma)) - 1, within(1e-9));
    for (int e = 1; e < 4; e++) {
      assertThat(fit.coefficients()[e]).as("no variance: left as it is").isCloseTo(0, within(1e-9));
    }
    for (int t = 0; t < 200; t++) {
      float[] v = new float[d];
      for (int i = 0; i < d; i++) {
        v[i] = rnd.nextInt(4) == 0 ? 0 : (float) rnd.nextGaussian();
      }
      double[] tv = fit.transform(v);
      assertThat(Arrays.stream(tv).allMatch(Double::isFinite)).as("finite").isTrue();
      double norm = Directions.cosine(tv, tv);
      assertThat(norm).isCloseTo(Arrays.equals(v, new float[d]) ? 0 : 1, within(1e-9));
    }
    assertThat(Directions.difference(one, one.clone())).as("the same intent: nothing to learn").isNull();
    float[] nan = new float[d];
    nan[0] = Float.NaN;
    assertThat(Directions.difference(nan, one)).isNull();
  }

  @Test
  void warmStartedRefits_convergeToTheSameDirections() {
    SplittableRandom rnd = new SplittableRandom(9);
    List<float[]> diffs = differences(rnd, 16, 400, 2);
    Directions.Fit cold = Directions.fit(diffs, 2, null, 400);
    Directions.Fit warm = Directions.fit(diffs, 2, cold, 400);
    for (int e = 0; e < 2; e++) {
      double best = 0;
      for (int f = 0; f < 2; f++) {
        best = Math.max(best, Math.abs(Directions.cosine(cold.directions()[e], warm.directions()[f])));
      }
      assertThat(best).isCloseTo(1, within(1e-6));
    }
  }

  /**
   * A refit runs only {@link Directions#WARM_ITERATIONS} rounds from the previous fit: over a ring that slides as the
   * engine's does ({@link Directions#REFIT_EVERY} new differences replace the oldest each time), through a drift
   * (halfway, the strong axes are drawn anew), every warm refit still finds the top eigenvalues of its own ring (the
   * reference's full diagonalisation), in random cases.
   */
  @Test
  void warmRefitsOverASlidingRing_trackTheTopEigenpairsOfEachRing() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int trial = 0; trial < 6; trial++) {
      int d = 12 + rnd.nextInt(20);
      int strong = 1 + rnd.nextInt(3);
      int ring = 8 * Directions.REFIT_EVERY;
      List<float[]> stream = new ArrayList<>(differencesAlong(rnd, axes(rnd, d, strong), 2 * ring));
      stream.addAll(differencesAlong(rnd, axes(rnd, d, strong), 2 * ring)); // the drift
      Directions.Fit fit = null;
      for (int end = ring; end <= stream.size(); end += Directions.REFIT_EVERY) {
        List<float[]> window = stream.subList(end - ring, end);
        fit = Directions.fit(window, strong, fit, end);
        double[] reference = referenceEigenvalues(window);
        double[][] c = covariance(window);
        for (int e = 0; e < strong; e++) {
          double lambda = rayleigh(c, fit.directions()[e]);
          assertThat(lambda).as("trial %d, ring ending at %d, direction %d: λ against %s", trial, end, e,
              Arrays.toString(reference)).isCloseTo(reference[e], within(0.02 * reference[0]));
        }
      }
    }
  }

  /**
   * What it is for: intents of two kinds of task, each a kind's own small signature plus large filler shared by every
   * kind (a template's words). Learned from successful pairs (two instances of one kind), the similarity ranks an
   * instance of the query's own kind above the other kind's more often than the cosine does.
   */
  @Test
  void learnedFromSuccessfulPairs_itTellsAKindFromALookAlike_betterThanTheCosine() {
    for (long seed = 1; seed <= 5; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      int d = 128;
      int fillerAxes = 6;
      float[][] kind = new float[2][d];
      kind[0][fillerAxes] = 1; // the signatures live outside the filler's axes
      kind[1][fillerAxes + 1] = 1;
      java.util.function.IntFunction<float[]> instance = k -> {
        float[] v = new float[d];
        for (int i = 0; i < d; i++) {
          v[i] = 0.6f * kind[k][i] + (i < fillerAxes ? (float) rnd.nextGaussian() : (float) (0.05 * rnd.nextGaussian()));
        }
        return io.memloop.Vectors.normalized(v, "v");
      };
      List<float[]> diffs = new ArrayList<>();
      for (int p = 0; p < 300; p++) {
        int k = rnd.nextInt(2);
        float[] x = Directions.difference(instance.apply(k), instance.apply(k));
        if (x != null) {
          diffs.add(x);
        }
      }
      Directions.Fit fit = Directions.fit(diffs, fillerAxes, null, diffs.size());
      int rawRight = 0;
      int learnedRight = 0;
      for (int t = 0; t < 500; t++) {
        float[] q = instance.apply(0);
        float[] own = instance.apply(0);
        float[] other = instance.apply(1);
        rawRight += io.memloop.Vectors.dot(q, own) > io.memloop.Vectors.dot(q, other) ? 1 : 0;
        double[] tq = fit.transform(q);
        learnedRight += Directions.cosine(tq, fit.transform(own)) > Directions.cosine(tq, fit.transform(other)) ? 1 : 0;
      }
      assertThat(learnedRight).as("seed %d: learned %d of 500, cosine %d", seed, learnedRight, rawRight)
          .isGreaterThan(rawRight + 50);
    }
  }

  @Test
  void transformKept_isTheFitsTransform_perFitAndVector_keptBounded() {
    SplittableRandom rnd = new SplittableRandom(41);
    int d = 24;
    List<float[]> diffs = differences(rnd, d, 200, 3);
    Directions.Fit fit = Directions.fit(diffs, 3, null, diffs.size());
    Directions.Fit refit = Directions.fit(differences(rnd, d, 200, 3), 3, null, 400);
    for (int i = 0; i < 3 * Directions.TRANSFORMS_KEPT; i++) {
      float[] v = new float[d];
      for (int j = 0; j < d; j++) {
        v[j] = (float) rnd.nextGaussian();
      }
      Directions.Fit f = i % 3 == 0 ? refit : fit;
      double[] kept = Directions.transformKept(f, v);
      assertThat(kept).containsExactly(f.transform(v));
      float[] copy = v.clone();
      assertThat(Directions.transformKept(f, copy)).as("the same vector's content gives the kept transform").isSameAs(kept);
      v[0] += 1; // the caller's array changed after the call: the kept key is a copy
      assertThat(Directions.transformKept(f, copy)).isSameAs(kept);
      assertThat(Directions.transformKept(f == fit ? refit : fit, copy)).as("another fit transforms again")
          .containsExactly((f == fit ? refit : fit).transform(copy));
      assertThat(Directions.transformsKept()).isBetween(1, Directions.TRANSFORMS_KEPT);
    }
  }
}
