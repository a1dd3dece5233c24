package io.memloop.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Candidate;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StoreCopyTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static float[] random(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "test");
  }

  @Test
  void copiesMemoriesGroupsUtilitiesAndSettingsExactly_intoAnotherStore() {
    MemoryStore from = new InMemoryStore(DIM);
    SplittableRandom rnd = new SplittableRandom(3);
    List<Memory> source = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      float[] center = random(rnd);
      // groups of one to three memories; the later ones close to the first
      for (int j = 0; j <= i % 3; j++) {
        float[] v = center.clone();
        v[j] += 0.01f;
        source.add(from.insert(new NewMemory("team", "task " + i, Vectors.normalized(v, "test"), "experience " + i + "." + j,
            j == 0 ? Outcome.SUCCESS : Outcome.FAILURE, 0.1 * j, T0.plusSeconds(i)), 0.95));
      }
    }
    from.insert(new NewMemory("other", "elsewhere", random(rnd), "not copied", Outcome.SUCCESS, 0, T0), 0.95);
    // some memories rewarded, at different times
    for (int r = 0; r < 30; r++) {
      Memory m = source.get(rnd.nextInt(source.size()));
      RetrievalRecord rec = from.saveRetrieval(new RetrievalRecordDraft("team", T0, T0.plus(Duration.ofDays(1)),
          List.of(new Candidate(m.id(), 1, 0, 0, true, 1))));
      from.applyReward("team", rec.id(), T0.plusSeconds(1000 + r), (id, u) -> new Utility(u.q() * 0.5 + 0.25, u.visits() + 1));
    }
    from.saveSettings("team", Map.of("preset", "default", "k1", "7"));
    List<Memory> before = new ArrayList<>();
    from.forEachMemory("team", before::add);

    MemoryStore to = new InMemoryStore(DIM);
    List<Long> progress = new ArrayList<>();
    StoreCopy.Result result = StoreCopy.copy(from, to, "team", progress::add);

    assertThat(result).isEqualTo(new StoreCopy.Result("team", before.size(), 40, true));
    assertThat(progress).hasSize(before.size()).last().isEqualTo((long) before.size());
    List<Memory> after = new ArrayList<>();
    to.forEachMemory("team", after::add);
    assertThat(after).hasSize(before.size());
    Map<String, String> groupMap = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      Memory a = before.get(i);
      Memory b = after.get(i);
      assertThat(b).usingRecursiveComparison().ignoringFields("id", "intentId").isEqualTo(a);
      // the same grouping: one target group per source group, and never two source groups in one
      assertThat(groupMap.computeIfAbsent(a.intentId(), x -> b.intentId())).isEqualTo(b.intentId());
    }
    assertThat(groupMap.values()).doesNotHaveDuplicates();
    assertThat(to.settings("team")).contains(Map.of("preset", "default", "k1", "7"));
    assertThat(to.namespaces()).containsExactly("team");
    assertThat(to.counts("team", T0).pendingRetrievals()).isZero();
  }

  @Test
  void refusesATargetNamespaceThatHoldsMemories_orAnotherDimension() {
    MemoryStore from = new InMemoryStore(DIM);
    from.insert(new NewMemory("team", "t", random(new SplittableRandom(1)), "e", Outcome.SUCCESS, 0, T0), 0.9);
    MemoryStore busy = new InMemoryStore(DIM);
    busy.insert(new NewMemory("team", "t", random(new SplittableRandom(2)), "mine", Outcome.SUCCESS, 0, T0), 0.9);
    assertThatThrownBy(() -> StoreCopy.copy(from, busy, "team", n -> {}))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("already holds memories");
    List<Memory> kept = new ArrayList<>();
    busy.forEachMemory("team", kept::add);
    assertThat(kept).extracting(Memory::experience).containsExactly("mine");
    assertThatThrownBy(() -> StoreCopy.copy(from, new InMemoryStore(DIM + 1), "team", n -> {}))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("holds 9-d vectors, the source 8-d");
  }
}
