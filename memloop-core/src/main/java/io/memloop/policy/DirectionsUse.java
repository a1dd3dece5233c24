package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.store.Annotations;
import org.jspecify.annotations.Nullable;

/**
 * The start of Phase B for a task with no record of its own ({@link MemLoopConfig#directionsUse}): whether the
 * similarity the namespace learned ({@link Directions}) ranks it, or the plain cosine.
 *
 * <p>The learned similarity discounts the directions in which the intents of successful (query, credited memory)
 * pairs differ. Where an agent mostly follows the plan it is shown, those pairs asked for the same answer and what they
 * differ in is wording; where it mostly wins by exploring with what the failure notes say, the credited memory is
 * merely the first success shown, the pairs did not ask for the same thing, and the learned similarity discounts what
 * tells the tasks apart (a house, a room). Which holds is a property of the namespace, so each namespace learns it
 * from its rewards, as {@link Doubt} does: probability matching between the two arms (the chance that the learned
 * similarity has the higher success rate given each arm's rewarded episodes, ½ before any), drawn only where the two
 * would show different memories, or the same in another order, so that each arm's record is of like episodes.
 *
 * <p>The arm drawn is kept with the retrieval as annotation {@value #ANNOTATION} (version {@value #VERSION}): one
 * byte, {@link #LEARNED} or {@link #COSINE}; no annotation when there was no draw. The reward adds it to ledger entry
 * {@value #LEDGER_KEY}: {@code [learned-similarity episodes, their summed reward in [0, 1], cosine episodes, their
 * summed reward]}.
 *
 * <p>Randomness: one {@code nextDouble} exactly when the two arms differ; a draw below {@code 1 − p} takes the cosine,
 * so a source that never draws ({@link SelectionPipeline#explain}) keeps the learned similarity. Stateless and
 * thread-safe.
 */
public final class DirectionsUse {
  /** The ledger entry of a namespace's two arms. */
  public static final String LEDGER_KEY = "v";
  /** The annotation's name. */
  public static final String ANNOTATION = "similarity";
  /** The annotation's data layout version. */
  public static final int VERSION = 1;
  /** A retrieval whose draw ranked by the plain cosine. */
  public static final int COSINE = 0;
  /** A retrieval whose draw ranked by the learned similarity. */
  public static final int LEARNED = 1;
  /** No draw: no learned similarity, a task with a record, or both arms show the same. */
  public static final int NO_DRAW = Arms.NO_DRAW;

  private DirectionsUse() {}

  /** Whether a namespace under {@code config} draws: {@link MemLoopConfig.DirectionsUse#LEARNED} and per-task learning on. */
  public static boolean on(MemLoopConfig config) {
    return config.directionsUse() == MemLoopConfig.DirectionsUse.LEARNED && config.taskLearning().perTask();
  }

  /** {@code annotations} with the arm drawn ({@link #COSINE} or {@link #LEARNED}). */
  public static Annotations into(Annotations annotations, int arm) {
    return Arms.into(annotations, ANNOTATION, VERSION, arm);
  }

  /**
   * The arm a retrieval drew: {@link #COSINE}, {@link #LEARNED}, or {@link #NO_DRAW} when its annotations hold no draw
   * (or one this build does not read).
   */
  public static int drawn(Annotations annotations) {
    return Arms.drawn(annotations, ANNOTATION, VERSION);
  }

  /**
   * Ledger entry {@value #LEDGER_KEY} after one rewarded retrieval that drew {@code arm}.
   *
   * @param entry the entry before (null: none yet)
   * @param unit the reward scaled to [0, 1]
   */
  public static double[] update(double @Nullable [] entry, int arm, double unit) {
    if (arm != COSINE && arm != LEARNED) {
      throw new IllegalArgumentException("arm must be COSINE (0) or LEARNED (1), got " + arm);
    }
    return Arms.add(entry, arm == LEARNED, unit);
  }
}
