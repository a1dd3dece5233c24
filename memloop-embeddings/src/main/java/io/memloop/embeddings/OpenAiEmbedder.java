package io.memloop.embeddings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import io.memloop.embed.Embedder;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Client for an OpenAI-compatible embeddings endpoint, {@code POST {baseUrl}/v1/embeddings}, as
 * served by OpenAI, Ollama, vLLM and others. Inputs are sent in batches of {@link
 * Builder#batchSize} texts, one batch after another; the answers are reassembled in input order
 * from {@code data[].index}.
 *
 * <p><b>Failures:</b> HTTP 408, 429 and 5xx and I/O errors (including timeouts and refused
 * connections) are retried up to {@link Builder#maxRetries} times with exponential backoff,
 * honouring a {@code Retry-After} of whole seconds up to the maximum backoff. Other statuses, an
 * unusable body and a vector of the wrong length fail at once. Every failure is a {@link
 * MemLoopException} with reason {@code EMBEDDING_FAILED} whose message carries the URL, the HTTP
 * status, the first 200 characters of the body and the attempt count; never the API key.
 *
 * <p><b>Thread safety:</b> immutable apart from the JDK {@link HttpClient}, which is thread-safe;
 * concurrent calls are independent requests.
 */
public final class OpenAiEmbedder implements Embedder {

  /** Body characters quoted in error messages: enough for a server's error JSON, not a whole page. */
  static final int BODY_EXCERPT_CHARS = 200;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final URI endpoint;
  private final String model;
  private final @Nullable String apiKey;
  private final int dimension;
  private final int batchSize;
  private final Duration requestTimeout;
  private final int maxRetries;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Sleeper sleeper;
  private final HttpClient http;
  private volatile boolean closed;

  private OpenAiEmbedder(Builder b) {
    this.endpoint = URI.create(Objects.requireNonNull(b.baseUrl) + "/v1/embeddings");
    this.model = Objects.requireNonNull(b.model);
    this.apiKey = b.apiKey;
    this.dimension = b.dimension;
    this.batchSize = b.batchSize;
    this.requestTimeout = b.requestTimeout;
    this.maxRetries = b.maxRetries;
    this.initialBackoff = b.initialBackoff;
    this.maxBackoff = b.maxBackoff;
    this.sleeper = b.sleeper;
    this.http =
        HttpClient.newBuilder()
            // HTTP/1.1: embedding servers (Ollama, vLLM behind uvicorn) speak it, and the default
            // would first try an h2c upgrade on every plain-http connection.
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(requestTimeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public int dimension() {
    return dimension;
  }

  /** {@code "openai:" + model}: the protocol and the server's model name. */
  @Override
  public String modelId() {
    return "openai:" + model;
  }

  /** The full URL requests go to: {@code {baseUrl}/v1/embeddings}. */
  public URI endpoint() {
    return endpoint;
  }

  /**
   * Embeddings of {@code texts}, in order, as returned by the server (not normalised here).
   *
   * @throws MemLoopException {@code INVALID_ARGUMENT} for a blank text (the field names its index),
   *     {@code EMBEDDING_FAILED} for a failed or unusable response, or if the embedder is closed
   */
  @Override
  public List<float[]> embedAll(List<String> texts) {
    Texts.requireNonBlank(texts);
    if (closed) {
      throw new MemLoopException(Reason.EMBEDDING_FAILED, "", "embedder for " + endpoint + " is closed");
    }
    if (texts.isEmpty()) {
      return List.of();
    }
    List<float[]> out = new ArrayList<>(texts.size());
    for (int from = 0; from < texts.size(); from += batchSize) {
      int to = Math.min(texts.size(), from + batchSize);
      out.addAll(embedBatch(texts.subList(from, to), from));
    }
    return Collections.unmodifiableList(out);
  }

  private List<float[]> embedBatch(List<String> batch, int offset) {
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(endpoint)
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(requestBody(batch)));
    if (apiKey != null) {
      rb.header("Authorization", "Bearer " + apiKey);
    }
    HttpRequest request = rb.build();
    String what = "POST " + endpoint + " (model=" + model + ", texts[" + offset + ".." + (offset + batch.size() - 1) + "])";

    String lastError;
    Throwable lastCause;
    for (int attempt = 1; ; attempt++) {
      Duration retryAfter = Duration.ZERO;
      try {
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        int status = response.statusCode();
        byte[] body = response.body();
        if (status >= 200 && status < 300) {
          try {
            return EmbeddingsResponse.parse(JSON, body, batch.size(), dimension);
          } catch (EmbeddingsResponse.MalformedException e) {
            throw failed(what + " returned HTTP " + status + " on attempt " + attempt + " with an unusable body: "
                + e.getMessage() + "; body: " + excerpt(body), null);
          }
        }
        lastError = "HTTP " + status + ", body: " + excerpt(body);
        lastCause = null;
        if (!isRetryable(status)) {
          throw failed(what + " failed on attempt " + attempt + " with " + lastError + " (HTTP " + status
              + " is not retried)", null);
        }
        retryAfter = retryAfter(response.headers());
      } catch (IOException e) {
        lastError = e.toString();
        lastCause = e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw failed(what + " interrupted on attempt " + attempt, e);
      }
      if (attempt > maxRetries) {
        throw failed(what + " failed after " + attempt + (attempt == 1 ? " attempt" : " attempts") + " (maxRetries=" + maxRetries
            + "); last error: " + lastError, lastCause);
      }
      Duration pause = backoff(attempt, retryAfter);
      if (!pause.isZero()) {
        try {
          sleeper.sleep(pause);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw failed(what + " interrupted while backing off after attempt " + attempt + "; last error: "
              + lastError, e);
        }
      }
    }
  }

  /** Exponential: initialBackoff·2^(attempt−1), at least the server's Retry-After, at most maxBackoff. */
  Duration backoff(int attempt, Duration retryAfter) {
    Duration exponential = initialBackoff.multipliedBy(1L << Math.min(attempt - 1, 30));
    Duration wanted = exponential.compareTo(retryAfter) >= 0 ? exponential : retryAfter;
    return wanted.compareTo(maxBackoff) <= 0 ? wanted : maxBackoff;
  }

  private static boolean isRetryable(int status) {
    return status == 408 || status == 429 || status >= 500;
  }

  private static Duration retryAfter(HttpHeaders headers) {
    // Only the delta-seconds form; an HTTP-date is rare from embedding servers and not worth a clock.
    return headers
        .firstValue("Retry-After")
        .filter(v -> !v.isEmpty() && v.chars().allMatch(Character::isDigit) && v.length() < 10)
        .map(v -> Duration.ofSeconds(Long.parseLong(v)))
        .orElse(Duration.ZERO);
  }

  private byte[] requestBody(List<String> batch) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    ArrayNode input = body.putArray("input");
    batch.forEach(input::add);
    try {
      return JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new AssertionError("serialising a tree of strings cannot fail", e);
    }
  }

  /** The first {@link #BODY_EXCERPT_CHARS} characters, decoding no more bytes than that needs. */
  static String excerpt(byte[] body) {
    if (body.length == 0) {
      return "(empty)";
    }
    // UTF-8 uses at most 4 bytes per char; decoding a prefix may split the last char, which is
    // harmless in a message.
    int prefix = Math.min(body.length, BODY_EXCERPT_CHARS * 4);
    String text = new String(Arrays.copyOf(body, prefix), StandardCharsets.UTF_8);
    boolean cut = prefix < body.length || text.length() > BODY_EXCERPT_CHARS;
    return cut ? text.substring(0, Math.min(text.length(), BODY_EXCERPT_CHARS)) + "…" : text;
  }

  private static MemLoopException failed(String message, @Nullable Throwable cause) {
    return cause == null
        ? new MemLoopException(Reason.EMBEDDING_FAILED, "", message)
        : new MemLoopException(Reason.EMBEDDING_FAILED, "", message, cause);
  }

  /** Releases the HTTP client after in-flight requests finish. Idempotent. */
  @Override
  public void close() {
    closed = true;
    http.close();
  }

  @Override
  public String toString() {
    // Deliberately without the API key.
    return "OpenAiEmbedder[" + endpoint + ", model=" + model + ", dimension=" + dimension + "]";
  }

  /**
   * Fail-fast builder: each setter rejects a bad value at once, naming the field; {@link #build()}
   * names the first missing required one. Required: {@link #baseUrl}, {@link #model}, {@link
   * #dimension}.
   */
  public static final class Builder {
    private @Nullable String baseUrl;
    private @Nullable String model;
    private @Nullable String apiKey;
    private int dimension;
    private int batchSize = 64;
    private Duration requestTimeout = Duration.ofSeconds(30);
    private int maxRetries = 3;
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(8);
    private Sleeper sleeper = Sleeper.SYSTEM;

    private Builder() {}

    /**
     * Scheme, host, optional port and path prefix, without {@code /v1}: {@code
     * http://localhost:11434} (Ollama), {@code https://api.openai.com}. A trailing slash is ignored.
     */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = validBaseUrl(baseUrl);
      return this;
    }

    /** The server's model name, e.g. {@code nomic-embed-text} or {@code text-embedding-3-small}. */
    public Builder model(String model) {
      if (model == null || model.isBlank()) {
        throw MemLoopException.invalid("model", "must not be blank");
      }
      this.model = model;
      return this;
    }

    /** Sent as {@code Authorization: Bearer <apiKey>}; {@code null} (the default) sends no header. */
    public Builder apiKey(@Nullable String apiKey) {
      if (apiKey != null && (apiKey.isBlank() || apiKey.chars().anyMatch(c -> c <= ' ' || c == 0x7f))) {
        // Not quoting the value: it is a secret.
        throw MemLoopException.invalid(
            "apiKey", "must be null or a non-blank token without whitespace or control characters");
      }
      this.apiKey = apiKey;
      return this;
    }

    /**
     * Length of the model's vectors. Required because a store must know it before the first
     * embedding; every response is checked against it.
     */
    public Builder dimension(int dimension) {
      if (dimension < 1) {
        throw MemLoopException.invalid("dimension", "must be at least 1, got " + dimension);
      }
      this.dimension = dimension;
      return this;
    }

    /** Texts per request, 1 to 2048 (OpenAI's limit); default 64. */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 2048) {
        throw MemLoopException.invalid("batchSize", "must be in [1, 2048], got " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /** Per attempt, for connecting and for the whole response; default 30 s. */
    public Builder requestTimeout(Duration requestTimeout) {
      if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
        throw MemLoopException.invalid("requestTimeout", "must be positive, got " + requestTimeout);
      }
      this.requestTimeout = requestTimeout;
      return this;
    }

    /** Retries after the first attempt (0 = no retry); default 3. */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0 || maxRetries > 20) {
        throw MemLoopException.invalid("maxRetries", "must be in [0, 20], got " + maxRetries);
      }
      this.maxRetries = maxRetries;
      return this;
    }

    /**
     * Wait before retry n is {@code initial·2^(n−1)}, capped at {@code max}; defaults 500 ms and
     * 8 s. Zero for both retries at once.
     */
    public Builder retryBackoff(Duration initial, Duration max) {
      if (initial == null || initial.isNegative()) {
        throw MemLoopException.invalid("retryBackoff.initial", "must be zero or positive, got " + initial);
      }
      if (max == null || max.compareTo(initial) < 0) {
        throw MemLoopException.invalid(
            "retryBackoff.max", "must be at least initial (" + initial + "), got " + max);
      }
      this.initialBackoff = initial;
      this.maxBackoff = max;
      return this;
    }

    /** Tests record the pauses instead of sleeping through them. */
    Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public OpenAiEmbedder build() {
      if (baseUrl == null) {
        throw MemLoopException.invalid("baseUrl", "is required, e.g. http://localhost:11434");
      }
      if (model == null) {
        throw MemLoopException.invalid("model", "is required, e.g. nomic-embed-text");
      }
      if (dimension == 0) {
        throw MemLoopException.invalid("dimension", "is required: the length of the model's vectors, e.g. 768");
      }
      return new OpenAiEmbedder(this);
    }

    /** The URL without trailing slashes, or an INVALID_ARGUMENT naming what is wrong with it. */
    private static String validBaseUrl(String baseUrl) {
      if (baseUrl == null || baseUrl.isBlank()) {
        throw MemLoopException.invalid("baseUrl", "must not be blank");
      }
      String trimmed = baseUrl.strip().replaceAll("/+$", "");
      URI uri;
      try {
        uri = new URI(trimmed);
      } catch (URISyntaxException e) {
        throw MemLoopException.invalid("baseUrl", "is not a valid URL (" + e.getMessage() + ")");
      }
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https")) {
        throw MemLoopException.invalid("baseUrl", "must start with http:// or https://, got " + baseUrl);
      }
      if (uri.getHost() == null) {
        throw MemLoopException.invalid("baseUrl", "has no host: " + baseUrl);
      }
      if (uri.getRawUserInfo() != null) {
        throw MemLoopException.invalid(
            "baseUrl", "must not contain credentials (user:password@); pass the key with apiKey");
      }
      if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw MemLoopException.invalid("baseUrl", "must not have a query or fragment, got " + baseUrl);
      }
      // Rejected rather than silently stripped: OpenAI documents its base URL as .../v1, and
      // appending /v1/embeddings to that would produce a 404 far from the mistake.
      if (uri.getRawPath() != null && uri.getRawPath().endsWith("/v1")) {
        throw MemLoopException.invalid(
            "baseUrl",
            "must not end with /v1 (the client appends /v1/embeddings); use "
                + trimmed.substring(0, trimmed.length() - 3) + " instead of " + baseUrl);
      }
      return trimmed;
    }
  }
}
