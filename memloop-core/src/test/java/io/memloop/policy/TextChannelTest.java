package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TextChannelTest {

  @Test
  void intentVector_isTheTextsLexicalVector_keptBoundedAcrossCalls() {
    SplittableRandom random = new SplittableRandom(27);
    for (int i = 0; i < 3 * TextChannel.INTENT_VECTORS_KEPT; i++) {
      String text = "restart the " + random.nextInt(10 * TextChannel.INTENT_VECTORS_KEPT) + " worker on host " + i % 7;
      float[] kept = TextChannel.intentVector(text);
      assertThat(kept).containsExactly(TextChannel.vector(text, TextChannel.DIMENSION));
      assertThat(TextChannel.intentVector(text)).as("the second call gives the kept vector").isSameAs(kept);
      assertThat(TextChannel.intentVectorsKept()).isBetween(1, TextChannel.INTENT_VECTORS_KEPT);
    }
  }
}
