package io.memloop.policy;

import io.memloop.MemLoopConfig;
import java.util.random.RandomGenerator;

/**
 * Step 5 of Phase B: ε-greedy exploration ({@link MemLoopConfig.Exploration#EPSILON_GREEDY}). With probability
 * ε the selection is replaced by a uniform subset, of the same size, of the eligible candidates; each candidate's
 * logged selection probability is its inclusion probability over this draw (and over {@link TaskOrder}'s):
 * {@code (1−ε)·p_greedy + ε·take/m}, which over the eligible candidates sums to {@code take} (k2 when the pool is
 * large enough).
 *
 * <p>Ties: none decided here; the uniform subset is a partial Fisher–Yates shuffle of the eligible candidates in
 * their shown order. Randomness: no draw at all when ε is 0 or no candidate is eligible (greedy configurations
 * consume no randomness); else one {@code nextDouble}, then, when it explores, {@code take} {@code nextInt}s.
 * Stateless and thread-safe.
 */
public final class Explore {
  private Explore() {}

  /**
   * The effective ε of {@code config}: its {@link MemLoopConfig#epsilon} under ε-greedy exploration, else 0. The
   * one place this is decided: the engine, offline selection and off-policy evaluation all ask here.
   */
  public static double epsilon(MemLoopConfig config) {
    return config.exploration() == MemLoopConfig.Exploration.EPSILON_GREEDY ? config.epsilon() : 0;
  }

  /**
   * Which pool indices are selected: the first {@code take} of {@code order[0..m)} (the greedy selection), or,
   * with probability {@code epsilon}, a uniform {@code take}-subset of them.
   *
   * @param greedy by pool index, the greedy selection (the first {@code take} of the order)
   * @return {@code greedy} itself when the draw kept it, else a new array
   */
  static boolean[] draw(int[] order, int m, int take, boolean[] greedy, double epsilon, RandomGenerator random) {
    if (!(epsilon > 0 && m > 0 && random.nextDouble() < epsilon)) {
      return greedy;
    }
    boolean[] chosen = new boolean[greedy.length];
    int[] idx = java.util.Arrays.copyOf(order, m);
    for (int r = 0; r < take; r++) { // partial Fisher-Yates: a uniform take-subset
      int j = r + random.nextInt(m - r);
      int t = idx[r];
      idx[r] = idx[j];
      idx[j] = t;
      chosen[idx[r]] = true;
    }
    return chosen;
  }

  /** Probability of the uniform subset including a given eligible candidate: {@code take/m} (0 with none). */
  static double uniformShare(int take, int m) {
    return m == 0 ? 0 : (double) take / m;
  }

  /** A candidate's inclusion probability, from its greedy inclusion probability {@code greedyP}. */
  static double inclusion(double epsilon, double greedyP, double uniformShare) {
    return (1 - epsilon) * greedyP + epsilon * uniformShare;
  }
}
