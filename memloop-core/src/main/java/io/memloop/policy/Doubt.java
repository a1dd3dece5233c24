package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.store.Annotations;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The end of step 4 of Phase B ({@link TaskOrder}, before {@link Explore}), for a task with no record of its own
 * ({@link MemLoopConfig#doubt}): success experiences whose
 * latest use failed ({@link TaskView#doubted}) are shown after every other eligible candidate, on a draw.
 *
 * <p>A success that an agent followed and failed with is either right for its own kind and wrong for a look-alike, or
 * wrong now. Whether a new task does better shown it first or shown the rest first is a property of the namespace,
 * not of the memory: where an agent without a fitting plan still finds its way (it explores with what the failure
 * notes tell it), following a plan that misleads costs it the attempt, and the doubted are better last; where an
 * agent without the right plan fails anyway, a doubted success is more often right for the asker than anything behind
 * it, and is better where similarity put it. So each namespace learns it from its rewards, as {@link NoteDepth} learns
 * how much of a note to show: probability matching between the two arms (the chance that demoting has the higher
 * success rate given each arm's rewarded episodes, ½ before any), drawn only where the two orders would show different
 * memories, so that each arm's record is of like episodes; and, as {@link Freshness}, only where tasks seldom come
 * back ({@link #probability}, {@link TaskView#doubtProbability}).
 *
 * <p>{@link MemLoopConfig.Doubt#NOTES_FIRST} (the default preset's) widens the demoted arm to every success: the
 * failure notes first, then the successes, each part in its order. A look-alike's plan that nothing has doubted yet
 * misleads as much as a doubted one, and where agents find their way with what the notes say (where a thing is, what
 * a service answers), a new task does better shown the notes before any plan; where plans are what helps, the kept
 * arm wins the draw. It draws wherever the two orders differ, with no doubted success needed. On that arm, where
 * tasks seldom come back, each part is put newer first ({@link #newerFirstInParts}, {@link Freshness}' weight) unless a
 * stale success already reordered the pool: a note tells how the world was when it was written.
 *
 * <p>The arm drawn is kept with the retrieval as annotation {@value #ANNOTATION} (version {@value #VERSION}): one byte,
 * {@link #KEPT} or {@link #DEMOTED}; no annotation when there was no draw. The reward adds it to ledger entry
 * {@value #LEDGER_KEY}: {@code [demoted episodes, their summed reward in [0, 1], kept episodes, their summed reward]}.
 *
 * <p>Ties: the demoted keep their order among themselves, as do the rest. Randomness: one {@code nextDouble} exactly
 * when the two orders differ in what they show. Stateless and thread-safe.
 */
public final class Doubt {
  /** The ledger entry of a namespace's two arms. */
  public static final String LEDGER_KEY = "s";
  /** The annotation's name. */
  public static final String ANNOTATION = "doubt";
  /** The annotation's data layout version. */
  public static final int VERSION = 1;
  /** A retrieval whose draw kept the doubted where similarity put them. */
  public static final int KEPT = 0;
  /** A retrieval whose draw showed the doubted after the rest. */
  public static final int DEMOTED = 1;
  /** No draw: no doubted success, or both orders show the same. */
  public static final int NO_DRAW = Arms.NO_DRAW;

  private Doubt() {}

  /**
   * The chance that a new task whose two orders differ is shown the doubted last: {@code pays × (1 − recurrence)}, where
   * {@code pays} is the chance that demoting has the higher success rate given each arm's episodes and {@code
   * recurrence} the namespace's share of rewarded retrievals made by a task rewarded before ({@link
   * TaskView#recurrence}). Where tasks come back, a success that failed was more often tried by a look-alike task
   * than wrong for the asker (the asker's own success, which a paraphrase of it should see first), as for
   * {@link Freshness}; where every task is new, the namespace's evidence alone decides.
   */
  public static double probability(double pays, double recurrence) {
    return pays * (1 - recurrence);
  }

  /**
   * Whether a namespace under {@code config} draws: {@link MemLoopConfig.Doubt#LEARNED} or
   * {@link MemLoopConfig.Doubt#NOTES_FIRST}, and per-task learning on.
   */
  public static boolean on(MemLoopConfig config) {
    return config.doubt() != MemLoopConfig.Doubt.OFF && config.taskLearning().perTask();
  }

  /** Whether the arm drawn against the ranking shows every success after the notes ({@link MemLoopConfig.Doubt#NOTES_FIRST}). */
  public static boolean notesFirst(MemLoopConfig config) {
    return config.doubt() == MemLoopConfig.Doubt.NOTES_FIRST;
  }

  /**
   * The order with the doubted successes among the eligible {@code order[0..m)} moved after the other eligible ones
   * (each part keeping its order; the dropped {@code order[m..)} untouched), or null when no eligible candidate is a
   * doubted success.
   *
   * @param all whether every success counts as doubted ({@link MemLoopConfig.Doubt#NOTES_FIRST}): the notes first
   */
  static int @Nullable [] demoted(List<PoolEntry> pool, int[] order, int m, Set<String> doubted, boolean all) {
    if (doubted.isEmpty() && !all) {
      return null;
    }
    Set<String> demote = all ? null : doubted;
    int[] out = order.clone();
    int a = 0;
    int demoted = 0;
    for (int r = 0; r < m; r++) {
      if (!isDoubted(pool.get(order[r]), demote)) {
        out[a++] = order[r];
      }
    }
    for (int r = 0; r < m; r++) {
      if (isDoubted(pool.get(order[r]), demote)) {
        out[a++] = order[r];
        demoted++;
      }
    }
    return demoted == 0 ? null : out;
  }

  /** Whether {@code e} is a success in {@code doubted}; with {@code doubted} null, whether it is a success at all. */
  static boolean isDoubted(PoolEntry e, @Nullable Set<String> doubted) {
    return e.outcome() == Outcome.SUCCESS && (doubted == null || doubted.contains(e.id()));
  }

  /**
   * Whether the notes-first arm is put newer first within its parts ({@link #newerFirstInParts}): where tasks seldom
   * come back ({@code freshness}, {@link Freshness#weight}, above 0), unless {@code stale}, a stale success, already made
   * {@link Freshness} put the newer first over the whole pool.
   */
  static boolean newerFirstOnArm(@Nullable PoolEntry stale, double freshness) {
    return stale == null && freshness > 0;
  }

  /**
   * On the notes-first arm, where tasks seldom come back: the notes ({@code order[0..notes)}) and the successes after
   * them ({@code order[notes..m)}) each reordered newer first by {@link Freshness#reorder} with {@code weight}, so that
   * what went wrong most recently, and the newest plans, come first within their part. What a note says of the world
   * (where a thing is, what a service answers) may have changed since; the newest notes say it as it is now.
   */
  static void newerFirstInParts(List<PoolEntry> pool, int[] order, int m, double[] score, double weight) {
    int notes = 0;
    while (notes < m && !isDoubted(pool.get(order[notes]), null)) {
      notes++;
    }
    int[] part = Arrays.copyOfRange(order, 0, notes);
    Freshness.reorder(pool, part, notes, score, weight);
    System.arraycopy(part, 0, order, 0, notes);
    part = Arrays.copyOfRange(order, notes, m);
    Freshness.reorder(pool, part, m - notes, score, weight);
    System.arraycopy(part, 0, order, notes, m - notes);
  }

  /** Whether the first {@code take} of {@code a} and {@code b} differ (in what is shown, or in its order). */
  static boolean differ(int[] a, int[] b, int take) {
    for (int r = 0; r < take; r++) {
      if (a[r] != b[r]) {
        return true;
      }
    }
    return false;
  }

  /** {@code annotations} with the arm drawn ({@link #KEPT} or {@link #DEMOTED}). */
  public static Annotations into(Annotations annotations, int arm) {
    return Arms.into(annotations, ANNOTATION, VERSION, arm);
  }

  /**
   * The arm a retrieval drew: {@link #KEPT}, {@link #DEMOTED}, or {@link #NO_DRAW} when its annotations hold no draw
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
    if (arm != KEPT && arm != DEMOTED) {
      throw new IllegalArgumentException("arm must be KEPT (0) or DEMOTED (1), got " + arm);
    }
    return Arms.add(entry, arm == DEMOTED, unit);
  }
}
