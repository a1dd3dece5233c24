package io.memloop.embeddings;

import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What the builders of both OpenAI-compatible clients ({@link OpenAiEmbedder.Builder}, {@link
 * OpenAiChatModel.Builder}) share: where the server is, which model, the key, the timeout and the
 * retries. Each setter rejects a bad value at once with a {@link io.memloop.MemLoopException}
 * naming the field.
 *
 * @param <B> the concrete builder, returned by every setter for chaining
 */
public abstract sealed class OpenAiClientBuilder<B extends OpenAiClientBuilder<B>>
    permits OpenAiEmbedder.Builder, OpenAiChatModel.Builder {
  final OpenAiHttp.Settings settings;

  /**
   * @param path what the client appends to the base URL, e.g. {@code /v1/embeddings}
   * @param defaultTimeout the client's default timeout per attempt
   */
  OpenAiClientBuilder(String path, Duration defaultTimeout) {
    this.settings = new OpenAiHttp.Settings(path, defaultTimeout);
  }

  abstract B self();

  /**
   * Scheme, host, optional port and path prefix, without {@code /v1}: {@code
   * http://localhost:11434} (Ollama), {@code https://api.openai.com}. A trailing slash is ignored.
   */
  public B baseUrl(String baseUrl) {
    settings.baseUrl(baseUrl);
    return self();
  }

  /** The server's model name, e.g. {@code nomic-embed-text} (embeddings) or {@code qwen2.5:7b} (chat). */
  public B model(String model) {
    settings.model(model);
    return self();
  }

  /** Sent as {@code Authorization: Bearer <apiKey>}; {@code null} (the default) sends no header. */
  public B apiKey(@Nullable String apiKey) {
    settings.apiKey(apiKey);
    return self();
  }

  /**
   * Per attempt, for connecting and for the whole response; default 30 s for embeddings, 60 s for
   * chat (a local model may generate slowly, and a first request may wait for the model to load).
   */
  public B requestTimeout(Duration requestTimeout) {
    settings.requestTimeout(requestTimeout);
    return self();
  }

  /** Retries after the first attempt (0 = no retry, at most 20); default 3. */
  public B maxRetries(int maxRetries) {
    settings.maxRetries(maxRetries);
    return self();
  }

  /**
   * Wait before retry n is {@code initial·2^(n−1)}, capped at {@code max}; defaults 500 ms and
   * 8 s. Zero for both retries at once.
   */
  public B retryBackoff(Duration initial, Duration max) {
    settings.retryBackoff(initial, max);
    return self();
  }

  /** Tests record the pauses instead of sleeping through them. */
  B sleeper(Sleeper sleeper) {
    settings.sleeper(sleeper);
    return self();
  }
}
