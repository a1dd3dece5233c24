package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Step 6 of Phase B: how much of a long merged failure note ({@link MemLoopConfig.Consolidation#MERGE_FAILURES})
 * the task is shown: every attempt it lists, or only the newest k2, as many as k2 separate notes would show, as
 * {@link MemLoopConfig#noteDepth} says. Older attempts are more evidence and also older: which serves the agent
 * better differs from one kind of task to another, so under {@link MemLoopConfig.NoteDepth#LEARNED} each namespace
 * learns it, by a draw with the probability that the full note succeeds more often
 * ({@link TaskView#fullNoteProbability}). The draw needs per-task learning's record: without it a {@code LEARNED}
 * depth shows notes whole.
 *
 * <p>Ties: none; one decision for all selected notes. Randomness: one {@code nextDouble} exactly when the depth is
 * {@code LEARNED} and a selected failure note lists more than k2 attempts. Stateless and thread-safe.
 */
final class NoteDepth {
  private NoteDepth() {}

  /**
   * Replaces the shortened notes in {@code selected}.
   *
   * @param selected the selected memories in the order shown; replaced in place
   * @return {@link TaskNote#WHOLE} or {@link TaskNote#NEWEST} as drawn, or {@link TaskNote#NO_DRAW} when there
   *     was no draw (a fixed depth, or no selected note lists more than k2 attempts)
   */
  static int apply(List<Memory> selected, MemLoopConfig config, @Nullable TaskView task, RandomGenerator random) {
    MemLoopConfig.NoteDepth depth =
        task == null && config.noteDepth() == MemLoopConfig.NoteDepth.LEARNED ? MemLoopConfig.NoteDepth.WHOLE
            : config.noteDepth();
    return apply(selected, config.k2(), depth, task == null ? 1 : task.fullNoteProbability(), random);
  }

  private static int apply(
      List<Memory> selected, int k2, MemLoopConfig.NoteDepth depth, double pFull, RandomGenerator random) {
    if (depth == MemLoopConfig.NoteDepth.WHOLE) {
      return TaskNote.NO_DRAW;
    }
    List<List<String>> attempts = new ArrayList<>(selected.size()); // of each selected failure note, once
    boolean anyLong = false;
    for (Memory mem : selected) {
      List<String> parts = mem.outcome() == Outcome.FAILURE ? mem.parts() : List.of();
      attempts.add(parts);
      anyLong |= parts.size() > k2;
    }
    if (!anyLong) {
      return TaskNote.NO_DRAW;
    }
    boolean learned = depth == MemLoopConfig.NoteDepth.LEARNED;
    if (learned && random.nextDouble() < pFull) {
      return TaskNote.WHOLE;
    }
    for (int i = 0; i < selected.size(); i++) {
      if (attempts.get(i).size() > k2) {
        selected.set(i, selected.get(i).withExperience(Memory.joinParts(attempts.get(i), k2)));
      }
    }
    return learned ? TaskNote.NEWEST : TaskNote.NO_DRAW;
  }
}
