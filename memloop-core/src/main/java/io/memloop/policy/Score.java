package io.memloop.policy;

import io.memloop.MemLoopConfig;

/**
 * Step 1 of Phase B (MemRL, arXiv 2601.03192 §4.2): each candidate's score {@code (1−λ)·norm(sim) + λ·norm(Q)}.
 *
 * <p>Normalisation follows the reference code: Q is z-scored over the pool with the population standard
 * deviation, clipped to ±{@value #Z_CLIP}, and std := 1 when ≤ {@value #STD_FLOOR}; similarity is either
 * z-scored the same way over the pool ({@link MemLoopConfig.SimilarityNormalization#POOL}) or with fixed
 * user-set constants ({@link MemLoopConfig.SimilarityNormalization#FIXED}).
 *
 * <p>Ties: none decided here; equal scores are {@link TieBreak}'s. Stateless and thread-safe.
 */
final class Score {
  static final double Z_CLIP = 3.0;
  static final double STD_FLOOR = 1e-9;

  private Score() {}

  /** Each candidate's normalised similarity and Q and its score, by pool index. */
  record Scored(double[] normSim, double[] normQ, double[] score) {}

  /** The score of each candidate, by pool index; {@code sim} and {@code q} are by pool index too. */
  static double[] of(double[] sim, double[] q, MemLoopConfig config) {
    return scored(sim, q, config).score();
  }

  /** {@link #of}, with the normalised terms the score mixes (for {@link SelectionPipeline#explain}). */
  static Scored scored(double[] sim, double[] q, MemLoopConfig config) {
    double[] normQ = zScoreClipped(q);
    double[] normSim =
        switch (config.similarityNormalization()) {
          case POOL -> zScoreClipped(sim);
          case FIXED -> fixed(sim, config.simMean(), config.simStd());
        };
    double lambda = config.lambda();
    double[] score = new double[sim.length];
    for (int i = 0; i < score.length; i++) {
      score[i] = (1 - lambda) * normSim[i] + lambda * normQ[i];
    }
    return new Scored(normSim, normQ, score);
  }

  /**
   * z-score with population std, clipped to ±{@link #Z_CLIP}; std := 1 when ≤ {@link #STD_FLOOR}. The order of
   * the floating-point operations is part of the contract: recorded scores replay bit for bit.
   */
  static double[] zScoreClipped(double[] x) {
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= x.length;
    double var = 0;
    for (double v : x) {
      var += (v - mean) * (v - mean);
    }
    double std = Math.sqrt(var / x.length);
    if (std <= STD_FLOOR) {
      std = 1;
    }
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.max(-Z_CLIP, Math.min(Z_CLIP, (x[i] - mean) / std));
    }
    return out;
  }

  private static double[] fixed(double[] x, double mean, double std) {
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = (x[i] - mean) / std;
    }
    return out;
  }
}
