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
 * @param similarityPairs with a learned similarity ({@link MemLoopConfig#similarityDirections()}), the successful
 *     (query, used memory) pairs it has learned from; 0 without one
 * @param similarityFittedAt the pairs there were at its latest fit; 0 before the first
 * @param directionScales the factor by which the latest fit scales each direction it discounts ({@code 1 + c_e}, in
 *     (0, 1]), in decreasing order of how much a kind's wordings vary along it; empty before the first fit
 * @param directionsVarianceShare the share of the pairs' variation those directions hold (what the fit discounts);
 *     absent before the first fit
 * @param textWeights with the texts' similarity mixed in for new tasks ({@link MemLoopConfig#textSimilarity()}), the
 *     weights of the vectors' similarity and of the texts', in that order; empty when it is not
 * @param textUpdates the rewards those weights were learned from
 * @param doubtDemoted episodes of new tasks shown their doubted successes (whose latest use failed) last
 *     ({@link MemLoopConfig#doubt()})
 * @param doubtDemotedSuccessRate their success rate
 * @param doubtKept episodes of new tasks shown them where similarity put them, drawn at random against the demoted
 * @param doubtKeptSuccessRate their success rate
 * @param doubtProbability the chance that such an episode shows the doubted last now (that demoting pays, times the
 *     share of rewarded retrievals made by new tasks); absent before any
 * @param directionsLearned episodes of new tasks ranked by the learned similarity on a draw against the plain cosine
 *     ({@link MemLoopConfig#directionsUse()}), where the two would show different memories
 * @param directionsLearnedSuccessRate their success rate
 * @param directionsCosine such episodes ranked by the plain cosine
 * @param directionsCosineSuccessRate their success rate
 * @param directionsProbability the chance that such an episode is ranked by the learned similarity now (that it
 *     pays); absent before any
 * @param textAlone episodes of new tasks ranked by the texts' similarity alone on a draw against the learned mix of the
 *     vectors' and the texts' ({@link MemLoopConfig#textAlone()}), where the two would show different memories;
 *     counted over about the latest 256 such draws (older ones weigh less), rounded
 * @param textAloneSuccessRate their success rate
 * @param textMixed such episodes ranked by the mix, counted the same way
 * @param textMixedSuccessRate their success rate
 * @param textAloneProbability the chance that such an episode is ranked by the texts alone now (that it pays, times the
 *     share of rewarded retrievals made by new tasks); absent before any
 */
public record Learned(
    boolean taskLearning, long explored, @Nullable Double exploredSuccessRate, long notExplored,
    @Nullable Double notExploredSuccessRate, @Nullable Double explorationProbability, long wholeNotes,
    @Nullable Double wholeSuccessRate, long shortenedNotes, @Nullable Double shortenedSuccessRate,
    @Nullable Double recurrence, List<Double> blockWeights, long blockUpdates, long similarityPairs,
    long similarityFittedAt, List<Double> directionScales, @Nullable Double directionsVarianceShare,
    List<Double> textWeights, long textUpdates, long doubtDemoted, @Nullable Double doubtDemotedSuccessRate,
    long doubtKept, @Nullable Double doubtKeptSuccessRate, @Nullable Double doubtProbability, long directionsLearned,
    @Nullable Double directionsLearnedSuccessRate, long directionsCosine, @Nullable Double directionsCosineSuccessRate,
    @Nullable Double directionsProbability, long textAlone, @Nullable Double textAloneSuccessRate, long textMixed,
    @Nullable Double textMixedSuccessRate, @Nullable Double textAloneProbability) {
  public Learned {
    blockWeights = List.copyOf(blockWeights);
    directionScales = List.copyOf(directionScales);
    textWeights = List.copyOf(textWeights);
  }

  /** What a namespace learned, with no doubted successes. */
  public Learned(boolean taskLearning, long explored, @Nullable Double exploredSuccessRate, long notExplored,
      @Nullable Double notExploredSuccessRate, @Nullable Double explorationProbability, long wholeNotes,
      @Nullable Double wholeSuccessRate, long shortenedNotes, @Nullable Double shortenedSuccessRate,
      @Nullable Double recurrence, List<Double> blockWeights, long blockUpdates, long similarityPairs,
      long similarityFittedAt, List<Double> directionScales, @Nullable Double directionsVarianceShare,
      List<Double> textWeights, long textUpdates) {
    this(taskLearning, explored, exploredSuccessRate, notExplored, notExploredSuccessRate, explorationProbability,
        wholeNotes, wholeSuccessRate, shortenedNotes, shortenedSuccessRate, recurrence, blockWeights, blockUpdates,
        similarityPairs, similarityFittedAt, directionScales, directionsVarianceShare, textWeights, textUpdates, 0, null,
        0, null, null, 0, null, 0, null, null, 0, null, 0, null, null);
  }

  /** What a namespace learned, with no texts' similarity. */
  public Learned(boolean taskLearning, long explored, @Nullable Double exploredSuccessRate, long notExplored,
      @Nullable Double notExploredSuccessRate, @Nullable Double explorationProbability, long wholeNotes,
      @Nullable Double wholeSuccessRate, long shortenedNotes, @Nullable Double shortenedSuccessRate,
      @Nullable Double recurrence, List<Double> blockWeights, long blockUpdates, long similarityPairs,
      long similarityFittedAt, List<Double> directionScales, @Nullable Double directionsVarianceShare) {
    this(taskLearning, explored, exploredSuccessRate, notExplored, notExploredSuccessRate, explorationProbability,
        wholeNotes, wholeSuccessRate, shortenedNotes, shortenedSuccessRate, recurrence, blockWeights, blockUpdates,
        similarityPairs, similarityFittedAt, directionScales, directionsVarianceShare, List.of(), 0);
  }

  /** What a namespace learned, with no learned similarity. */
  public Learned(boolean taskLearning, long explored, @Nullable Double exploredSuccessRate, long notExplored,
      @Nullable Double notExploredSuccessRate, @Nullable Double explorationProbability, long wholeNotes,
      @Nullable Double wholeSuccessRate, long shortenedNotes, @Nullable Double shortenedSuccessRate,
      @Nullable Double recurrence, List<Double> blockWeights, long blockUpdates) {
    this(taskLearning, explored, exploredSuccessRate, notExplored, notExploredSuccessRate, explorationProbability,
        wholeNotes, wholeSuccessRate, shortenedNotes, shortenedSuccessRate, recurrence, blockWeights, blockUpdates, 0, 0,
        List.of(), null);
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
