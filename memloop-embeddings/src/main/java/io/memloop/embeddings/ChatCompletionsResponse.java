package io.memloop.embeddings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.chat.ChatReply;
import io.memloop.embeddings.OpenAiHttp.MalformedBodyException;

/**
 * Parses the body of an OpenAI-style {@code /v1/chat/completions} response (not streamed):
 * {@code {"choices": [{"message": {"role": "assistant", "content": "..."}, "finish_reason": "stop"}],
 * "usage": {"prompt_tokens": 12, "completion_tokens": 34}}}. Only the first choice is read; the id,
 * model, timestamps and any further choices vary between servers and are ignored.
 */
final class ChatCompletionsResponse {

  private ChatCompletionsResponse() {}

  /**
   * The first choice as a {@link ChatReply}: a null or absent {@code content} (a reply of only tool
   * calls, or a refusal) is {@code ""}, an absent {@code finish_reason} is {@code ""}, absent usage
   * counts are 0. The content is returned verbatim, including any leading {@code <think>} block.
   *
   * @throws MalformedBodyException if the body is not JSON, has no {@code choices[0].message}
   *     object, or a field present has the wrong type (content not a string, a token count not a
   *     non-negative integer)
   */
  static ChatReply parse(ObjectMapper json, byte[] body) throws MalformedBodyException {
    JsonNode root = OpenAiHttp.readJson(json, body);
    JsonNode choices = root.path("choices");
    if (!choices.isArray() || choices.isEmpty()) {
      throw new MalformedBodyException("no choices[0]");
    }
    JsonNode choice = choices.get(0);
    JsonNode message = choice.path("message");
    if (!message.isObject()) {
      throw new MalformedBodyException("no choices[0].message object");
    }
    JsonNode usage = root.path("usage");
    return new ChatReply(
        text(message.path("content"), "choices[0].message.content"),
        text(choice.path("finish_reason"), "choices[0].finish_reason"),
        count(usage.path("prompt_tokens"), "usage.prompt_tokens"),
        count(usage.path("completion_tokens"), "usage.completion_tokens"));
  }

  private static String text(JsonNode node, String name) throws MalformedBodyException {
    if (node.isMissingNode() || node.isNull()) {
      return "";
    }
    if (!node.isTextual()) {
      throw new MalformedBodyException(name + " is " + node.getNodeType() + ", expected a string");
    }
    return node.asText();
  }

  private static int count(JsonNode node, String name) throws MalformedBodyException {
    if (node.isMissingNode() || node.isNull()) {
      return 0;
    }
    if (!node.canConvertToExactIntegral() || !node.canConvertToInt() || node.intValue() < 0) {
      throw new MalformedBodyException(name + " is " + node + ", expected a non-negative integer");
    }
    return node.intValue();
  }
}
