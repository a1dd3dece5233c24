package io.memloop.store;

import java.util.Objects;

/**
 * What per-task learning needs to know about a retrieval when its reward arrives (see
 * {@link io.memloop.MemLoopConfig.TaskLearning}): which task asked, whether it could explore (it kept
 * failing, had exploration budget left and a memory to try), and which memory, if any, was shown to
 * explore.
 *
 * @param context the task's key ({@code ""} when per-task learning is off)
 * @param explored id of the memory shown to explore ({@code ""} if none)
 * @param explorable whether the task could explore at this retrieval (whether or not it did)
 * @param assumedUsed the memory credited when the agent does not say which it used: the highest-ranked
 *     selected success experience ({@code ""} if none was selected)
 * @param noteDepth how much of a long merged failure note was shown, by a draw the reward is compared under:
 *     {@link #WHOLE}, {@link #NEWEST} (its newest k2 attempts), or {@link #NO_DRAW} (no selected note was
 *     longer than k2)
 */
public record TaskNote(String context, String explored, boolean explorable, String assumedUsed, int noteDepth) {
  /** {@link #noteDepth}: no draw. */
  public static final int NO_DRAW = -1;
  /** {@link #noteDepth}: the long notes were shown as their newest k2 attempts. */
  public static final int NEWEST = 0;
  /** {@link #noteDepth}: the long notes were shown whole. */
  public static final int WHOLE = 1;

  /** No per-task learning. */
  public static final TaskNote NONE = new TaskNote("", "", false, "");

  public TaskNote {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(explored, "explored");
    Objects.requireNonNull(assumedUsed, "assumedUsed");
    if (noteDepth < NO_DRAW || noteDepth > WHOLE) {
      throw new IllegalArgumentException("noteDepth must be -1, 0 or 1, got " + noteDepth);
    }
  }

  /** A note without a note-depth draw. */
  public TaskNote(String context, String explored, boolean explorable, String assumedUsed) {
    this(context, explored, explorable, assumedUsed, NO_DRAW);
  }

  /** A note without an assumed-used memory or a note-depth draw. */
  public TaskNote(String context, String explored, boolean explorable) {
    this(context, explored, explorable, "");
  }

  public boolean isNone() {
    return context.isEmpty() && explored.isEmpty() && !explorable && assumedUsed.isEmpty() && noteDepth == NO_DRAW;
  }

  /** The same note with {@code assumedUsed} set. */
  public TaskNote withAssumedUsed(String memoryId) {
    return new TaskNote(context, explored, explorable, memoryId, noteDepth);
  }

  /** The same note with {@code noteDepth} set. */
  public TaskNote withNoteDepth(int depth) {
    return new TaskNote(context, explored, explorable, assumedUsed, depth);
  }
}
