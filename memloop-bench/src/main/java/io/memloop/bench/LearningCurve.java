package io.memloop.bench;

import java.util.List;
import java.util.OptionalDouble;

/**
 * How one strategy learned over the epochs of one run.
 *
 * @param strategy the strategy's name ({@code no-memory}, {@code similarity}, {@code memrl}...)
 * @param seed the run seed
 * @param epochAccuracy mean success of each epoch, epoch 1 first
 * @param cumulativeSuccess CSR after each epoch: fraction of tasks solved at least once so far
 * @param forgettingRate among the tasks solved in epoch t−1, the fraction failed in epoch t, averaged
 *     over t; empty when no epoch followed a solved task
 * @param memoryCounts memories held at the end of each epoch
 * @param transferAccuracy success on held-out tasks with frozen memory; empty if the environment has
 *     none
 * @param qPredictsNext Pearson r between the top memory's Q before an episode and its success;
 *     empty when undefined (too few memories, or Q never moves)
 * @param misledRate fraction of training episodes whose top-ranked memory did not truly help (judged
 *     with ground truth after the fact); empty when nothing was shown or the environment cannot judge
 * @param wallSeconds wall time of the run
 * @param shownChars mean characters of experience text shown per training episode
 */
public record LearningCurve(
    String strategy,
    long seed,
    List<Double> epochAccuracy,
    List<Double> cumulativeSuccess,
    OptionalDouble forgettingRate,
    List<Long> memoryCounts,
    OptionalDouble transferAccuracy,
    OptionalDouble qPredictsNext,
    OptionalDouble misledRate,
    double wallSeconds,
    double shownChars) {

  public LearningCurve {
    epochAccuracy = List.copyOf(epochAccuracy);
    cumulativeSuccess = List.copyOf(cumulativeSuccess);
    memoryCounts = List.copyOf(memoryCounts);
    if (epochAccuracy.isEmpty()
        || cumulativeSuccess.size() != epochAccuracy.size()
        || memoryCounts.size() != epochAccuracy.size()) {
      throw new IllegalArgumentException(
          "one value per epoch expected: epochAccuracy=" + epochAccuracy.size() + ", cumulativeSuccess="
              + cumulativeSuccess.size() + ", memoryCounts=" + memoryCounts.size());
    }
  }

  /** A run without a measure of what was shown (tests). */
  public LearningCurve(String strategy, long seed, List<Double> epochAccuracy, List<Double> cumulativeSuccess,
      OptionalDouble forgettingRate, List<Long> memoryCounts, OptionalDouble transferAccuracy,
      OptionalDouble qPredictsNext, OptionalDouble misledRate, double wallSeconds) {
    this(strategy, seed, epochAccuracy, cumulativeSuccess, forgettingRate, memoryCounts, transferAccuracy,
        qPredictsNext, misledRate, wallSeconds, 0);
  }

  public int epochs() {
    return epochAccuracy.size();
  }

  /** The final epoch's accuracy, the headline number of MemRL's tables. */
  public double lastEpochAccuracy() {
    return epochAccuracy.getLast();
  }
}
