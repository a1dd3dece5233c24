package io.memloop.embeddings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import io.memloop.embed.Embedder;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
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
 * <p><b>Thread safety:</b> immutable apart from the JDK {@link java.net.http.HttpClient}, which is
 * thread-safe; concurrent calls are independent requests.
 */
public final class OpenAiEmbedder implements Embedder {

  private static final ObjectMapper JSON = OpenAiHttp.JSON;

  private final URI endpoint;
  private final String model;
  private final int dimension;
  private final int batchSize;
  private final OpenAiHttp http;

  private OpenAiEmbedder(Builder b) {
    this.endpoint = b.settings.endpoint();
    this.model = b.settings.model();
    this.dimension = b.dimension;
    this.batchSize = b.batchSize;
    this.http = new OpenAiHttp(b.settings, Reason.EMBEDDING_FAILED, false);
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
    http.requireOpen("embedder for " + endpoint);
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
    String what = "POST " + endpoint + " (model=" + model + ", texts[" + offset + ".." + (offset + batch.size() - 1) + "])";
    return http.postJson(
        endpoint, requestBody(batch), what, body -> EmbeddingsResponse.parse(JSON, body, batch.size(), dimension));
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

  /** Releases the HTTP client after in-flight requests finish. Idempotent. */
  @Override
  public void close() {
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
  public static final class Builder extends OpenAiClientBuilder<Builder> {
    private int dimension;
    private int batchSize = 64;

    private Builder() {
      super("/v1/embeddings", Duration.ofSeconds(30));
    }

    @Override
    Builder self() {
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

    public OpenAiEmbedder build() {
      settings.requireBaseUrlAndModel("nomic-embed-text");
      if (dimension == 0) {
        throw MemLoopException.invalid("dimension", "is required: the length of the model's vectors, e.g. 768");
      }
      return new OpenAiEmbedder(this);
    }
  }
}
