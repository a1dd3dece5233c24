package io.memloop.policy;

import io.memloop.MemLoopConfig;
import java.util.Map;
import java.util.Set;

/**
 * What per-task learning knows about the asking task ({@link MemLoopConfig.TaskLearning}), as {@link TaskOrder}
 * and {@link NoteDepth} read it.
 *
 * @param context the task's key
 * @param consecutiveFailures the task's failures since its last success
 * @param explorations how often the task has explored
 * @param explorationProbability the chance that a task able to explore does: ½ while the namespace is still
 *     comparing exploring with not exploring, then high where exploring paid off and low where not
 * @param net each memory's net centred reward when the task used it (memories it never used are absent)
 * @param margin net reward beyond which a memory counts as proven (or, below its negative, as failed)
 * @param fullNoteProbability the chance that a long failure note is shown whole ({@link MemLoopConfig.NoteDepth#LEARNED})
 * @param neighbourNet for memories the task has never used, the net centred reward they earned the neighbouring
 *     tasks that used them ({@link MemLoopConfig.TaskLearning#NEIGHBOURS}), weighted by how near each neighbour is
 *     and how recent its evidence; empty otherwise
 * @param recurrence the share of the namespace's rewarded retrievals made by a task rewarded before, as
 *     {@code (recurring + 1) / (rewarded + 2)}: ½ before any reward, near 0 where every task is new (a stream), near 1
 *     where tasks come back ({@link Freshness} weighs by it)
 * @param stale the pooled success experiences that have gone stale — they helped an episode that used them, and the
 *     last two that used them failed —, read only for a task with no record of its own (else empty)
 * @param blockWeights each block's weight ({@link Blocks}) when vectors are split into blocks; else empty
 * @param directions the similarity the namespace has learned ({@link Directions}, {@link
 *     MemLoopConfig#similarityDirections}); null while there is none (off, or too few successes yet)
 * @param textWeights the weights of the vectors' and the texts' similarity ({@link TextChannel}) when the namespace
 *     mixes them in; else empty
 * @param queryWords the lexical vector of the asking task's text ({@link TextChannel#queryVector}), when it was given
 *     one and {@link TextChannel} reads it; else null
 * @param doubted the pooled success experiences whose latest use failed ({@link Doubt}), read only for a task with no
 *     record of its own in a namespace that doubts (else empty)
 * @param doubtProbability the chance that a task whose ranking holds a doubted success is shown the doubted last
 *     ({@link Doubt#probability}): while the namespace's rewards do not tell the two arms apart ½ times the share of
 *     its retrievals by new tasks, then high where demoting paid and tasks seldom come back, low otherwise
 * @param directionsProbability the chance that a task with no record of its own, whose ranking by the learned
 *     similarity ({@link #directions}) and by the plain cosine differ, is ranked by the learned one
 *     ({@link DirectionsUse}): ½ while the namespace's rewards do not tell the two apart, then high where the learned
 *     similarity paid and low where not; 1 where the namespace does not draw
 * @param textAloneProbability the chance that a task with no record of its own, whose ranking by the texts'
 *     similarity alone and by the learned mix of the vectors' and the texts' differ, is ranked by the texts alone
 *     ({@link TextAlone#probability}): ½ times the share of the namespace's rewarded retrievals made by new tasks while
 *     its rewards do not tell the two apart, then high where the texts alone paid and tasks seldom come back, low
 *     otherwise; 0 where the namespace does not draw
 */
public record TaskView(
    String context, int consecutiveFailures, int explorations, double explorationProbability, Map<String, Double> net,
    double margin, double fullNoteProbability, Map<String, Double> neighbourNet, double recurrence,
    Set<String> stale, double[] blockWeights, Directions.@org.jspecify.annotations.Nullable Fit directions,
    double[] textWeights, float @org.jspecify.annotations.Nullable [] queryWords, Set<String> doubted,
    double doubtProbability, double directionsProbability, double textAloneProbability) {
  public TaskView {
    stale = Set.copyOf(stale);
    doubted = Set.copyOf(doubted);
    blockWeights = blockWeights.clone();
    textWeights = textWeights.clone();
  }

  /** A view that doubts no memory. */
  public TaskView(String context, int consecutiveFailures, int explorations, double explorationProbability,
      Map<String, Double> net, double margin, double fullNoteProbability, Map<String, Double> neighbourNet,
      double recurrence, Set<String> stale, double[] blockWeights, Directions.@org.jspecify.annotations.Nullable Fit directions,
      double[] textWeights, float @org.jspecify.annotations.Nullable [] queryWords) {
    this(context, consecutiveFailures, explorations, explorationProbability, net, margin, fullNoteProbability,
        neighbourNet, recurrence, stale, blockWeights, directions, textWeights, queryWords, Set.of(), 0.5, 1, 0);
  }

  /** A view that does not mix in the texts' similarity. */
  public TaskView(String context, int consecutiveFailures, int explorations, double explorationProbability,
      Map<String, Double> net, double margin, double fullNoteProbability, Map<String, Double> neighbourNet,
      double recurrence, Set<String> stale, double[] blockWeights, Directions.@org.jspecify.annotations.Nullable Fit directions) {
    this(context, consecutiveFailures, explorations, explorationProbability, net, margin, fullNoteProbability,
        neighbourNet, recurrence, stale, blockWeights, directions, new double[0], null);
  }

  @Override
  public double[] textWeights() {
    return textWeights.clone();
  }

  /** A view whose vectors are not split into blocks. */
  public TaskView(String context, int consecutiveFailures, int explorations, double explorationProbability,
      Map<String, Double> net, double margin, double fullNoteProbability, Map<String, Double> neighbourNet,
      double recurrence, Set<String> stale) {
    this(context, consecutiveFailures, explorations, explorationProbability, net, margin, fullNoteProbability,
        neighbourNet, recurrence, stale, new double[0], null);
  }

  @Override
  public double[] blockWeights() {
    return blockWeights.clone();
  }

  /** A view without neighbours' evidence, with recurrence 1. */
  public TaskView(String context, int consecutiveFailures, int explorations, double explorationProbability,
      Map<String, Double> net, double margin, double fullNoteProbability) {
    this(context, consecutiveFailures, explorations, explorationProbability, net, margin, fullNoteProbability, Map.of(), 1, Set.of());
  }

  /** Failed uses in a row, since its last successful one, that make a success experience {@link #stale}. */
  public static final int STALE_AFTER = 2;

  /** A view with recurrence 1 (tasks come back: {@link Freshness} never acts). */
  public TaskView(String context, int consecutiveFailures, int explorations, double explorationProbability,
      Map<String, Double> net, double margin, double fullNoteProbability, Map<String, Double> neighbourNet) {
    this(context, consecutiveFailures, explorations, explorationProbability, net, margin, fullNoteProbability, neighbourNet, 1, Set.of());
  }

  /**
   * Whether the task has no record of its own in the ledger: it never used a memory, never failed, never explored.
   * (A first encounter also needs no memory of its own intent in view: {@link SelectionPipeline#firstEncounter}.)
   */
  public boolean noRecord() {
    return net.isEmpty() && consecutiveFailures == 0 && explorations == 0;
  }

  /** This view with {@code stale} as its stale successes and {@code doubted} as its doubted ones (both read from the
   * pooled successes' credit entries). */
  public TaskView withCredit(Set<String> stale, Set<String> doubted) {
    return new TaskView(context, consecutiveFailures, explorations, explorationProbability, net, margin,
        fullNoteProbability, neighbourNet, recurrence, stale, blockWeights, directions, textWeights, queryWords, doubted,
        doubtProbability, directionsProbability, textAloneProbability);
  }

  /** The evidence {@link TaskOrder} tiers a memory by: the task's own when it has any, else its neighbours'. */
  public @org.jspecify.annotations.Nullable Double evidence(String memoryId) {
    Double own = net.get(memoryId);
    return own != null ? own : neighbourNet.get(memoryId);
  }
}
