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
 */
public record TaskNote(String context, String explored, boolean explorable) {
  /** No per-task learning. */
  public static final TaskNote NONE = new TaskNote("", "", false);

  public TaskNote {
    Objects.requireNonNull(context, "context");
    Objects.requireNonNull(explored, "explored");
  }

  public boolean isNone() {
    return context.isEmpty() && explored.isEmpty() && !explorable;
  }
}
