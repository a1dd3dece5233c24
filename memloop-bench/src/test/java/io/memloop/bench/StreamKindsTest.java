package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StreamKindsTest {

  @Test
  void quotas_shareEquallyWithinCapacities_andAddUpToTheLength() {
    assertThat(StreamKinds.quotas(10, new int[] {5, 5, 5})).containsExactly(4, 3, 3);
    // A kind short of its share gives all it has; the others share the rest.
    assertThat(StreamKinds.quotas(100, new int[] {10, 100, 100})).containsExactly(10, 45, 45);
    assertThat(StreamKinds.quotas(7, new int[] {0, 3, 9})).containsExactly(0, 3, 4);
  }

  @Test
  void quotas_moreThanTheKindsSupply_isRefusedWithTheMaximum() {
    assertThatThrownBy(() -> StreamKinds.quotas(12, new int[] {5, 6}))
        .isInstanceOf(MemLoopException.class)
        .hasMessage("streamLength: this environment supplies at most 11 never-seen instances at this size, got 12");
  }

  @Test
  void order_spreadsEveryKindOverTheWholeStream() {
    int[] quotas = {50, 30, 20};
    List<Integer> order = StreamKinds.order(quotas, new SplittableRandom(1));
    assertThat(order).hasSize(100);
    for (int k = 0; k < quotas.length; k++) {
      int kind = k;
      assertThat(order.stream().filter(x -> x == kind)).hasSize(quotas[k]);
      // Each half of the stream holds about half of each kind (the j-th of n sits in [j/n, (j+1)/n)).
      long firstHalf = order.subList(0, 50).stream().filter(x -> x == kind).count();
      assertThat(firstHalf).isBetween(quotas[k] / 2L - 8, quotas[k] / 2L + 8);
    }
    assertThat(StreamKinds.order(quotas, new SplittableRandom(1))).isEqualTo(order);
  }

  @Test
  void drifting_roundsTheShareToWholeKinds_atLeastOne() {
    assertThat(StreamKinds.drifting(33, 1.0 / 3, new SplittableRandom(1))).hasSize(11);
    assertThat(StreamKinds.drifting(4, 0.01, new SplittableRandom(1))).hasSize(1);
    assertThat(StreamKinds.drifting(4, 1, new SplittableRandom(1))).containsExactly(0, 1, 2, 3);
  }
}
