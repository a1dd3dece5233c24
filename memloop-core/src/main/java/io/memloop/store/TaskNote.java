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
 */
public record TaskNote(String context, String explored, boolean explorable, String assumedUsed) {
  /** No per-task learning. */
  public static final TaskNote NONE = new TaskNote("", "", false, "");

  public TaskNote {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(explored, "explored");
    Objects.requireNonNull(assumedUsed, "assumedUsed");
  }

  /** A note without an assumed-used memory. */
  public TaskNote(String context, String explored, boolean explorable) {
    this(context, explored, explorable, "");
  }

  public boolean isNone() {
    return context.isEmpty() && explored.isEmpty() && !explorable && assumedUsed.isEmpty();
  }

  /** The same note with {@code assumedUsed} set. */
  public TaskNote withAssumedUsed(String memoryId) {
    return new TaskNote(context, explored, explorable, memoryId);
  }
}
