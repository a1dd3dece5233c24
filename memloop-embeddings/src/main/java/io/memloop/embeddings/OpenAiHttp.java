package io.memloop.embeddings;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the OpenAI-compatible clients ({@link OpenAiEmbedder}, {@link OpenAiChatModel}) share: the
 * validated configuration ({@link Settings}) and one JSON POST with retries ({@link #postJson}).
 *
 * <p><b>Failures:</b> HTTP 408, 429 and 5xx and I/O errors (including timeouts and refused
 * connections) are retried up to {@code maxRetries} times with exponential backoff, honouring a
 * {@code Retry-After} of whole seconds up to the maximum backoff. Other statuses and an unusable
 * 2xx body fail at once. Every failure is a {@link MemLoopException} with the client's reason whose
 * message carries the URL, the HTTP status, the first {@value #BODY_EXCERPT_CHARS} characters of
 * the body and the attempt count; never the API key.
 *
 * <p><b>Thread safety:</b> immutable apart from the JDK {@link HttpClient}, which is thread-safe.
 */
final class OpenAiHttp implements AutoCloseable {

  /** Body characters quoted in error messages: enough for a server's error JSON, not a whole page. */
  static final int BODY_EXCERPT_CHARS = 200;

  /** Characters of a server's {@code error.message} quoted in error messages. */
  static final int ERROR_MESSAGE_CHARS = 1000;

  static final ObjectMapper JSON = new ObjectMapper();

  /** What was wrong with a 2xx body; {@link #postJson} adds the request's context. */
  static final class MalformedBodyException extends Exception {
    private static final long serialVersionUID = 1L;

    MalformedBodyException(String problem) {
      super(problem);
    }
  }

  /** Turns a 2xx body into the client's result. */
  @FunctionalInterface
  interface BodyReader<T> {
    T read(byte[] body) throws MalformedBodyException;
  }

  private final Reason failure;
  private final boolean quoteErrorMessage;
  private final @Nullable String apiKey;
  private final Duration requestTimeout;
  private final int maxRetries;
  private final Duration initialBackoff;
  private final Duration maxBackoff;
  private final Sleeper sleeper;
  private final HttpClient http;
  private volatile boolean closed;

  /**
   * @param failure the reason of every {@link MemLoopException} this throws
   * @param quoteErrorMessage whether a failed response's OpenAI-style {@code error.message} is
   *     quoted in full (up to {@value #ERROR_MESSAGE_CHARS} characters) before the body excerpt
   */
  OpenAiHttp(Settings settings, Reason failure, boolean quoteErrorMessage) {
    this.failure = failure;
    this.quoteErrorMessage = quoteErrorMessage;
    this.apiKey = settings.apiKey;
    this.requestTimeout = settings.requestTimeout;
    this.maxRetries = settings.maxRetries;
    this.initialBackoff = settings.initialBackoff;
    this.maxBackoff = settings.maxBackoff;
    this.sleeper = settings.sleeper;
    this.http =
        HttpClient.newBuilder()
            // HTTP/1.1: OpenAI-compatible servers (Ollama, vLLM behind uvicorn) speak it, and the
            // default would first try an h2c upgrade on every plain-http connection.
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(requestTimeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /**
   * POSTs {@code body} as JSON to {@code uri}, retrying as the class describes, and reads the first
   * 2xx answer with {@code reader}.
   *
   * @param what the request as error messages name it, e.g. {@code POST <url> (model=m, ...)}
   * @throws MemLoopException with this client's reason when every attempt failed, the status is
   *     not retried, the reader rejects the body, or the thread is interrupted (the interrupt flag
   *     is set again)
   */
  <T> T postJson(URI uri, byte[] body, String what, BodyReader<T> reader) {
    HttpRequest.Builder rb =
        HttpRequest.newBuilder(uri)
            .timeout(requestTimeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json")
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (apiKey != null) {
      rb.header("Authorization", "Bearer " + apiKey);
    }
    HttpRequest request = rb.build();

    String lastError;
    Throwable lastCause;
    for (int attempt = 1; ; attempt++) {
      Duration retryAfter = Duration.ZERO;
      try {
        HttpResponse<byte[]> response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        int status = response.statusCode();
        byte[] answer = response.body();
        if (status >= 200 && status < 300) {
          try {
            return reader.read(answer);
          } catch (MalformedBodyException e) {
            throw failed(what + " returned HTTP " + status + " on attempt " + attempt + " with an unusable body: "
                + e.getMessage() + "; body: " + excerpt(answer), null);
          }
        }
        lastError = "HTTP " + status + serverErrorMessage(answer) + ", body: " + excerpt(answer);
        lastCause = null;
        if (!isRetryable(status)) {
          throw failed(what + " failed on attempt " + attempt + " with " + lastError + " (HTTP " + status
              + " is not retried)", null);
        }
        retryAfter = retryAfter(response.headers());
      } catch (IOException e) {
        lastError = describe(e, uri);
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

  /**
   * A failed connection in words a user can act on, without Java class names: what happened, and what
   * to check (that a server listens at the base URL, the host name, TLS, the timeout).
   */
  String describe(IOException e, URI uri) {
    String server = uri.getScheme() + "://" + uri.getAuthority();
    if (e instanceof java.net.ConnectException) {
      return "cannot connect to " + server + " (connection refused): is the model server running there? "
          + "Check the base URL";
    }
    if (e instanceof java.net.http.HttpConnectTimeoutException) {
      return "no connection to " + server + " within " + human(requestTimeout) + ": check the host, the port "
          + "and any firewall between";
    }
    if (e instanceof java.net.http.HttpTimeoutException) {
      return "no answer from " + server + " within " + human(requestTimeout) + ": the server is busy or the "
          + "model slow (raise the request timeout)";
    }
    if (e instanceof java.net.UnknownHostException || e.getCause() instanceof java.nio.channels.UnresolvedAddressException) {
      return "unknown host '" + uri.getHost() + "': check the base URL";
    }
    if (e instanceof javax.net.ssl.SSLException) {
      return "TLS with " + server + " failed (" + e.getMessage() + "): is it an https server, with a certificate "
          + "this machine trusts?";
    }
    String message = e.getMessage();
    return "connection to " + server + " failed" + (message == null || message.isBlank() ? "" : ": " + message);
  }

  private static String human(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
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
    // Only the delta-seconds form; an HTTP-date is rare from these servers and not worth a clock.
    return headers
        .firstValue("Retry-After")
        .filter(v -> !v.isEmpty() && v.chars().allMatch(Character::isDigit) && v.length() < 10)
        .map(v -> Duration.ofSeconds(Long.parseLong(v)))
        .orElse(Duration.ZERO);
  }

  /**
   * {@code ": <error.message>"} of an OpenAI-style error body {@code {"error":{"message":...}}}, so
   * the server's explanation survives even when it lies beyond the excerpt; {@code ""} when not
   * quoting, or the body has no such message.
   */
  private String serverErrorMessage(byte[] body) {
    if (!quoteErrorMessage || body.length == 0) {
      return "";
    }
    JsonNode message;
    try {
      message = JSON.readTree(body).path("error").path("message");
    } catch (IOException | RuntimeException e) {
      return ""; // not JSON: the excerpt says what it is
    }
    if (!message.isTextual() || message.asText().isBlank()) {
      return "";
    }
    return ": " + cut(message.asText().strip(), ERROR_MESSAGE_CHARS);
  }

  /**
   * The JSON tree of a 2xx body; a {@link MissingNode} for a body of only whitespace.
   *
   * @throws MalformedBodyException if the body is empty or not JSON
   */
  static JsonNode readJson(ObjectMapper json, byte[] body) throws MalformedBodyException {
    if (body.length == 0) {
      throw new MalformedBodyException("empty body");
    }
    JsonNode root;
    try {
      root = json.readTree(body);
    } catch (JacksonException e) {
      throw new MalformedBodyException("not valid JSON (" + e.getOriginalMessage() + ")");
    } catch (IOException e) {
      throw new MalformedBodyException("unreadable body (" + e.getMessage() + ")");
    }
    // Jackson answers blank content with null or a MissingNode depending on the version.
    return root == null ? MissingNode.getInstance() : root;
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

  /** {@code text}, or its first {@code max} characters and an ellipsis. */
  private static String cut(String text, int max) {
    return text.length() > max ? text.substring(0, max) + "…" : text;
  }

  MemLoopException failed(String message, @Nullable Throwable cause) {
    return cause == null
        ? new MemLoopException(failure, "", message)
        : new MemLoopException(failure, "", message, cause);
  }

  /** Throws this client's failure saying that {@code what} is closed. */
  void requireOpen(String what) {
    if (closed) {
      throw failed(what + " is closed", null);
    }
  }

  /** Releases the HTTP client after in-flight requests finish. Idempotent. */
  @Override
  public void close() {
    closed = true;
    http.close();
  }

  /**
   * The configuration both clients' builders accept, validated as it is set: each setter rejects a
   * bad value at once with {@link MemLoopException#invalid}, naming the field. The public builders
   * delegate to one of these so that the rules and messages are the same for every client.
   */
  static final class Settings {
    private final String path;
    private @Nullable String baseUrl;
    private @Nullable String model;
    private @Nullable String apiKey;
    private Duration requestTimeout;
    private int maxRetries = 3;
    private Duration initialBackoff = Duration.ofMillis(500);
    private Duration maxBackoff = Duration.ofSeconds(8);
    private Sleeper sleeper = Sleeper.SYSTEM;

    /**
     * @param path what the client appends to the base URL, e.g. {@code /v1/embeddings}
     * @param requestTimeout the client's default timeout per attempt
     */
    Settings(String path, Duration requestTimeout) {
      this.path = path;
      this.requestTimeout = requestTimeout;
    }

    void baseUrl(String baseUrl) {
      this.baseUrl = validBaseUrl(baseUrl);
    }

    void model(String model) {
      if (model == null || model.isBlank()) {
        throw MemLoopException.invalid("model", "must not be blank");
      }
      this.model = model;
    }

    void apiKey(@Nullable String apiKey) {
      if (apiKey != null && (apiKey.isBlank() || apiKey.chars().anyMatch(c -> c <= ' ' || c == 0x7f))) {
        // Not quoting the value: it is a secret.
        throw MemLoopException.invalid(
            "apiKey", "must be null or a non-blank token without whitespace or control characters");
      }
      this.apiKey = apiKey;
    }

    void requestTimeout(Duration requestTimeout) {
      if (requestTimeout == null || requestTimeout.isNegative() || requestTimeout.isZero()) {
        throw MemLoopException.invalid("requestTimeout", "must be positive, got " + requestTimeout);
      }
      this.requestTimeout = requestTimeout;
    }

    void maxRetries(int maxRetries) {
      if (maxRetries < 0 || maxRetries > 20) {
        throw MemLoopException.invalid("maxRetries", "must be in [0, 20], got " + maxRetries);
      }
      this.maxRetries = maxRetries;
    }

    void retryBackoff(Duration initial, Duration max) {
      if (initial == null || initial.isNegative()) {
        throw MemLoopException.invalid("retryBackoff.initial", "must be zero or positive, got " + initial);
      }
      if (max == null || max.compareTo(initial) < 0) {
        throw MemLoopException.invalid(
            "retryBackoff.max", "must be at least initial (" + initial + "), got " + max);
      }
      this.initialBackoff = initial;
      this.maxBackoff = max;
    }

    void sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /**
     * Throws for the first missing required field: {@code baseUrl}, then {@code model}.
     *
     * @param modelExample a model name the message suggests, e.g. {@code nomic-embed-text}
     */
    void requireBaseUrlAndModel(String modelExample) {
      if (baseUrl == null) {
        throw MemLoopException.invalid("baseUrl", "is required, e.g. http://localhost:11434");
      }
      if (model == null) {
        throw MemLoopException.invalid("model", "is required, e.g. " + modelExample);
      }
    }

    /** {@code {baseUrl}{path}}; only after {@link #requireBaseUrlAndModel}. */
    URI endpoint() {
      return URI.create(Objects.requireNonNull(baseUrl) + path);
    }

    /** Only after {@link #requireBaseUrlAndModel}. */
    String model() {
      return Objects.requireNonNull(model);
    }

    /** The URL without trailing slashes, or an INVALID_ARGUMENT naming what is wrong with it. */
    private String validBaseUrl(String baseUrl) {
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
      // appending /v1/... to that would produce a 404 far from the mistake.
      if (uri.getRawPath() != null && uri.getRawPath().endsWith("/v1")) {
        throw MemLoopException.invalid(
            "baseUrl",
            "must not end with /v1 (the client appends " + path + "); use "
                + trimmed.substring(0, trimmed.length() - 3) + " instead of " + baseUrl);
      }
      return trimmed;
    }
  }
}
