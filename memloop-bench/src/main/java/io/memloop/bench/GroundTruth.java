package io.memloop.bench;

import io.memloop.Memory;

/**
 * What only the oracle strategy may read: whether a stored memory truly helps a task. Kept apart from
 * {@link Environment} so that no other strategy can reach ground truth through the interface it
 * uses (honesty check of the benchmark).
 *
 * <p>Implementations are deterministic, thread-safe and judge from the memory's experience text the
 * way the environment's frozen policy reads it.
 */
public interface GroundTruth {

  /**
   * Whether showing {@code memory} first (alone) would lead the frozen policy to the correct answer
   * for {@code task}, ignoring the policy's random slips.
   */
  boolean helps(Task task, Memory memory);

  /**
   * Whether {@code memory} would mislead the policy on {@code task}: a success experience (a plan,
   * a verified answer, a working query) that does not help this task, so a policy that copies it goes
   * wrong. Failure notes never mislead: they name something to avoid. Judged from the memory's stored
   * outcome, which only ground-truth code reads (policies read the experience text alone).
   */
  static boolean misleads(GroundTruth truth, Task task, Memory memory) {
    return memory.outcome() == io.memloop.Outcome.SUCCESS && !truth.helps(task, memory);
  }
}
