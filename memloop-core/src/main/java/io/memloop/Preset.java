package io.memloop;

import java.util.Locale;

/** Named starting points for {@link MemLoopConfig}; every value can be overridden afterwards. */
public enum Preset {
  /**
   * The MemRL reference code's semantics (arXiv 2601.03192, MemTensor/MemRL): k1 = 5, k2 = 3, λ = 0.5,
   * δ = 0.5, α = 0.3, r ∈ [−1, 1], Q_init = 0, q_min = −10, merge 0.9, ε = 0, similarity z-scored with
   * fixed hand-set constants (set them with {@code simMean}/{@code simStd}).
   */
  MEMRL,
  /** Plain similarity RAG: λ = 0 (rank by similarity only) and α = 0 (utilities never move). */
  SIMILARITY,
  /**
   * MemLoop's default. Today it equals {@link #MEMRL}: normalising similarity over the candidate
   * pool instead ({@code similarityNormalization=POOL}) was measured worse on the demo environment
   * (pool z-scores shrink the gap between a task's own memories and look-alike twins, so Q
   * dominates). It will move away from MEMRL only with benchmark evidence.
   */
  DEFAULT;

  /** Parses {@code memrl}, {@code similarity} or {@code default}, case-insensitively. */
  public static Preset parse(String name) {
    try {
      return valueOf(name.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw MemLoopException.invalid("preset", "unknown preset '" + name + "' (expected memrl, similarity or default)");
    }
  }

  public String id() {
    return name().toLowerCase(Locale.ROOT);
  }
}
