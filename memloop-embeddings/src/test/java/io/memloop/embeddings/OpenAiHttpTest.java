package io.memloop.embeddings;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoopException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The shared helpers; the retry loop itself is exercised through both clients' tests. */
class OpenAiHttpTest {

  @Test
  void backoff_doublesUpToTheCap_andNeverWaitsLessThanRetryAfter() {
    OpenAiHttp.Settings settings = new OpenAiHttp.Settings("/v1/embeddings", Duration.ofSeconds(30));
    settings.retryBackoff(Duration.ofMillis(500), Duration.ofSeconds(3));
    try (OpenAiHttp http = new OpenAiHttp(settings, Reason.EMBEDDING_FAILED, false)) {
      assertThat(IntStream.rangeClosed(1, 5).mapToObj(a -> http.backoff(a, Duration.ZERO)))
          .containsExactly(Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(2),
              Duration.ofSeconds(3), Duration.ofSeconds(3));
      assertThat(http.backoff(1, Duration.ofSeconds(2))).isEqualTo(Duration.ofSeconds(2));
      assertThat(http.backoff(64, Duration.ZERO)).isEqualTo(Duration.ofSeconds(3));
    }
  }

  @Test
  void excerpt_keepsShortBodies_andCutsLongOnesAt200Chars() {
    assertThat(OpenAiHttp.excerpt(new byte[0])).isEqualTo("(empty)");
    assertThat(OpenAiHttp.excerpt("{\"error\":\"no\"}".getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("{\"error\":\"no\"}");
    String accents = "é".repeat(500); // 2 bytes each: the byte prefix alone would not cut it
    assertThat(OpenAiHttp.excerpt(accents.getBytes(StandardCharsets.UTF_8)))
        .isEqualTo("é".repeat(OpenAiHttp.BODY_EXCERPT_CHARS) + "…");
  }
}
