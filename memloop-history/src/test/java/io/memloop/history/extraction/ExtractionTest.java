package io.memloop.history.extraction;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoop;
import io.memloop.Outcome;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.OpenAiChatModel;
import io.memloop.embeddings.ScriptedServer;
import io.memloop.embeddings.ScriptedServer.Reply;
import io.memloop.store.InMemoryStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** LLM experience extraction against a scripted OpenAI-compatible server on loopback. */
class ExtractionTest {
  private static MemLoop engine() {
    return MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION)).embedder(new HashingEmbedder()).build();
  }

  private static OpenAiChatModel model(ScriptedServer s) {
    return OpenAiChatModel.builder().baseUrl(s.baseUrl()).model("scripted").maxRetries(1)
        .retryBackoff(Duration.ofMillis(1), Duration.ofMillis(2)).requestTimeout(Duration.ofSeconds(10)).build();
  }

  private static List<String> experiences(MemLoop loop) {
    List<String> out = new ArrayList<>();
    loop.store().forEachMemory("ops", m -> out.add(m.outcome() + ": " + m.experience()));
    return out;
  }

  @Test
  void successesBecomeScriptsAndFailuresReflectionsWithVersionedPrompts() throws Exception {
    try (ScriptedServer s = ScriptedServer.start((req, call) -> {
          String prompt = req.messages().getLast().content();
          String answer = prompt.contains("successful attempt") ? "```\n1. run certbot renew --cert-name api\n```"
              : "Do not restart nginx before the certificate is renewed.";
          return Reply.of(200, ScriptedServer.chatCompletion(answer, "stop", 50, 10));
        });
        MemLoop loop = engine();
        AsyncExperienceManager m = new AsyncExperienceManager(loop, new LlmExperienceExtractor(model(s)), 16, 4, 2)) {
      assertThat(m.submit("ops", new Trajectory("renew the api certificate", "ran certbot renew ... ok", Outcome.SUCCESS)))
          .isEqualTo(AsyncExperienceManager.Submission.ACCEPTED);
      m.submit("ops", new Trajectory("renew the api certificate", "restarted nginx first ... failed", Outcome.FAILURE));
      assertThat(m.awaitIdle(Duration.ofSeconds(30))).isTrue();
      assertThat(experiences(loop)).containsExactlyInAnyOrder(
          "SUCCESS: 1. run certbot renew --cert-name api",
          "FAILURE: Do not restart nginx before the certificate is renewed.");
      assertThat(m.stats().distilled()).isEqualTo(2);
      assertThat(s.requests()).allSatisfy(r -> assertThat(r.messages().getLast().content()).contains("renew the api certificate"));
    }
  }

  @Test
  void anUnavailableModelFallsBackToTheRawTrajectoryMarkedAsSuch() throws Exception {
    try (ScriptedServer s = ScriptedServer.start((req, call) -> call % 2 == 1 ? Reply.of(503, "{\"error\":\"busy\"}") : Reply.disconnect());
        MemLoop loop = engine();
        AsyncExperienceManager m = new AsyncExperienceManager(loop, new LlmExperienceExtractor(model(s)), 4, 1, 1)) {
      m.submit("ops", new Trajectory("clear the cache", "cdnctl purge /; ok", Outcome.SUCCESS));
      assertThat(m.awaitIdle(Duration.ofSeconds(30))).isTrue();
      assertThat(experiences(loop)).containsExactly("SUCCESS: What worked (raw trajectory, not distilled):\ncdnctl purge /; ok");
      assertThat(m.stats().fallbacks()).isEqualTo(1);
      assertThat(s.requests()).hasSizeGreaterThanOrEqualTo(2); // retried before falling back
    }
  }

  @Test
  void aFullQueueIsReportedNotWaitedOnAndCloseDrainsIt() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch firstArrived = new CountDownLatch(1);
    try (ScriptedServer s = ScriptedServer.start((req, call) -> {
          firstArrived.countDown();
          release.await();
          return Reply.of(200, ScriptedServer.chatCompletion("step " + call, "stop", 5, 5));
        });
        MemLoop loop = engine()) {
      AsyncExperienceManager m = new AsyncExperienceManager(loop, new LlmExperienceExtractor(model(s)), 2, 1, 1);
      m.submit("ops", new Trajectory("task 0", "did 0", Outcome.SUCCESS));
      firstArrived.await(); // the worker holds task 0 at the model; the queue is empty again
      assertThat(m.submit("ops", new Trajectory("task 1", "did 1", Outcome.SUCCESS))).isEqualTo(AsyncExperienceManager.Submission.ACCEPTED);
      assertThat(m.submit("ops", new Trajectory("task 2", "did 2", Outcome.SUCCESS))).isEqualTo(AsyncExperienceManager.Submission.ACCEPTED);
      assertThat(m.submit("ops", new Trajectory("task 3", "did 3", Outcome.SUCCESS))).isEqualTo(AsyncExperienceManager.Submission.QUEUE_FULL);
      assertThat(m.stats().rejectedFull()).isEqualTo(1);
      assertThat(m.stats().maxQueued()).isEqualTo(2);
      release.countDown();
      assertThat(m.close(Duration.ofSeconds(30))).isZero();
      assertThat(m.submit("ops", new Trajectory("late", "x", Outcome.SUCCESS))).isEqualTo(AsyncExperienceManager.Submission.CLOSED);
      assertThat(loop.stats("ops").memories()).isEqualTo(3);
      assertThat(m.stats().accepted()).isEqualTo(3);
    }
  }

  @Test
  void longTrajectoriesKeepTheirStartAndEnd() {
    String steps = "START " + "x".repeat(50_000) + " END";
    io.memloop.chat.ChatModel never = new io.memloop.chat.ChatModel() {
      @Override
      public String modelId() {
        return "never-called";
      }

      @Override
      public io.memloop.chat.ChatReply complete(List<io.memloop.chat.ChatMessage> messages, long seed) {
        throw new AssertionError("building a prompt calls no model");
      }
    };
    LlmExperienceExtractor x = new LlmExperienceExtractor(never, 1_000, 500);
    String prompt = x.prompt(new Trajectory("t", steps, Outcome.FAILURE));
    assertThat(prompt).contains("START").contains(" END").contains("characters left out").hasSizeLessThan(3_000);
  }
}
