package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class EvictionTest {
  private static Memory memory(String id, double q, long visits) {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return new Memory(id, "ns", "i1", "intent", new float[] {1f}, "text", Outcome.SUCCESS, q, visits, t, t);
  }

  @Test
  void compare_lowestQFirst_thenFewestVisits_thenOldest() {
    assertThat(Eviction.compare(-0.5, 9, 90, 0.5, 0, 1)).isNegative();
    assertThat(Eviction.compare(0.5, 0, 1, -0.5, 9, 90)).isPositive();
    assertThat(Eviction.compare(0.0, 1, 90, 0.0, 2, 1)).isNegative();
    assertThat(Eviction.compare(0.0, 2, 1, 0.0, 1, 90)).isPositive();
    assertThat(Eviction.compare(0.0, 1, 9, 0.0, 1, 12)).isNegative();
    assertThat(Eviction.compare(0.0, 1, 12, 0.0, 1, 9)).isPositive();
    assertThat(Eviction.compare(0.0, 1, 12, 0.0, 1, 12)).isZero();
  }

  @Test
  void compare_treatsMinusZeroAsZero_asTheStoresAlwaysHave() {
    assertThat(Eviction.compare(-0.0, 1, 9, 0.0, 1, 12)).isNegative(); // a tie on Q: the older goes
    assertThat(Eviction.compare(0.0, 1, 9, -0.0, 1, 12)).isNegative();
  }

  @Test
  void order_readsTheSequenceFromTheMemoryId_numerically() {
    List<Memory> ms = new ArrayList<>(List.of(memory("m12", 0, 0), memory("m9", 0, 0), memory("m100", -1, 5)));
    ms.sort(Eviction.ORDER);
    assertThat(ms).extracting(Memory::id).containsExactly("m100", "m9", "m12");
  }

  @Test
  void compare_agreesWithAReferenceSort_onRandomTies() {
    SplittableRandom rnd = new SplittableRandom(26);
    for (int round = 0; round < 200; round++) {
      List<Memory> ms = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        ms.add(memory("m" + (i * 3 + 1), rnd.nextInt(3) * 0.25, rnd.nextInt(3)));
      }
      List<Memory> expected = new ArrayList<>(ms);
      expected.sort(java.util.Comparator.comparingDouble(Memory::q).thenComparingLong(Memory::visits)
          .thenComparingLong(m -> Long.parseLong(m.id().substring(1))));
      ms.sort(Eviction.ORDER);
      assertThat(ms).containsExactlyElementsOf(expected);
    }
  }
}
