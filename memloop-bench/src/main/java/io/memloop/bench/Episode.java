package io.memloop.bench;

import io.memloop.chat.ChatMessage;
import java.util.List;

/**
 * The verified result of one attempt at a task.
 *
 * @param success whether the environment's check against the hidden answer passed
 * @param reward the reward the memory is trained with (MemRL: +1 success, −1 failure)
 * @param experience the distilled experience to remember: what worked, or what went wrong and what to
 *     avoid (MemRL stores both)
 * @param transcript the conversation with the LLM policy; empty for the frozen policy
 */
public record Episode(Task task, boolean success, double reward, String experience, List<ChatMessage> transcript) {
  /** An episode of the frozen policy: no conversation. */
  public Episode(Task task, boolean success, double reward, String experience) {
    this(task, success, reward, experience, List.of());
  }

  public Episode {
    transcript = List.copyOf(transcript);
    if (!Double.isFinite(reward)) {
      throw new IllegalArgumentException("reward must be finite, got " + reward + " for task " + task.id());
    }
    if (experience.isBlank()) {
      throw new IllegalArgumentException("experience must not be blank for task " + task.id());
    }
  }
}
