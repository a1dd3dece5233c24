package io.memloop.embeddings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.MemLoopException;
import java.util.List;
import org.junit.jupiter.api.Test;

class HashingEmbedderTest {
  private final HashingEmbedder e = new HashingEmbedder();

  private double cos(String a, String b) {
    float[] x = e.embed(a);
    float[] y = e.embed(b);
    double dot = 0;
    for (int i = 0; i < x.length; i++) {
      dot += x[i] * y[i];
    }
    return dot;
  }

  @Test
  void vectorsAreUnitLength_deterministic_andOfTheStatedDimension() {
    for (String t : List.of("Restart the payment service", "!!!", "Ünïcödé wörds 42", "a")) {
      float[] v = e.embed(t);
      assertThat(v).hasSize(384);
      double norm = 0;
      for (float x : v) {
        norm += x * x;
      }
      assertThat(norm).isCloseTo(1, within(1e-5));
      assertThat(new HashingEmbedder().embed(t)).containsExactly(v);
    }
    assertThat(e.modelId()).isEqualTo("hashing-v1-384");
  }

  @Test
  void sharedWordsMeanHighCosine_disjointTextsNearZero() {
    assertThat(cos("restart the payment service", "restart the payment service")).isCloseTo(1, within(1e-6));
    double twin = cos("restart the payment service in staging", "restart the payment service in production");
    double unrelated = cos("restart the payment service", "how many students took poetry in 2020");
    assertThat(twin).isBetween(0.5, 0.95);
    assertThat(unrelated).isLessThan(0.2);
    assertThat(cos("Restart, the PAYMENT service!", "restart the payment service")).isCloseTo(1, within(1e-6));
  }

  @Test
  void blankTextsAndBadDimensions_areRejectedNamingTheField() {
    assertThatThrownBy(() -> e.embed(" ")).isInstanceOf(MemLoopException.class).hasMessageContaining("text");
    assertThatThrownBy(() -> new HashingEmbedder(3)).isInstanceOf(MemLoopException.class).hasMessageContaining("dimension");
  }
}
