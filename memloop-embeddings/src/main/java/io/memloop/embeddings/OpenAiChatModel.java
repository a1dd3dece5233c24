package io.memloop.embeddings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import io.memloop.chat.ChatMessage;
import io.memloop.chat.ChatModel;
import io.memloop.chat.ChatReply;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Client for an OpenAI-compatible chat endpoint, {@code POST {baseUrl}/v1/chat/completions}, as
 * served by OpenAI, Ollama, vLLM and others. Each {@link #complete} call is one request, not
 * streamed:
 *
 * <pre>{@code
 * {"model": "...", "messages": [{"role": "system", "content": "..."}, ...],
 *  "temperature": 0.0, "max_tokens": 512, "seed": 42, "stream": false}
 * }</pre>
 *
 * <p>The reply is the first choice: {@code choices[0].message.content} ({@code ""} when null or
 * absent), {@code choices[0].finish_reason} ({@code ""} when absent) and {@code usage.prompt_tokens}
 * / {@code usage.completion_tokens} (0 when absent). The content is returned verbatim: reasoning
 * models served through Ollama (DeepSeek-R1, Qwen3) start it with a {@code <think>...</think>}
 * block, which is <em>not</em> stripped here, so callers that parse the answer must skip it
 * themselves. A reply cut by {@link Builder#maxTokens} has finish reason {@code length} (see
 * {@link ChatReply#truncated()}), and with a reasoning model may hold nothing but the unfinished
 * thinking.
 *
 * <p><b>Failures:</b> HTTP 408, 429 and 5xx and I/O errors (including timeouts and refused
 * connections) are retried up to {@link Builder#maxRetries} times with exponential backoff,
 * honouring a {@code Retry-After} of whole seconds up to the maximum backoff. Other statuses and
 * an unusable body (not JSON, no {@code choices[0].message}) fail at once. Every failure is a
 * {@link MemLoopException} with reason {@code MODEL_FAILED} whose message carries the URL, the HTTP
 * status, the server's {@code error.message} when the body is OpenAI's error JSON, the first 200
 * characters of the body and the attempt count; never the API key. An interrupt ends the call with
 * {@code MODEL_FAILED} and leaves the thread's interrupt flag set.
 *
 * <p><b>Thread safety:</b> immutable apart from the JDK {@link java.net.http.HttpClient}, which is
 * thread-safe; concurrent calls are independent requests.
 */
public final class OpenAiChatModel implements ChatModel {

  private static final ObjectMapper JSON = OpenAiHttp.JSON;

  private final URI endpoint;
  private final String model;
  private final double temperature;
  private final int maxTokens;
  private final OpenAiHttp http;

  private OpenAiChatModel(Builder b) {
    this.endpoint = b.settings.endpoint();
    this.model = b.settings.model();
    this.temperature = b.temperature;
    this.maxTokens = b.maxTokens;
    this.http = new OpenAiHttp(b.settings, Reason.MODEL_FAILED, true);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code "openai:" + model}: the protocol and the server's model name. */
  @Override
  public String modelId() {
    return "openai:" + model;
  }

  /** The full URL requests go to: {@code {baseUrl}/v1/chat/completions}. */
  public URI endpoint() {
    return endpoint;
  }

  /**
   * The model's reply to {@code messages}, sampled with {@code seed}.
   *
   * @throws MemLoopException {@code INVALID_ARGUMENT} for an empty conversation (field {@code
   *     messages}) or a null message (field {@code messages[i]}), {@code MODEL_FAILED} for a failed
   *     or unusable response, or if the model is closed
   */
  @Override
  public ChatReply complete(List<ChatMessage> messages, long seed) {
    if (messages == null || messages.isEmpty()) {
      throw MemLoopException.invalid("messages", "must not be empty");
    }
    for (int i = 0; i < messages.size(); i++) {
      if (messages.get(i) == null) {
        throw MemLoopException.invalid("messages[" + i + "]", "must not be null");
      }
    }
    http.requireOpen("chat model for " + endpoint);
    String what = "POST " + endpoint + " (model=" + model + ", " + messages.size()
        + (messages.size() == 1 ? " message)" : " messages)");
    return http.postJson(endpoint, requestBody(messages, seed), what, body -> ChatCompletionsResponse.parse(JSON, body));
  }

  private byte[] requestBody(List<ChatMessage> messages, long seed) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    ArrayNode array = body.putArray("messages");
    for (ChatMessage m : messages) {
      array.addObject().put("role", m.role().wireName()).put("content", m.content());
    }
    body.put("temperature", temperature);
    body.put("max_tokens", maxTokens);
    body.put("seed", seed);
    body.put("stream", false);
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new AssertionError("serialising a tree of strings and numbers cannot fail", e);
    }
  }

  /** Releases the HTTP client after in-flight requests finish. Idempotent. */
  @Override
  public void close() {
    http.close();
  }

  @Override
  public String toString() {
    // Deliberately without the API key.
    return "OpenAiChatModel[" + endpoint + ", model=" + model + ", temperature=" + temperature
        + ", maxTokens=" + maxTokens + "]";
  }

  /**
   * Fail-fast builder: each setter rejects a bad value at once, naming the field; {@link #build()}
   * names the first missing required one. Required: {@link #baseUrl}, {@link #model}.
   */
  public static final class Builder extends OpenAiClientBuilder<Builder> {
    private double temperature = 0;
    private int maxTokens = 512;

    private Builder() {
      super("/v1/chat/completions", Duration.ofSeconds(60));
    }

    @Override
    Builder self() {
      return this;
    }

    /**
     * Sampling temperature, 0 to 2; default 0 (the most likely token, as reproducible as the
     * server allows).
     */
    public Builder temperature(double temperature) {
      if (!(temperature >= 0 && temperature <= 2)) {
        throw MemLoopException.invalid("temperature", "must be in [0, 2], got " + temperature);
      }
      this.temperature = temperature;
      return this;
    }

    /**
     * Most tokens the model may generate per reply, sent as {@code max_tokens}, 1 to 32768;
     * default 512. Reasoning models spend part of it thinking.
     */
    public Builder maxTokens(int maxTokens) {
      if (maxTokens < 1 || maxTokens > 32_768) {
        throw MemLoopException.invalid("maxTokens", "must be in [1, 32768], got " + maxTokens);
      }
      this.maxTokens = maxTokens;
      return this;
    }

    public OpenAiChatModel build() {
      settings.requireBaseUrlAndModel("qwen2.5:7b");
      return new OpenAiChatModel(this);
    }
  }
}
