package io.memloop.chat;

import java.util.List;

/**
 * A language model that answers conversations.
 *
 * <p><b>Thread safety:</b> implementations must allow concurrent calls; each call is one
 * independent request.
 *
 * <p>Failures are reported as {@link io.memloop.MemLoopException} with reason {@code MODEL_FAILED}
 * (after the implementation's own retries), or {@code INVALID_ARGUMENT} for a bad conversation.
 */
public interface ChatModel extends AutoCloseable {

  /** A stable name of the model, recorded in reports (e.g. {@code openai:qwen2.5:7b}). */
  String modelId();

  /**
   * The model's reply to {@code messages}.
   *
   * @param messages the conversation so far, oldest first; not empty
   * @param seed asks the server to sample reproducibly; servers that do not support it ignore it
   */
  ChatReply complete(List<ChatMessage> messages, long seed);

  @Override
  default void close() {}
}
