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
  /**
   * MemRL's own similarity RAG: λ = 0 (rank by similarity only) and α = 0 (utilities never move), with
   * the reference's intent-group similarity and oldest-first ties.
   */
  SIMILARITY,
  /**
   * MemLoop's default, the strongest configuration measured (BENCHMARKS.md). Like {@link #MEMRL} (k1 = 5,
   * k2 = 3, δ = 0.5, α = 0.3, merge 0.9) except: similarity is measured to each memory's own intent
   * ({@code similarityScope=MEMORY}), ties go to the newest experience ({@code tieBreak=NEWEST_FIRST}),
   * an experience already stored under the same intent is not stored again and a task's failed attempts
   * are merged into one failure note ({@code consolidation=MERGE_FAILURES}), similarity is normalised over the pool (no per-model
   * constants), per-task learning with exploration is on ({@code taskLearning=ON}), a remember naming its
   * episode's retrieval joins an intent that retrieval recalled without searching again
   * ({@code mergeScope=RETRIEVED}), similarity is the cosine after discounting the eight directions in which the
   * intents of a successful episode's query and the memory it used differ most, learned per namespace from its
   * rewards ({@code similarityDirections}), a task with no record of its own is shown eight memories of its 32 nearest
   * intents ({@code firstEncounterK2}, {@code firstEncounterK1}), newer ones first where a success it would be shown
   * (or two in its pool) has gone stale and tasks seldom come back ({@code freshness}), and λ = 0: the
   * global Q is learned but does not reorder the selection, because every ranking by it we measured
   * lost accuracy. Set {@code lambda} to rank by Q as well.
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
