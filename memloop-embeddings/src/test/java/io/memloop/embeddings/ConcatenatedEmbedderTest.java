package io.memloop.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ConcatenatedEmbedder}: blocks of unit norm scaled by 1/√B, so the whole cosine is the blocks' mean cosine. */
class ConcatenatedEmbedderTest {

  private static double cosine(float[] a, float[] b, int from, int to) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = from; i < to; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  @Test
  void theWholeCosine_isTheMeanOfTheBlocksCosines() {
    HashingEmbedder small = new HashingEmbedder(64);
    Embedder other = new Embedder() { // another model: the same hashing of the words in reverse
      private final HashingEmbedder inner = new HashingEmbedder(64);

      @Override
      public int dimension() {
        return 64;
      }

      @Override
      public String modelId() {
        return "other";
      }

      @Override
      public List<float[]> embedAll(List<String> texts) {
        return inner.embedAll(texts.stream().map(t -> new StringBuilder(t).reverse().toString()).toList());
      }
    };
    ConcatenatedEmbedder both = new ConcatenatedEmbedder(List.of(small, other));
    assertThat(both.dimension()).isEqualTo(128);
    assertThat(both.blocks()).isEqualTo(2);
    assertThat(both.modelId()).isEqualTo(small.modelId() + "+other");
    List<float[]> v = both.embedAll(List.of("restart the web server", "restart the database server"));
    double norm = 0;
    for (float f : v.get(0)) {
      norm += f * f;
    }
    assertThat(norm).isCloseTo(1, within(1e-5));
    double mean = (cosine(v.get(0), v.get(1), 0, 64) + cosine(v.get(0), v.get(1), 64, 128)) / 2;
    assertThat(cosine(v.get(0), v.get(1), 0, 128)).isCloseTo(mean, within(1e-5));
  }

  @Test
  void oneModel_orModelsOfTwoDimensions_areRefusedNamingTheEmbedder() {
    assertThatThrownBy(() -> new ConcatenatedEmbedder(List.of(new HashingEmbedder())))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("embedder").hasMessageContaining("two models");
    assertThatThrownBy(() -> new ConcatenatedEmbedder(List.of(new HashingEmbedder(64), new HashingEmbedder(128))))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("64").hasMessageContaining("128");
  }
}
