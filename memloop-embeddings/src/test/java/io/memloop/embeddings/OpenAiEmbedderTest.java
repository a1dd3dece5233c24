package io.memloop.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import io.memloop.embeddings.ScriptedServer.Reply;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every test talks to a {@link ScriptedServer} on 127.0.0.1; none sleeps (pauses are recorded). */
class OpenAiEmbedderTest {

  private static final int DIM = 4;

  private final List<Duration> pauses = Collections.synchronizedList(new ArrayList<>());

  private OpenAiEmbedder.Builder client(ScriptedServer server) {
    return OpenAiEmbedder.builder()
        .baseUrl(server.baseUrl())
        .model("nomic-embed-text")
        .dimension(DIM)
        .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
        .sleeper(pauses::add);
  }

  @Test
  void embedAll_postsModelAndInputsAsJson_withBearerKey() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).apiKey("sk-test-123").build()) {

      List<float[]> vectors = embedder.embedAll(List.of("first text", "second text"));

      assertThat(vectors).containsExactly(
          ScriptedServer.vectorOf("first text", DIM), ScriptedServer.vectorOf("second text", DIM));
      ScriptedServer.Recorded request = server.requests().get(0);
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/v1/embeddings");
      assertThat(request.header("Authorization")).isEqualTo("Bearer sk-test-123");
      assertThat(request.header("Content-Type")).isEqualTo("application/json");
      assertThat(request.json().get("model").asText()).isEqualTo("nomic-embed-text");
      assertThat(request.inputs()).containsExactly("first text", "second text");
    }
  }

  @Test
  void withoutApiKey_sendsNoAuthorizationHeader() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).build()) {

      embedder.embed("hello");

      assertThat(server.requests().get(0).header("Authorization")).isNull();
    }
  }

  @Test
  void baseUrlWithPathPrefixAndTrailingSlash_postsUnderThePrefix() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).baseUrl(server.baseUrl() + "/proxy/").build()) {

      embedder.embed("hello");

      assertThat(embedder.endpoint().toString()).isEqualTo(server.baseUrl() + "/proxy/v1/embeddings");
      assertThat(server.requests().get(0).path()).isEqualTo("/proxy/v1/embeddings");
    }
  }

  @Test
  void embedAll_splitsInputsByBatchSize_andKeepsInputOrder() throws IOException {
    // The server lists data[] in reverse order: only honouring data[].index gets this right.
    List<String> texts = IntStream.range(0, 8).mapToObj(i -> "task number " + i).toList();
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).batchSize(3).build()) {

      List<float[]> vectors = embedder.embedAll(texts);

      assertThat(server.requests()).extracting(ScriptedServer.Recorded::inputs)
          .containsExactly(texts.subList(0, 3), texts.subList(3, 6), texts.subList(6, 8));
      assertThat(vectors).hasSize(8);
      for (int i = 0; i < texts.size(); i++) {
        assertThat(vectors.get(i)).as("texts[%d]", i).isEqualTo(ScriptedServer.vectorOf(texts.get(i), DIM));
      }
    }
  }

  @Test
  void embedAll_ofEmptyList_sendsNoRequest() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).build()) {

      assertThat(embedder.embedAll(List.of())).isEmpty();
      assertThat(server.requests()).isEmpty();
    }
  }

  @Test
  void embedAll_withBlankText_isRejectedBeforeAnyRequest() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).build()) {

      assertThatThrownBy(() -> embedder.embedAll(List.of("ok", "ok", "")))
          .satisfies(invalid("texts[2]"));
      assertThat(server.requests()).isEmpty();
    }
  }

  @Test
  void retriesOn503_withExponentialBackoff_thenSucceeds() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) ->
                    call <= 2
                        ? Reply.of(503, "{\"error\":\"model is loading\"}")
                        : Reply.of(200, ScriptedServer.embeddingsFor(request.inputs(), DIM)));
        OpenAiEmbedder embedder = client(server).maxRetries(3).build()) {

      float[] v = embedder.embed("retry me");

      assertThat(v).isEqualTo(ScriptedServer.vectorOf("retry me", DIM));
      assertThat(server.requests()).hasSize(3);
      assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }
  }

  @Test
  void retryOn429_waitsForRetryAfter_cappedAtMaxBackoff() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) ->
                    call == 1
                        ? Reply.of(429, "{\"error\":\"rate limited\"}").withHeader("Retry-After", "30")
                        : Reply.of(200, ScriptedServer.embeddingsFor(request.inputs(), DIM)));
        OpenAiEmbedder embedder = client(server).build()) {

      embedder.embed("slow down");

      assertThat(pauses).containsExactly(Duration.ofSeconds(1));
    }
  }

  @Test
  void givesUp_afterMaxRetries_withUrlStatusBodyAndAttemptsInMessage() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start((request, call) -> Reply.of(503, "{\"error\":\"model is loading\"}"));
        OpenAiEmbedder embedder = client(server).maxRetries(2).build()) {

      assertThatThrownBy(() -> embedder.embed("never works"))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
                assertThat(e.getMessage())
                    .contains(server.baseUrl() + "/v1/embeddings")
                    .contains("failed after 3 attempts (maxRetries=2)")
                    .contains("HTTP 503")
                    .contains("model is loading");
              });
      assertThat(server.requests()).hasSize(3);
      assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }
  }

  @Test
  void clientError_isNotRetried_andMessageQuotesFirst200CharsOfBody() throws IOException {
    String body = "{\"error\":\"" + "x".repeat(190) + "ABCDEFGHIJ" + "y".repeat(300) + "\"}";
    try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(400, body));
        OpenAiEmbedder embedder = client(server).build()) {

      assertThatThrownBy(() -> embedder.embed("bad request"))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
                assertThat(e.getMessage())
                    .contains("HTTP 400")
                    .contains("attempt 1")
                    .contains(body.substring(0, 200) + "…")
                    .doesNotContain(body.substring(0, 201));
              });
      assertThat(server.requests()).hasSize(1);
      assertThat(pauses).isEmpty();
    }
  }

  @Test
  void wrongDimension_fails() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start((request, call) -> Reply.of(200, ScriptedServer.embeddingsFor(request.inputs(), 3)));
        OpenAiEmbedder embedder = client(server).build()) {

      assertThatThrownBy(() -> embedder.embed("three components"))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
                assertThat(e.getMessage()).contains("has 3 components, expected dimension=4");
              });
      assertThat(server.requests()).hasSize(1);
    }
  }

  static Stream<Arguments> malformedBodies() {
    return Stream.of(
        Arguments.of("{not json", "not valid JSON"),
        Arguments.of("", "empty body"),
        Arguments.of("{\"object\":\"list\"}", "no \"data\" array"),
        Arguments.of("{\"data\":[]}", "\"data\" has 0 embeddings, expected 2"),
        Arguments.of(
            "{\"data\":[{\"index\":0,\"embedding\":[1,2,3,4]},{\"index\":0,\"embedding\":[1,2,3,4]}]}",
            "index 0 appears twice"),
        Arguments.of(
            "{\"data\":[{\"index\":0,\"embedding\":[1,2,3,4]},{\"index\":5,\"embedding\":[1,2,3,4]}]}",
            "data[1].index is 5, expected 0..1"),
        Arguments.of(
            "{\"data\":[{\"index\":0,\"embedding\":\"AAAA\"},{\"index\":1,\"embedding\":[1,2,3,4]}]}",
            "data[0].embedding is STRING, expected an array of numbers"),
        Arguments.of(
            "{\"data\":[{\"index\":0,\"embedding\":[1,2,\"x\",4]},{\"index\":1,\"embedding\":[1,2,3,4]}]}",
            "data[0].embedding[2] is \"x\", expected a finite number"));
  }

  @ParameterizedTest
  @MethodSource("malformedBodies")
  void unusableSuccessBody_failsWithoutRetry(String body, String problem) throws IOException {
    try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(200, body));
        OpenAiEmbedder embedder = client(server).build()) {

      assertThatThrownBy(() -> embedder.embedAll(List.of("one", "two")))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
                assertThat(e.getMessage()).contains("HTTP 200").contains("unusable body").contains(problem);
              });
      assertThat(server.requests()).hasSize(1);
    }
  }

  @Test
  void connectionRefused_isRetried_thenReported() throws IOException {
    String deadUrl;
    // Bind an ephemeral loopback port and release it, so nothing listens there.
    try (ScriptedServer gone = ScriptedServer.healthy(DIM)) {
      deadUrl = gone.baseUrl();
    }
    try (OpenAiEmbedder embedder =
        OpenAiEmbedder.builder()
            .baseUrl(deadUrl)
            .model("m")
            .dimension(DIM)
            .maxRetries(1)
            .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
            .sleeper(pauses::add)
            .build()) {

      assertThatThrownBy(() -> embedder.embed("anyone there?"))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
                assertThat(e.getMessage()).contains(deadUrl).contains("failed after 2 attempts")
                    .contains("cannot connect to").contains("is the model server running there?").doesNotContain("java.net");
                assertThat(e.getCause()).isInstanceOf(IOException.class);
              });
      assertThat(pauses).containsExactly(Duration.ofMillis(100));
    }
  }

  @Test
  void requestTimeout_isReportedAsIoFailure() throws IOException {
    // The handler parks until released, so the client's 200 ms timeout is what ends the call.
    CountDownLatch release = new CountDownLatch(1);
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) -> {
                  release.await();
                  return Reply.of(503, "");
                });
        OpenAiEmbedder embedder = client(server).requestTimeout(Duration.ofMillis(200)).maxRetries(0).build()) {
      try {
        assertThatThrownBy(() -> embedder.embed("too slow"))
            .isInstanceOfSatisfying(
                MemLoopException.class,
                e -> assertThat(e.getMessage())
                    .contains("failed after 1 attempt (maxRetries=0)")
                    .contains("no answer from").contains("within 200 ms").doesNotContain("Exception"));
      } finally {
        release.countDown(); // before the server stops: its dispatcher thread is the parked one
      }
    }
  }

  @Test
  void describesItself_withoutLeakingTheKey() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM);
        OpenAiEmbedder embedder = client(server).model("text-embedding-3-small").apiKey("sk-secret").build()) {
      assertThat(embedder.modelId()).isEqualTo("openai:text-embedding-3-small");
      assertThat(embedder.dimension()).isEqualTo(DIM);
      assertThat(embedder.toString()).contains("text-embedding-3-small").doesNotContain("sk-secret");
    }
  }

  @Test
  void embedAll_afterClose_fails() throws IOException {
    try (ScriptedServer server = ScriptedServer.healthy(DIM)) {
      OpenAiEmbedder embedder = client(server).build();
      embedder.close();
      embedder.close();

      assertThatThrownBy(() -> embedder.embed("late"))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
                assertThat(e.getMessage()).contains("closed");
              });
      assertThat(server.requests()).isEmpty();
    }
  }

  static Stream<Arguments> invalidConfigs() {
    return Stream.of(
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.baseUrl("ftp://host"), "baseUrl", "http://"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.baseUrl("localhost:11434"), "baseUrl", "http://"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.baseUrl("https://api.openai.com/v1"), "baseUrl",
            "use https://api.openai.com instead"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.baseUrl("http://u:p@host"), "baseUrl", "credentials"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.baseUrl("http://host?x=1"), "baseUrl", "query"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.baseUrl(" "), "baseUrl", "blank"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.model(""), "model", "blank"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.apiKey("sk 123"), "apiKey", "whitespace"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.dimension(0), "dimension", "got 0"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.batchSize(0), "batchSize", "got 0"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.batchSize(4096), "batchSize", "got 4096"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.requestTimeout(Duration.ZERO), "requestTimeout",
            "positive"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.maxRetries(-1), "maxRetries", "got -1"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.retryBackoff(Duration.ofSeconds(2),
            Duration.ofSeconds(1)), "retryBackoff.max", "at least initial"),
        Arguments.of((Consumer<OpenAiEmbedder.Builder>) b -> b.retryBackoff(Duration.ofMillis(-1),
            Duration.ofSeconds(1)), "retryBackoff.initial", "zero or positive"));
  }

  @ParameterizedTest
  @MethodSource("invalidConfigs")
  void builder_rejectsInvalidValue_namingTheField(
      Consumer<OpenAiEmbedder.Builder> misconfigure, String field, String problem) {
    OpenAiEmbedder.Builder b = OpenAiEmbedder.builder();
    assertThatThrownBy(() -> misconfigure.accept(b))
        .satisfies(invalid(field))
        .hasMessageContaining(problem);
  }

  @Test
  void build_namesTheFirstMissingRequiredField() {
    assertThatThrownBy(() -> OpenAiEmbedder.builder().model("m").dimension(4).build()).satisfies(invalid("baseUrl"));
    assertThatThrownBy(() -> OpenAiEmbedder.builder().baseUrl("http://localhost:11434").dimension(4).build())
        .satisfies(invalid("model"));
    assertThatThrownBy(() -> OpenAiEmbedder.builder().baseUrl("http://localhost:11434").model("m").build())
        .satisfies(invalid("dimension"));
  }

  private static ThrowingConsumer<Throwable> invalid(String field) {
    return t -> {
      assertThat(t).isInstanceOf(MemLoopException.class);
      MemLoopException e = (MemLoopException) t;
      assertThat(e.reason()).isEqualTo(Reason.INVALID_ARGUMENT);
      assertThat(e.field()).isEqualTo(field);
    };
  }

}
