package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.embed.Embedder;
import io.memloop.store.InMemoryStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 25: the store records which embedding model made its vectors, and the engine refuses to open it with
 * another model. Before, a store made with one model and opened with another answered every search with nothing
 * (or noise) and no error.
 */
class ModelIdentityTest {
  private static final int DIM = 8;

  /** A deterministic model: component i counts the letters of the text congruent to i + shift. */
  private static Embedder letters(String id, int shift) {
    return new Embedder() {
      @Override public int dimension() { return DIM; }
      @Override public String modelId() { return id; }
      @Override public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>();
        for (String t : texts) {
          float[] v = new float[DIM];
          t.chars().forEach(c -> v[Math.floorMod(c + shift, DIM)]++);
          out.add(v);
        }
        return out;
      }
    };
  }

  @Test
  void storeWithoutModel_adoptsTheModelItIsFirstOpenedWith() {
    InMemoryStore store = new InMemoryStore(DIM);
    MemLoop loop = MemLoop.builder().store(store).embedder(letters("letters-a", 0)).build();
    assertThat(store.model()).contains(new EmbeddingModel("letters-a", DIM));
    assertThat(loop.stats("ns").model()).isEqualTo(new EmbeddingModel("letters-a", DIM));
    // the same model again opens it
    MemLoop.builder().store(store).embedder(letters("letters-a", 0)).build();
    assertThat(store.model()).contains(new EmbeddingModel("letters-a", DIM));
  }

  @Test
  void storeOfAnotherModel_isRefused_namingBothModelsAndTheFix() {
    InMemoryStore same = new InMemoryStore(DIM);
    MemLoop.builder().store(same).embedder(letters("letters-a", 0)).build()
        .remember("ns", Intent.ofText("book a flight"), "use the airline site", Outcome.SUCCESS);
    assertThatThrownBy(() -> MemLoop.builder().store(same).embedder(letters("letters-b", 3)).build())
        .isInstanceOfSatisfying(MemLoopException.class, e -> {
          assertThat(e.reason()).isEqualTo(MemLoopException.Reason.CONFLICT);
          assertThat(e.field()).isEqualTo("embedder");
        })
        .hasMessageContainingAll("'letters-a' (8-d)", "'letters-b' (8-d)", "migrate --re-embed");
    assertThat(same.model()).contains(new EmbeddingModel("letters-a", DIM));
  }

  @Test
  void withoutAnEmbedder_nothingIsCheckedOrRecorded() {
    InMemoryStore store = new InMemoryStore(DIM);
    try (MemLoop loop = MemLoop.builder().store(store).build()) {
      float[] v = new float[DIM];
      v[0] = 1;
      loop.remember("ns", Intent.ofEmbedding(v), "experience", Outcome.SUCCESS);
      assertThat(loop.stats("ns").model()).isNull();
    }
    assertThat(store.model()).isEmpty();
    InMemoryStore recorded = new InMemoryStore(DIM);
    recorded.recordModel(new EmbeddingModel("letters-a", DIM));
    MemLoop loop = MemLoop.builder().store(recorded).build(); // embeddings supplied by the caller: not refused
    assertThat(loop.stats("ns").model()).isEqualTo(new EmbeddingModel("letters-a", DIM));
  }

  @Test
  void modelOfAnotherDimension_isStillRefusedByDimension() {
    InMemoryStore store = new InMemoryStore(DIM + 1);
    assertThatThrownBy(() -> MemLoop.builder().store(store).embedder(letters("letters-a", 0)).build())
        .isInstanceOfSatisfying(MemLoopException.class,
            e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT))
        .hasMessageContaining("8-d vectors but the store holds 9-d");
    assertThat(store.model()).isEmpty();
  }

  @Test
  void modelNames_areSingleLineAndBounded() {
    assertThatThrownBy(() -> new EmbeddingModel("two\nlines", DIM)).hasMessageContaining("model.id");
    assertThatThrownBy(() -> new EmbeddingModel(" ", DIM)).hasMessageContaining("model.id");
    assertThatThrownBy(() -> new EmbeddingModel("x".repeat(EmbeddingModel.MAX_ID_CHARS + 1), DIM))
        .hasMessageContaining("model.id");
    assertThatThrownBy(() -> new EmbeddingModel("m", 0)).hasMessageContaining("model.dimension");
  }
}
