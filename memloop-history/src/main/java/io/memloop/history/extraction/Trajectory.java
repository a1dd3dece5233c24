package io.memloop.history.extraction;

import io.memloop.MemLoopException;
import io.memloop.Outcome;
import java.util.Objects;

/**
 * One finished attempt of an agent at a task: the task as it was asked, what the agent did (its
 * trajectory, as text: actions, tool calls, observations) and how it ended.
 */
public record Trajectory(String task, String steps, Outcome outcome) {
  public Trajectory {
    if (task == null || task.isBlank()) {
      throw MemLoopException.invalid("task", "must not be empty");
    }
    if (steps == null || steps.isBlank()) {
      throw MemLoopException.invalid("trajectory", "must not be empty");
    }
    Objects.requireNonNull(outcome, "outcome");
  }
}
