package io.memloop;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Why a retrieval would select what it selects ({@link MemLoop#explain}): Phase A's recall, each candidate of
 * Phase B's pool with the numbers every step computed for it, one sentence per step, and what the agent would be
 * shown with no exploration drawn. Made by running the engine's own steps on the pool
 * ({@link io.memloop.policy.SelectionPipeline#explain}); nothing is saved and no randomness is drawn.
 *
 * @param config the namespace's configuration the steps ran under
 * @param recalledIntents intent groups Phase A recalled (at most k1, cosine ≥ the similarity threshold)
 * @param recalledMemories memories of those groups: the pool
 * @param candidates the whole pool in greedy order (the eligible candidates as ranked, then the dropped ones)
 * @param steps the pipeline's steps in the order they ran, each with what it did here
 * @param shown the ids of the memories the agent would be shown, in the order shown
 */
public record Explanation(
    MemLoopConfig config, int recalledIntents, int recalledMemories, List<Entry> candidates, List<Step> steps,
    List<String> shown) {
  public Explanation {
    Objects.requireNonNull(config, "config");
    candidates = List.copyOf(candidates);
    steps = List.copyOf(steps);
    shown = List.copyOf(shown);
  }

  /**
   * One candidate of the pool.
   *
   * @param rank its place in the greedy order, 1-based (the order after every reordering step, exploration not drawn)
   * @param memoryId the memory's id
   * @param memory the memory, when the pool holds one (the engine's pools always do)
   * @param similarity the similarity Phase B used ({@link MemLoopConfig.SimilarityScope})
   * @param q the memory's utility
   * @param normSimilarity the similarity as normalised by the score
   * @param normQ Q as normalised by the score
   * @param score {@code (1−λ)·normSimilarity + λ·normQ}
   * @param eligible whether it passed the utility floor
   * @param dropped why it cannot be selected ({@code "below qMin"}), or null when eligible
   * @param tier per-task learning's tier for the asking task ({@code proven}, {@code unknown}, {@code failed}, or
   *     {@code withheld}: another intent's memory a failing task is not shown), or null when per-task learning is
   *     off or the candidate is not eligible
   * @param greedy whether it is in the selection when no exploration is drawn
   * @param probability its chance of being selected, over every draw exploration makes (what a retrieval logs)
   * @param shown whether the agent would be shown it (the greedy selection: exploration not drawn)
   */
  public record Entry(
      int rank, String memoryId, @Nullable Memory memory, double similarity, double q, double normSimilarity, double normQ,
      double score, boolean eligible, @Nullable String dropped, @Nullable String tier, boolean greedy, double probability,
      boolean shown) {
    public Entry {
      Objects.requireNonNull(memoryId, "memoryId");
    }
  }

  /**
   * One step of Phase B.
   *
   * @param step its name: {@code Score}, {@code TieBreak}, {@code QMinFilter}, {@code RankingSignal} (only with
   *     added signals), {@code TaskOrder}, {@code Explore} or {@code NoteDepth}
   * @param detail what it did to this pool, in one sentence
   */
  public record Step(String step, String detail) {
    public Step {
      Objects.requireNonNull(step, "step");
      Objects.requireNonNull(detail, "detail");
    }
  }
}
