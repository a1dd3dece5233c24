package io.memloop.bench;

import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.embeddings.HashingEmbedder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class IntentEmbeddingsTest {

  /** Records the batches it is asked to embed. */
  private static final class CountingEmbedder implements Embedder {
    final HashingEmbedder inner = new HashingEmbedder(16);
    final List<Integer> batches = new ArrayList<>();
    final List<String> texts = new ArrayList<>();

    @Override
    public int dimension() {
      return inner.dimension();
    }

    @Override
    public String modelId() {
      return "counting";
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      batches.add(texts.size());
      this.texts.addAll(texts);
      return inner.embedAll(texts);
    }
  }

  @Test
  void of_embedsEachDistinctIntentOnce_inBatches() {
    CountingEmbedder embedder = new CountingEmbedder();
    List<String> intents = new ArrayList<>(IntStream.range(0, 150).mapToObj(i -> "task number " + i).toList());
    intents.addAll(intents.subList(0, 10)); // repeats are embedded once
    IntentEmbeddings embeddings = IntentEmbeddings.of(embedder, intents);
    assertThat(embeddings.size()).isEqualTo(150);
    assertThat(embedder.texts).hasSize(150).doesNotHaveDuplicates();
    int batch = IntentEmbeddings.BATCH;
    assertThat(embedder.batches).containsExactly(batch, batch, 150 - 2 * batch);
    assertThat(embeddings.of("task number 7")).isEqualTo(embedder.inner.embed("task number 7"));
  }

  @Test
  void of_environment_includesPriorExperiences() {
    RecurringTasksEnvironment env = Fixtures.env(2, 6, 2, 0.5, 0);
    IntentEmbeddings embeddings = IntentEmbeddings.of(new HashingEmbedder(64), env);
    assertThat(embeddings.size()).isEqualTo(12); // stale memories reuse task intents
    env.priorExperiences().forEach(p -> assertThat(embeddings.of(p.intent())).hasSize(64));
  }

  @Test
  void of_unknownIntent_throws() {
    IntentEmbeddings embeddings = IntentEmbeddings.of(new HashingEmbedder(64), List.of("a"));
    assertThatThrownBy(() -> embeddings.of("b")).hasMessageContaining("not embedded: b");
  }

  @Test
  void of_wrongDimension_throws() {
    Embedder liar = new Embedder() {
      @Override
      public int dimension() {
        return 8;
      }

      @Override
      public String modelId() {
        return "liar";
      }

      @Override
      public List<float[]> embedAll(List<String> texts) {
        return texts.stream().map(t -> new float[4]).toList();
      }
    };
    assertThatThrownBy(() -> IntentEmbeddings.of(liar, List.of("a")))
        .hasMessageContaining("liar returned a 4-d embedding, its dimension() is 8");
  }
}
