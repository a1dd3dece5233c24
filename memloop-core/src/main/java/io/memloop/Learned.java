package io.memloop;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What per-task learning ({@link MemLoopConfig.TaskLearning}) has learned in a namespace ({@link MemLoop#learned}):
 * whether exploring pays (episodes that explored against episodes that could have and did not, drawn at random,
 * so the two are comparable) and whether long failure notes help whole or shortened to their newest k2 attempts.
 * A success rate is the mean of the rewards scaled to [0, 1]; absent with no episode.
 *
 * @param taskLearning whether per-task learning is on in the namespace (off: everything else zero or absent)
 * @param explored episodes that explored
 * @param exploredSuccessRate their success rate
 * @param notExplored episodes that could have explored and did not
 * @param notExploredSuccessRate their success rate
 * @param explorationProbability the chance that a task able to explore does now; absent before any such episode
 * @param wholeNotes episodes shown long failure notes whole
 * @param wholeSuccessRate their success rate
 * @param shortenedNotes episodes shown them shortened (and repeats of attempts shortening hid)
 * @param shortenedSuccessRate their success rate
 * @param recurrence the share of rewarded retrievals made by a task rewarded before ({@code (k + 1) / (n + 2)}, as
 *     {@link MemLoopConfig#freshness()} reads it): near 1 where tasks come back, near 0 where every task is new; absent
 *     before any reward
 * @param blockWeights with vectors split into blocks, one per embedding model ({@link MemLoopConfig#similarityBlocks()}),
 *     the weight of each block's cosine, in block order; empty when vectors are not split
 * @param blockUpdates the rewards those weights were learned from
 */
public record Learned(
    boolean taskLearning, long explored, @Nullable Double exploredSuccessRate, long notExplored,
    @Nullable Double notExploredSuccessRate, @Nullable Double explorationProbability, long wholeNotes,
    @Nullable Double wholeSuccessRate, long shortenedNotes, @Nullable Double shortenedSuccessRate,
    @Nullable Double recurrence, List<Double> blockWeights, long blockUpdates) {
  public Learned {
    blockWeights = List.copyOf(blockWeights);
  }

  /** What a namespace learned, before any reward told whether tasks come back, with vectors not split. */
  public Learned(boolean taskLearning, long explored, @Nullable Double exploredSuccessRate, long notExplored,
      @Nullable Double notExploredSuccessRate, @Nullable Double explorationProbability, long wholeNotes,
      @Nullable Double wholeSuccessRate, long shortenedNotes, @Nullable Double shortenedSuccessRate) {
    this(taskLearning, explored, exploredSuccessRate, notExplored, notExploredSuccessRate, explorationProbability,
        wholeNotes, wholeSuccessRate, shortenedNotes, shortenedSuccessRate, null, List.of(), 0);
  }

  /** Nothing learned: per-task learning is off. */
  public static final Learned NONE = new Learned(false, 0, null, 0, null, null, 0, null, 0, null);
}
