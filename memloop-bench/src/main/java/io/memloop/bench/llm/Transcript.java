package io.memloop.bench.llm;

import io.memloop.chat.ChatMessage;
import java.util.List;

/**
 * One episode's conversation with the LLM policy, with where it happened: what {@code
 * transcripts.jsonl} holds, one per line, so a run can be read back turn by turn.
 *
 * @param epoch 1-based; {@code epochs + 1} for the held-out (transfer) pass
 * @param messages the whole conversation: system prompt, task with the experiences shown, every
 *     reply, correction and observation, in order
 */
public record Transcript(
    String environment, String strategy, long seed, int epoch, String taskId, boolean success,
    List<ChatMessage> messages) {
  public Transcript {
    messages = List.copyOf(messages);
  }
}
