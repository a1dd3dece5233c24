package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.store.Annotations;
import org.jspecify.annotations.Nullable;

/**
 * The start of Phase B for a task with no record of its own, where the namespace mixes the texts' similarity in
 * ({@link TextChannel}, {@link MemLoopConfig#textAlone}): whether the texts' similarity alone ranks it, or the mix of
 * the vectors' and the texts' similarities the namespace learned.
 *
 * <p>The mix's weights are learned from how high each similarity ranked the credited memory (the one the agent named,
 * else the first success shown) against the centred reward. Where agents follow the plans they are shown, that
 * credited memory is what made the episode, and the weights go where the help is. Where agents mostly win by exploring
 * with what the failure notes say, the credited memory is merely the first success shown, its ranks foretell little,
 * and the weights drift to whichever similarity happens to rank the shown successes first: on the stream benchmark's
 * text-world with MiniLM they go to the vectors, while the words two tasks share (a house's name, an object) are what
 * makes a failure note's facts fit. Which holds is a property of the namespace, so each namespace learns it from its
 * rewards, as {@link DirectionsUse} does: probability matching between the two arms (the chance that the texts alone
 * have the higher success rate given each arm's rewarded episodes, ½ before any, times the share of the namespace's
 * rewarded retrievals made by new tasks: {@link #probability}), drawn only where the two would show different memories,
 * or the same in another order, so that each arm's record is of like episodes.
 *
 * <p>The arm drawn is kept with the retrieval as annotation {@value #ANNOTATION} (version {@value #VERSION}): one
 * byte, {@link #ALONE} or {@link #MIXED}; no annotation when there was no draw. The reward adds it to ledger entry
 * {@value #LEDGER_KEY}: {@code [texts-alone episodes, their summed reward in [0, 1], mixed episodes, their summed
 * reward]}.
 *
 * <p>Randomness: one {@code nextDouble} exactly when the two arms differ; a draw below {@code p} takes the texts
 * alone, so a source that never draws ({@link SelectionPipeline#explain}) keeps the mix. Stateless and thread-safe.
 */
public final class TextAlone {
  /** The ledger entry of a namespace's two arms. */
  public static final String LEDGER_KEY = "l";
  /** The annotation's name. */
  public static final String ANNOTATION = "text-alone";
  /** The annotation's data layout version. */
  public static final int VERSION = 1;
  /** A retrieval whose draw ranked by the learned mix of the vectors' and the texts' similarities. */
  public static final int MIXED = 0;
  /** A retrieval whose draw ranked by the texts' similarity alone. */
  public static final int ALONE = 1;
  /** No draw: the texts are not mixed in, a task with a record, or both arms show the same. */
  public static final int NO_DRAW = Arms.NO_DRAW;
  /** The weights of the vectors' and the texts' similarity ({@link TextChannel}) when the texts rank alone. */
  static final double[] ALONE_WEIGHTS = {0, 1};

  private TextAlone() {}

  /**
   * The chance that a new task whose two rankings differ is ranked by the texts alone: {@code pays × (1 −
   * recurrence)}, where {@code pays} is the chance that the texts alone have the higher success rate given each arm's
   * episodes and {@code recurrence} the namespace's share of rewarded retrievals made by a task rewarded before
   * ({@link TaskView#recurrence}). The draw's record is made of new tasks only; where tasks come back those are few
   * and mostly the namespace's first episodes, made while it held little, and the learned mix stays the ranking (on
   * the MemRL protocol's text-world with MiniLM, the texts alone at ½ cost unseen tasks 0.07 to 0.13 on each of five
   * seeds); where every task is new, the namespace's evidence alone decides, as for {@link Doubt}.
   */
  public static double probability(double pays, double recurrence) {
    return pays * (1 - recurrence);
  }

  /**
   * Whether a namespace under {@code config} draws: {@link MemLoopConfig.TextAlone#LEARNED} and per-task learning on
   * (the texts are mixed in only then; {@link TextChannel#active} tells it per retrieval).
   */
  public static boolean on(MemLoopConfig config) {
    return config.textAlone() == MemLoopConfig.TextAlone.LEARNED && config.taskLearning().perTask();
  }

  /** {@code annotations} with the arm drawn ({@link #MIXED} or {@link #ALONE}). */
  public static Annotations into(Annotations annotations, int arm) {
    return Arms.into(annotations, ANNOTATION, VERSION, arm);
  }

  /**
   * The arm a retrieval drew: {@link #MIXED}, {@link #ALONE}, or {@link #NO_DRAW} when its annotations hold no draw
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
    if (arm != MIXED && arm != ALONE) {
      throw new IllegalArgumentException("arm must be MIXED (0) or ALONE (1), got " + arm);
    }
    return Arms.add(entry, arm == ALONE, unit);
  }
}
