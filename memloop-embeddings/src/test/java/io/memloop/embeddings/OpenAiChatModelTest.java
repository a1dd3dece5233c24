package io.memloop.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import io.memloop.chat.ChatMessage;
import io.memloop.chat.ChatReply;
import io.memloop.embeddings.ScriptedServer.Recorded;
import io.memloop.embeddings.ScriptedServer.Reply;
import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every test talks to a {@link ScriptedServer} on 127.0.0.1; none sleeps (pauses are recorded). */
class OpenAiChatModelTest {

  private static final List<ChatMessage> CONVERSATION =
      List.of(
          ChatMessage.system("You are a careful agent."),
          ChatMessage.user("Task: list the files."),
          ChatMessage.assistant("ACTION: ls"),
          ChatMessage.user("Observation: a.txt b.txt"));

  private static final String OK = ScriptedServer.chatCompletion("ACTION: done", "stop", 42, 3);

  private final List<Duration> pauses = Collections.synchronizedList(new ArrayList<>());

  private OpenAiChatModel.Builder client(ScriptedServer server) {
    return OpenAiChatModel.builder()
        .baseUrl(server.baseUrl())
        .model("qwen2.5:7b")
        .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(5))
        .sleeper(pauses::add);
  }

  private static ScriptedServer answering(String body) throws IOException {
    return ScriptedServer.start((request, call) -> Reply.of(200, body));
  }

  @Test
  void complete_postsModelMessagesAndSamplingAsJson_withBearerKey() throws IOException {
    try (ScriptedServer server = answering(OK);
        OpenAiChatModel model =
            client(server).apiKey("sk-test-123").temperature(0.7).maxTokens(256).build()) {

      model.complete(CONVERSATION, 1_234_567_890_123L);

      assertThat(server.requests()).hasSize(1);
      Recorded request = server.requests().get(0);
      assertThat(request.method()).isEqualTo("POST");
      assertThat(request.path()).isEqualTo("/v1/chat/completions");
      assertThat(request.header("Authorization")).isEqualTo("Bearer sk-test-123");
      assertThat(request.header("Content-Type")).isEqualTo("application/json");
      assertThat(request.header("Accept")).isEqualTo("application/json");
      assertThat(request.json().get("model").asText()).isEqualTo("qwen2.5:7b");
      assertThat(request.messages()).containsExactlyElementsOf(CONVERSATION);
      assertThat(request.json().get("messages").get(0).get("role").asText()).isEqualTo("system");
      assertThat(request.json().get("temperature").asDouble()).isEqualTo(0.7);
      assertThat(request.json().get("max_tokens").asInt()).isEqualTo(256);
      assertThat(request.json().get("seed").isIntegralNumber()).isTrue();
      assertThat(request.json().get("seed").asLong()).isEqualTo(1_234_567_890_123L);
      assertThat(request.json().get("stream").isBoolean()).isTrue();
      assertThat(request.json().get("stream").asBoolean()).isFalse();
    }
  }

  @Test
  void withoutApiKey_sendsNoAuthorizationHeader_andTheDefaultSampling() throws IOException {
    try (ScriptedServer server = answering(OK);
        OpenAiChatModel model = client(server).build()) {

      model.complete(List.of(ChatMessage.user("hi")), 7);

      Recorded request = server.requests().get(0);
      assertThat(request.header("Authorization")).isNull();
      assertThat(request.json().get("temperature").asDouble()).isEqualTo(0.0);
      assertThat(request.json().get("max_tokens").asInt()).isEqualTo(512);
      assertThat(request.json().get("seed").asLong()).isEqualTo(7);
    }
  }

  @Test
  void baseUrlWithPathPrefixAndTrailingSlash_postsUnderThePrefix() throws IOException {
    try (ScriptedServer server = answering(OK);
        OpenAiChatModel model = client(server).baseUrl(server.baseUrl() + "/proxy/").build()) {

      model.complete(CONVERSATION, 1);

      assertThat(model.endpoint().toString()).isEqualTo(server.baseUrl() + "/proxy/v1/chat/completions");
      assertThat(server.requests().get(0).path()).isEqualTo("/proxy/v1/chat/completions");
    }
  }

  @Test
  void complete_returnsContentFinishReasonAndUsage() throws IOException {
    try (ScriptedServer server = answering(ScriptedServer.chatCompletion("ACTION: cat a.txt", "length", 120, 64));
        OpenAiChatModel model = client(server).build()) {

      ChatReply reply = model.complete(CONVERSATION, 1);

      assertThat(reply).isEqualTo(new ChatReply("ACTION: cat a.txt", "length", 120, 64));
      assertThat(reply.truncated()).isTrue();
    }
  }

  static Stream<Arguments> sparseReplies() {
    return Stream.of(
        Arguments.of(
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[]},"
                + "\"finish_reason\":\"tool_calls\"}],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":1}}",
            new ChatReply("", "tool_calls", 5, 1)),
        Arguments.of(
            "{\"choices\":[{\"message\":{\"role\":\"assistant\"}}]}", new ChatReply("", "", 0, 0)),
        Arguments.of(
            "{\"choices\":[{\"message\":{\"content\":\"hi\"},\"finish_reason\":null}],\"usage\":{}}",
            new ChatReply("hi", "", 0, 0)),
        Arguments.of(
            "{\"choices\":[{\"message\":{\"content\":\"a\"}},{\"message\":{\"content\":\"b\"}}],"
                + "\"usage\":{\"prompt_tokens\":3}}",
            new ChatReply("a", "", 3, 0)));
  }

  @ParameterizedTest
  @MethodSource("sparseReplies")
  void absentOrNullFields_becomeEmptyOrZero(String body, ChatReply expected) throws IOException {
    try (ScriptedServer server = answering(body);
        OpenAiChatModel model = client(server).build()) {

      assertThat(model.complete(CONVERSATION, 1)).isEqualTo(expected);
    }
  }

  @Test
  void reasoningModelsThinkBlock_isReturnedVerbatim() throws IOException {
    String content = "<think>\nThe user wants the files listed.\n</think>\n\nACTION: ls";
    try (ScriptedServer server = answering(ScriptedServer.chatCompletion(content, "stop", 10, 20));
        OpenAiChatModel model = client(server).build()) {

      assertThat(model.complete(CONVERSATION, 1).content()).isEqualTo(content);
    }
  }

  @Test
  void emptyConversation_isRejectedBeforeAnyRequest() throws IOException {
    try (ScriptedServer server = answering(OK);
        OpenAiChatModel model = client(server).build()) {

      assertThatThrownBy(() -> model.complete(List.of(), 1)).satisfies(invalid("messages"));
      assertThatThrownBy(() -> model.complete(Arrays.asList(ChatMessage.user("a"), null), 1))
          .satisfies(invalid("messages[1]"));
      assertThat(server.requests()).isEmpty();
    }
  }

  @Test
  void retriesOn500_withExponentialBackoff_thenSucceeds() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) ->
                    call <= 2 ? Reply.of(500, "{\"error\":{\"message\":\"model is loading\"}}") : Reply.of(200, OK));
        OpenAiChatModel model = client(server).maxRetries(3).build()) {

      ChatReply reply = model.complete(CONVERSATION, 1);

      assertThat(reply.content()).isEqualTo("ACTION: done");
      assertThat(server.requests()).hasSize(3);
      assertThat(server.requests()).extracting(Recorded::body).containsOnly(server.requests().get(0).body());
      assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }
  }

  @Test
  void retriesOn429_waitingForRetryAfter_cappedAtMaxBackoff() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) ->
                    switch (call) {
                      case 1 -> Reply.of(429, "{\"error\":{\"message\":\"slow down\"}}").withHeader("Retry-After", "2");
                      case 2 -> Reply.of(429, "{\"error\":{\"message\":\"slow down\"}}").withHeader("Retry-After", "30");
                      default -> Reply.of(200, OK);
                    });
        OpenAiChatModel model = client(server).build()) {

      model.complete(CONVERSATION, 1);

      assertThat(server.requests()).hasSize(3);
      assertThat(pauses).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(5));
    }
  }

  @Test
  void serverClosingTheConnection_isRetried() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start((request, call) -> call == 1 ? Reply.disconnect() : Reply.of(200, OK));
        OpenAiChatModel model = client(server).build()) {

      assertThat(model.complete(CONVERSATION, 1).content()).isEqualTo("ACTION: done");
      assertThat(server.requests()).hasSize(2);
      assertThat(pauses).containsExactly(Duration.ofMillis(100));
    }
  }

  @Test
  void connectionRefused_isRetried_thenReported() throws IOException {
    String deadUrl;
    // Bind an ephemeral loopback port and release it, so nothing listens there.
    try (ScriptedServer gone = answering(OK)) {
      deadUrl = gone.baseUrl();
    }
    try (OpenAiChatModel model =
        OpenAiChatModel.builder()
            .baseUrl(deadUrl)
            .model("m")
            .maxRetries(1)
            .retryBackoff(Duration.ofMillis(100), Duration.ofSeconds(1))
            .sleeper(pauses::add)
            .build()) {

      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                assertThat(e.getMessage())
                    .contains(deadUrl + "/v1/chat/completions")
                    .contains("failed after 2 attempts (maxRetries=1); last error: ")
                    .contains("cannot connect to " + deadUrl + " (connection refused): is the model server running there?")
                    .doesNotContain("java.net", "Exception");
                assertThat(e.getCause()).isInstanceOf(IOException.class);
              });
      assertThat(pauses).containsExactly(Duration.ofMillis(100));
    }
  }

  @Test
  void givesUp_afterMaxRetries_withUrlStatusErrorAndAttemptsInMessage() throws IOException {
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) -> Reply.of(503, "{\"error\":{\"message\":\"server overloaded\"}}"));
        OpenAiChatModel model = client(server).maxRetries(2).build()) {

      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                assertThat(e.getMessage())
                    .contains("POST " + server.baseUrl() + "/v1/chat/completions (model=qwen2.5:7b, 4 messages)")
                    .contains("failed after 3 attempts (maxRetries=2); last error: HTTP 503: server overloaded")
                    .contains("body: {\"error\":{\"message\":\"server overloaded\"}}");
              });
      assertThat(server.requests()).hasSize(3);
      assertThat(pauses).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200));
    }
  }

  @Test
  void badRequest_isNotRetried_andQuotesTheServersErrorMessage() throws IOException {
    // The explanation ends beyond the 200-character body excerpt; it must still reach the caller.
    String explanation =
        "This model's maximum context length is 8192 tokens. However, you requested 9000 tokens "
            + "(8488 in the messages, 512 in the completion). Please reduce the length of the messages "
            + "or completion. [end of explanation]";
    String body =
        "{\"error\":{\"message\":\"" + explanation + "\",\"type\":\"invalid_request_error\","
            + "\"param\":\"messages\",\"code\":\"context_length_exceeded\"}}";
    try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(400, body));
        OpenAiChatModel model = client(server).build()) {

      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                assertThat(e.field()).isEmpty();
                assertThat(e.getMessage())
                    .contains(server.baseUrl() + "/v1/chat/completions")
                    .contains("failed on attempt 1 with HTTP 400: " + explanation)
                    .contains("body: " + body.substring(0, 200) + "…")
                    .contains("(HTTP 400 is not retried)");
              });
      assertThat(server.requests()).hasSize(1);
      assertThat(pauses).isEmpty();
    }
  }

  @Test
  void errorBodyThatIsNotJson_isQuotedAsItIs() throws IOException {
    try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(404, "404 page not found"));
        OpenAiChatModel model = client(server).build()) {

      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> assertThat(e.getMessage()).contains("with HTTP 404, body: 404 page not found (HTTP 404 is not retried)"));
    }
  }

  static Stream<Arguments> unusableBodies() {
    return Stream.of(
        Arguments.of("{not json", "not valid JSON"),
        Arguments.of("", "empty body"),
        Arguments.of("{\"object\":\"chat.completion\"}", "no choices[0]"),
        Arguments.of("{\"choices\":[]}", "no choices[0]"),
        Arguments.of("{\"choices\":[{\"text\":\"completions API, not chat\"}]}", "no choices[0].message object"),
        Arguments.of("{\"choices\":[{\"message\":\"hi\"}]}", "no choices[0].message object"),
        Arguments.of(
            "{\"choices\":[{\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}}]}",
            "choices[0].message.content is ARRAY, expected a string"),
        Arguments.of(
            "{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"usage\":{\"prompt_tokens\":-1}}",
            "usage.prompt_tokens is -1, expected a non-negative integer"),
        Arguments.of(
            "{\"choices\":[{\"message\":{\"content\":\"hi\"}}],\"usage\":{\"completion_tokens\":\"3\"}}",
            "usage.completion_tokens is \"3\", expected a non-negative integer"));
  }

  @ParameterizedTest
  @MethodSource("unusableBodies")
  void unusableSuccessBody_failsWithoutRetry(String body, String problem) throws IOException {
    try (ScriptedServer server = answering(body);
        OpenAiChatModel model = client(server).build()) {

      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                assertThat(e.getMessage())
                    .contains(server.baseUrl() + "/v1/chat/completions")
                    .contains("returned HTTP 200 on attempt 1 with an unusable body: " + problem)
                    .contains("; body: " + (body.isEmpty() ? "(empty)" : body));
              });
      assertThat(server.requests()).hasSize(1);
      assertThat(pauses).isEmpty();
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
                  return Reply.of(200, OK);
                });
        OpenAiChatModel model = client(server).requestTimeout(Duration.ofMillis(200)).maxRetries(0).build()) {
      try {
        assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
            .isInstanceOfSatisfying(
                MemLoopException.class,
                e -> {
                  assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                  assertThat(e.getMessage())
                      .contains("failed after 1 attempt (maxRetries=0)")
                      .contains("no answer from").contains("within 200 ms").doesNotContain("Exception");
                  assertThat(e.getCause()).isInstanceOf(HttpTimeoutException.class);
                });
      } finally {
        release.countDown(); // before the server stops: its dispatcher thread is the parked one
      }
    }
  }

  @Test
  void interruptWhileBackingOff_failsAndKeepsTheInterruptFlag() throws IOException {
    try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(503, "busy"));
        OpenAiChatModel model =
            client(server)
                .sleeper(pause -> {
                  throw new InterruptedException("test interrupt");
                })
                .build()) {
      try {
        assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
            .isInstanceOfSatisfying(
                MemLoopException.class,
                e -> {
                  assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                  assertThat(e.getMessage())
                      .contains("interrupted while backing off after attempt 1; last error: HTTP 503");
                  assertThat(e.getCause()).isInstanceOf(InterruptedException.class);
                });
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
      } finally {
        Thread.interrupted(); // clear it for the next test on this thread
      }
      assertThat(server.requests()).hasSize(1);
    }
  }

  @Test
  void interruptedCaller_failsAndKeepsTheInterruptFlag() throws IOException {
    try (ScriptedServer server = answering(OK);
        OpenAiChatModel model = client(server).build()) {
      Thread.currentThread().interrupt();
      try {
        assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
            .isInstanceOfSatisfying(
                MemLoopException.class,
                e -> {
                  assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                  assertThat(e.getMessage()).contains("interrupted on attempt 1");
                });
        assertThat(Thread.currentThread().isInterrupted()).isTrue();
      } finally {
        Thread.interrupted();
      }
      assertThat(pauses).isEmpty();
    }
  }

  @Test
  void describesItself_andNeverLeaksTheKey() throws IOException {
    String key = "sk-secret-0123456789";
    try (ScriptedServer server =
            ScriptedServer.start(
                (request, call) -> Reply.of(401, "{\"error\":{\"message\":\"Incorrect API key provided\"}}"));
        OpenAiChatModel model = client(server).model("gpt-4o-mini").apiKey(key).build()) {

      assertThat(model.modelId()).isEqualTo("openai:gpt-4o-mini");
      assertThat(model.toString()).contains("gpt-4o-mini").contains(server.baseUrl()).doesNotContain(key);
      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> assertThat(e.getMessage())
                  .contains("HTTP 401: Incorrect API key provided")
                  .doesNotContain(key));
      assertThat(server.requests().get(0).header("Authorization")).isEqualTo("Bearer " + key);
    }
  }

  @Test
  void complete_afterClose_fails() throws IOException {
    try (ScriptedServer server = answering(OK)) {
      OpenAiChatModel model = client(server).build();
      model.close();
      model.close();

      assertThatThrownBy(() -> model.complete(CONVERSATION, 1))
          .isInstanceOfSatisfying(
              MemLoopException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(Reason.MODEL_FAILED);
                assertThat(e.getMessage()).contains("closed").contains(server.baseUrl());
              });
      assertThat(server.requests()).isEmpty();
    }
  }

  static Stream<Arguments> invalidConfigs() {
    return Stream.of(
        bad(b -> b.baseUrl("ftp://host"), "baseUrl", "http://"),
        bad(b -> b.baseUrl("localhost:11434"), "baseUrl", "http://"),
        bad(b -> b.baseUrl("https://api.openai.com/v1"), "baseUrl",
            "appends /v1/chat/completions); use https://api.openai.com instead"),
        bad(b -> b.baseUrl("http://u:p@host"), "baseUrl", "credentials"),
        bad(b -> b.baseUrl("http://host#x"), "baseUrl", "fragment"),
        bad(b -> b.baseUrl(" "), "baseUrl", "blank"),
        bad(b -> b.model(" "), "model", "blank"),
        bad(b -> b.apiKey(""), "apiKey", "non-blank"),
        bad(b -> b.apiKey("sk\n123"), "apiKey", "control characters"),
        bad(b -> b.temperature(-0.1), "temperature", "got -0.1"),
        bad(b -> b.temperature(2.01), "temperature", "got 2.01"),
        bad(b -> b.temperature(Double.NaN), "temperature", "got NaN"),
        bad(b -> b.maxTokens(0), "maxTokens", "got 0"),
        bad(b -> b.maxTokens(32_769), "maxTokens", "got 32769"),
        bad(b -> b.requestTimeout(Duration.ZERO), "requestTimeout", "positive"),
        bad(b -> b.requestTimeout(Duration.ofSeconds(-1)), "requestTimeout", "positive"),
        bad(b -> b.maxRetries(-1), "maxRetries", "got -1"),
        bad(b -> b.maxRetries(21), "maxRetries", "got 21"),
        bad(b -> b.retryBackoff(Duration.ofSeconds(2), Duration.ofSeconds(1)), "retryBackoff.max", "at least initial"),
        bad(b -> b.retryBackoff(Duration.ofMillis(-1), Duration.ofSeconds(1)), "retryBackoff.initial",
            "zero or positive"));
  }

  private static Arguments bad(Consumer<OpenAiChatModel.Builder> misconfigure, String field, String problem) {
    return Arguments.of(misconfigure, field, problem);
  }

  @ParameterizedTest
  @MethodSource("invalidConfigs")
  void builder_rejectsInvalidValue_namingTheField(
      Consumer<OpenAiChatModel.Builder> misconfigure, String field, String problem) {
    OpenAiChatModel.Builder b = OpenAiChatModel.builder();
    assertThatThrownBy(() -> misconfigure.accept(b))
        .satisfies(invalid(field))
        .hasMessageContaining(problem);
  }

  @Test
  void builder_acceptsTheBoundsOfEachRange() {
    OpenAiChatModel.Builder b = OpenAiChatModel.builder().baseUrl("http://localhost:11434").model("m");
    b.temperature(0).temperature(2).maxTokens(1).maxTokens(32_768).maxRetries(0).maxRetries(20)
        .retryBackoff(Duration.ZERO, Duration.ZERO).apiKey(null);
    try (OpenAiChatModel model = b.build()) {
      assertThat(model.toString()).contains("temperature=2.0").contains("maxTokens=32768");
    }
  }

  @Test
  void build_namesTheFirstMissingRequiredField() {
    assertThatThrownBy(() -> OpenAiChatModel.builder().build()).satisfies(invalid("baseUrl"));
    assertThatThrownBy(() -> OpenAiChatModel.builder().model("m").build()).satisfies(invalid("baseUrl"));
    assertThatThrownBy(() -> OpenAiChatModel.builder().baseUrl("http://localhost:11434").build())
        .satisfies(invalid("model"))
        .hasMessageContaining("is required");
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
