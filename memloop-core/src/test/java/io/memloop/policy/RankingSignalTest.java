package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.store.Annotations;
import io.memloop.store.InMemoryStore;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

class RankingSignalTest {

  /** A signal that does what its javadoc forbids: {@code bad} decides how. */
  private record Broken(String name, int bad) implements RankingSignal {
    @Override
    public String annotation() {
      return name;
    }

    @Override
    public void reorder(String task, List<PoolEntry> pool, Annotations.@Nullable Entry[] state, int[] order, int eligible) {
      if (bad == 1) {
        order[0] = order[1]; // a duplicate: not a permutation
      } else if (bad == 2) {
        int t = order[eligible - 1]; // swaps an eligible candidate with a dropped one
        order[eligible - 1] = order[eligible];
        order[eligible] = t;
      } else {
        int t = order[0];
        order[0] = order[eligible - 1];
        order[eligible - 1] = t;
      }
    }

    @Override
    public Annotations.@Nullable Entry after(String task, PoolEntry entry, Annotations.@Nullable Entry before, boolean shown) {
      return null;
    }
  }

  @Test
  void aSignalMayOnlyPermuteTheEligibleCandidates() {
    int[] order = {2, 0, 1, 3};
    RankingSignal.reorderChecked(new Broken("ok", 0), "t", List.of(), new Annotations.Entry[4], order, 3);
    assertThat(order).containsExactly(1, 0, 2, 3);
    assertThatThrownBy(() -> RankingSignal.reorderChecked(new Broken("dup", 1), "t", List.of(), new Annotations.Entry[4],
        new int[] {2, 0, 1, 3}, 3)).isInstanceOf(IllegalStateException.class).hasMessageContaining("'dup'");
    assertThatThrownBy(() -> RankingSignal.reorderChecked(new Broken("leak", 2), "t", List.of(), new Annotations.Entry[4],
        new int[] {2, 0, 1, 3}, 3)).isInstanceOf(IllegalStateException.class).hasMessageContaining("'leak'");
  }

  @Test
  void theBuilderRefusesAnInvalidOrSharedAnnotationName_namingTheField() {
    MemLoop.Builder b = MemLoop.builder().store(new InMemoryStore(4)).rankingSignal(new Broken("mine", 0));
    assertThatThrownBy(() -> b.rankingSignal(new Broken("mine", 0)))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("rankingSignal").hasMessageContaining("'mine'");
    assertThatThrownBy(() -> b.rankingSignal(new Broken("Not Valid!", 0)))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("rankingSignal");
  }
}
