package io.memloop.chat;

/**
 * A chat model's answer.
 *
 * @param content the text of the first choice ({@code ""} when the model said nothing)
 * @param finishReason why generation stopped as the server says it ({@code stop}, {@code length},
 *     ...), {@code ""} when the server does not say
 * @param promptTokens tokens the server counted in the prompt, 0 when it does not report usage
 * @param completionTokens tokens it generated, 0 when it does not report usage
 */
public record ChatReply(String content, String finishReason, int promptTokens, int completionTokens) {
  public ChatReply {
    if (content == null || finishReason == null) {
      throw new IllegalArgumentException("content and finishReason must not be null");
    }
    if (promptTokens < 0 || completionTokens < 0) {
      throw new IllegalArgumentException(
          "token counts must not be negative, got " + promptTokens + " and " + completionTokens);
    }
  }

  /** Whether the reply was cut by the token limit rather than ended by the model. */
  public boolean truncated() {
    return finishReason.equals("length");
  }
}
