package io.memloop.chat;

import io.memloop.MemLoopException;
import java.util.Locale;

/**
 * One message of a conversation with a chat model.
 *
 * @param role who says it
 * @param content what is said; may be empty (an assistant turn that said nothing), never null
 */
public record ChatMessage(Role role, String content) {

  /** The speakers of the OpenAI chat format. */
  public enum Role {
    /** Instructions that frame the whole conversation. */
    SYSTEM,
    /** The caller: task, observations, corrections. */
    USER,
    /** The model's earlier replies. */
    ASSISTANT;

    /** The name on the wire: {@code system}, {@code user}, {@code assistant}. */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public ChatMessage {
    if (role == null) {
      throw MemLoopException.invalid("role", "must not be null");
    }
    if (content == null) {
      throw MemLoopException.invalid("content", "must not be null");
    }
  }

  public static ChatMessage system(String content) {
    return new ChatMessage(Role.SYSTEM, content);
  }

  public static ChatMessage user(String content) {
    return new ChatMessage(Role.USER, content);
  }

  public static ChatMessage assistant(String content) {
    return new ChatMessage(Role.ASSISTANT, content);
  }
}
