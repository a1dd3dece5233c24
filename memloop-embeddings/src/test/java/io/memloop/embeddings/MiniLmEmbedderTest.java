package io.memloop.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.MemLoopException;
import io.memloop.MemLoopException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MiniLmEmbedderTest {

  /** Loading the model takes about a second: one instance for the whole class. */
  private static MiniLmEmbedder embedder;

  private static final List<String> TEXTS =
      List.of(
          "How do I reset my password?",
          "Deploy the billing service to staging and run the smoke tests",
          "Summarise the last three incident reports for the on-call handover",
          "Convert the CSV export of customer orders to Parquet",
          "Why does the integration test time out on the CI runner?",
          "Book a meeting room for Thursday afternoon",
          "Refactor the retry loop to use exponential backoff",
          "Translate the onboarding guide into German",
          "Find all invoices above 10,000 EUR from last quarter",
          "The quick brown fox jumps over the lazy dog");

  @BeforeAll
  static void load() {
    embedder = MiniLmEmbedder.create(2);
  }

  @AfterAll
  static void close() {
    embedder.close();
  }

  @Test
  void describesItself() {
    assertThat(embedder.dimension()).isEqualTo(384);
    assertThat(embedder.modelId()).isEqualTo("all-minilm-l6-v2-q");
    assertThat(embedder.workers()).isEqualTo(2);
  }

  @Test
  void embed_returnsUnitVectorOfDimension384() {
    float[] v = embedder.embed("How do I reset my password?");

    assertThat(v).hasSize(384);
    assertThat(Math.sqrt(dot(v, v))).isCloseTo(1.0, within(1e-4));
  }

  @Test
  void paraphrases_scoreClearlyHigherThanUnrelatedPair() {
    float[] question = embedder.embed("How do I reset my password?");
    float[] paraphrase = embedder.embed("I forgot my password, how can I change it?");
    float[] unrelated = embedder.embed("The train to Berlin leaves at noon from platform 4.");

    double similar = cosine(question, paraphrase);
    double different = cosine(question, unrelated);

    assertThat(similar).isGreaterThan(0.7);
    assertThat(similar - different).isGreaterThan(0.5);
  }

  @Test
  void embedAll_equalsPerTextEmbed() {
    List<float[]> batch = embedder.embedAll(TEXTS);

    assertThat(batch).hasSize(TEXTS.size());
    for (int i = 0; i < TEXTS.size(); i++) {
      assertThat(batch.get(i)).as("texts[%d]", i).containsExactly(embedder.embed(TEXTS.get(i)), within(1e-5f));
    }
  }

  @Test
  void concurrentCalls_returnSameVectorsAsSequential() throws Exception {
    List<float[]> sequential = new ArrayList<>();
    for (String text : TEXTS) {
      sequential.add(embedder.embed(text));
    }
    AtomicInteger ids = new AtomicInteger();
    ExecutorService callers =
        Executors.newFixedThreadPool(4, r -> new Thread(r, "minilm-test-caller-" + ids.incrementAndGet()));
    try {
      List<Future<List<float[]>>> results = new ArrayList<>();
      for (int c = 0; c < 4; c++) {
        int caller = c;
        // Callers mix batch and single calls, and start at different texts, so inferences interleave.
        results.add(
            callers.submit(
                () -> {
                  if (caller % 2 == 0) {
                    return embedder.embedAll(TEXTS);
                  }
                  List<float[]> one = new ArrayList<>();
                  for (String text : TEXTS) {
                    one.add(embedder.embed(text));
                  }
                  return one;
                }));
      }
      for (Future<List<float[]>> result : results) {
        List<float[]> vectors = result.get();
        for (int i = 0; i < TEXTS.size(); i++) {
          assertThat(vectors.get(i)).as("texts[%d]", i).containsExactly(sequential.get(i), within(1e-5f));
        }
      }
    } finally {
      callers.shutdownNow();
    }
  }

  @Test
  void embedAll_ofEmptyList_returnsEmptyList() {
    assertThat(embedder.embedAll(List.of())).isEmpty();
  }

  @Test
  void embedAll_withBlankText_isRejectedNamingTheIndex() {
    assertThatThrownBy(() -> embedder.embedAll(List.of("fine", "  ")))
        .isInstanceOfSatisfying(
            MemLoopException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.INVALID_ARGUMENT);
              assertThat(e.field()).isEqualTo("texts[1]");
            });
  }

  @Test
  void create_withZeroWorkers_isRejected() {
    assertThatThrownBy(() -> MiniLmEmbedder.create(0))
        .isInstanceOfSatisfying(
            MemLoopException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.INVALID_ARGUMENT);
              assertThat(e.field()).isEqualTo("workers");
              assertThat(e.getMessage()).contains("got 0");
            });
  }

  @Test
  void embedAll_afterClose_failsWithEmbeddingFailed() {
    MiniLmEmbedder closed = MiniLmEmbedder.create(1);
    closed.close();
    closed.close(); // idempotent

    assertThatThrownBy(() -> closed.embed("anything"))
        .isInstanceOfSatisfying(
            MemLoopException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(Reason.EMBEDDING_FAILED);
              assertThat(e.getMessage()).contains("closed");
            });
  }

  private static double cosine(float[] a, float[] b) {
    return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  }

  private static double dot(float[] a, float[] b) {
    double s = 0;
    for (int i = 0; i < a.length; i++) {
      s += (double) a[i] * b[i];
    }
    return s;
  }
}
