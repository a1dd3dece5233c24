package io.memloop.bench;

import io.memloop.Memory;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * One run's stream ({@link StreamSource#stream}): its instances in play order, and the frozen policy that attempts
 * them in the world as it is at each instance (before or after the drift). Ground truth ({@link GroundTruth}) is
 * for the oracle and for the benchmark's judging only, as for {@link Environment}.
 *
 * <p>Immutable and thread-safe: runs of different strategies share one world.
 */
public interface StreamWorld extends GroundTruth {

  /** The instances, in play order, each played once. */
  List<StreamTask> tasks();

  /** Index into {@link #tasks} of the first instance played after the drift. */
  int driftAt();

  /** Experiences in memory before the first instance; may be empty. */
  List<PriorExperience> priorExperiences();

  /**
   * The frozen policy attempts instance {@code task} with the experiences {@code shown}, in the world as it is for
   * that instance, and the world verifies the answer.
   *
   * @param rnd the only source of randomness of the attempt
   */
  Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd);
}
