package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import io.memloop.store.NewMemory;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The ledger stays bounded ({@link TaskLedger#sweep}): a memory's entries go with the memory, a task's once it has not
 * been rewarded while {@link TaskLedger#TASKS_KEPT} others were, and the namespace's own entries stay.
 */
class LedgerSweepTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private static float[] unit(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "v");
  }

  @Test
  void dropsTheEntriesOfGoneMemoriesAndLongUnseenTasks_keepsTheRest_andStampsOldTaskEntries() {
    InMemoryStore store = new InMemoryStore(DIM);
    String live = store.insert(new NewMemory("ns", "kept", unit(new SplittableRandom(1)), "x", Outcome.SUCCESS, 0, T0), 2)
        .id();
    String dead = store.insert(new NewMemory("ns", "deleted", unit(new SplittableRandom(2)), "y", Outcome.SUCCESS, 0, T0),
        2).id();
    assertThat(store.delete("ns", dead)).isTrue();
    long tick = 80_000;
    long recent = 100; // the last of the most recent TASKS_KEPT: kept
    long old = recent - 1;
    Map<String, double[]> newer = new java.util.HashMap<>(); // TASKS_KEPT − 2 tasks rewarded since, and the legacy one
    for (int i = 0; i < TaskLedger.TASKS_KEPT - 2; i++) {
      newer.put("t:tn" + i, new double[] {0, 0, recent + 1 + i});
    }
    store.putLedger("ns", newer);
    store.putLedger("ns", Map.ofEntries(
        Map.entry("t:ta", new double[] {0, 1, recent}),
        Map.entry("t:told", new double[] {2, 0, old}),
        Map.entry("t:tlegacy", new double[] {1, 0}),
        Map.entry("p:ta:" + live, new double[] {1}),
        Map.entry("p:ta:" + dead, new double[] {-1}),
        Map.entry("p:told:" + live, new double[] {1}),
        Map.entry("c:" + live, new double[] {1, 0, 5}),
        Map.entry("c:" + dead, new double[] {1, 2, 6}),
        Map.entry("u:" + dead, new double[] {3, 1, 0.9}),
        Map.entry("n", new double[] {1, 1, 2, 1}),
        Map.entry("r", new double[] {tick, 3}),
        Map.entry("b", new double[] {1, 1, 0, 0.5, -0.5})));
    store.putLedger("other", Map.of("c:" + dead, new double[] {1, 0})); // another namespace's: not touched

    int dropped = new TaskLedger(store, 1).sweep("ns", tick);

    assertThat(dropped).isEqualTo(5);
    Set<String> left = new HashSet<>(store.ledgerKeys("ns"));
    assertThat(left).hasSize(TaskLedger.TASKS_KEPT + 6);
    assertThat(left.containsAll(newer.keySet())).as("the newer tasks are kept").isTrue(); // (AssertJ's is quadratic)
    left.removeAll(newer.keySet());
    assertThat(left).containsExactlyInAnyOrder("t:ta", "t:tlegacy", "p:ta:" + live, "c:" + live, "n", "r", "b",
        TaskLedger.SWEEP_KEY);
    assertThat(store.ledger("ns", List.of("t:tlegacy")).get("t:tlegacy")).containsExactly(1, 0, tick);
    assertThat(store.ledger("ns", List.of("t:ta")).get("t:ta")).containsExactly(0, 1, recent);
    assertThat(store.ledger("ns", List.of(TaskLedger.SWEEP_KEY)).get(TaskLedger.SWEEP_KEY))
        .containsExactly(tick, TaskLedger.TASKS_KEPT + 6);
    assertThat(store.ledgerKeys("other")).containsExactly("c:" + dead);
  }

  /**
   * A replay of a log (off-policy evaluation) keeps its ledger over a store that holds none of the memories its entries
   * name: there a sweep would drop them all, so it never sweeps; the engine's ledger sweeps when due, and not before.
   */
  @Test
  void aLedgerOverAStoreWithoutItsMemories_neverSweeps_theEnginesSweepsWhenDue() {
    InMemoryStore store = new InMemoryStore(DIM);
    store.putLedger("ns", Map.of("c:m1", new double[] {1, 0}, "p:ta:m1", new double[] {1}, "t:ta", new double[] {0, 0, 1}));
    assertThat(new TaskLedger(store, 1, false, false).sweepIfDue("ns", 1_000_000, null)).isFalse();
    assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("c:m1", "p:ta:m1", "t:ta");
    TaskLedger engine = new TaskLedger(store, 1);
    assertThat(engine.sweepIfDue("ns", TaskLedger.SWEEP_MIN - 1, null)).as("not yet due").isFalse();
    assertThat(engine.sweepIfDue("ns", TaskLedger.SWEEP_MIN, null)).isTrue();
    assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("t:ta", TaskLedger.SWEEP_KEY); // m1 never existed
    double[] g = store.ledger("ns", List.of(TaskLedger.SWEEP_KEY)).get(TaskLedger.SWEEP_KEY);
    assertThat(engine.sweepIfDue("ns", TaskLedger.SWEEP_MIN + TaskLedger.SWEEP_MIN - 1, g)).isFalse();
    assertThat(engine.sweepIfDue("ns", 2L * TaskLedger.SWEEP_MIN, g)).isTrue();
  }

  /** Among many memories, only the entries of the one deleted go. */
  @Test
  void inANamespaceOfManyMemories_dropsOnlyTheDeletedOnesEntries() {
    InMemoryStore store = new InMemoryStore(DIM);
    SplittableRandom rnd = new SplittableRandom(5);
    List<String> ids = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      ids.add(store.insert(new NewMemory("ns", "memory " + i, unit(rnd), "e" + i, Outcome.SUCCESS, 0, T0), 2).id());
    }
    String live = ids.get(3);
    String dead = ids.get(7);
    assertThat(store.delete("ns", dead)).isTrue();
    store.putLedger("ns", Map.of("c:" + live, new double[] {1, 0}, "c:" + dead, new double[] {1, 1},
        "p:ta:" + dead, new double[] {1}, "t:ta", new double[] {0, 0, 10}));

    assertThat(new TaskLedger(store, 1).sweep("ns", 20)).isEqualTo(2);
    assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("c:" + live, "t:ta", TaskLedger.SWEEP_KEY);
  }

  /**
   * A stream of tasks that never come back under {@code maxMemories}: every episode adds a task entry and credits a
   * memory, evictions remove memories, and the sweeps that run on their own keep the per-memory entries to live
   * memories (plus what the rewards since the last sweep added).
   */
  @Test
  void aStreamOfNewTasksUnderMaxMemories_keepsPerMemoryEntriesToLiveMemories() {
    InMemoryStore store = new InMemoryStore(DIM);
    int max = 40;
    int episodes = 2_600;
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().maxMemories(max).similarityThreshold(-1)
        .build();
    SplittableRandom rnd = new SplittableRandom(11);
    try (MemLoop loop = MemLoop.builder().store(store).config(config).seed(3).build()) {
      for (int i = 0; i < episodes; i++) {
        Intent intent = Intent.of("task " + i, unit(rnd));
        Retrieval r = loop.retrieve("ns", intent);
        boolean success = rnd.nextDouble() < 0.5;
        if (!r.selected().isEmpty()) {
          loop.reward("ns", r.id(), success ? 1 : -1);
        }
        loop.remember("ns", intent, "what task " + i + " did", success ? Outcome.SUCCESS : Outcome.FAILURE);
      }
    }
    Set<String> liveIds = new HashSet<>();
    store.forEachMemory("ns", m -> liveIds.add(m.id()));
    assertThat(liveIds).hasSizeLessThanOrEqualTo(max);
    double[] g = store.ledger("ns", List.of(TaskLedger.SWEEP_KEY)).get(TaskLedger.SWEEP_KEY);
    assertThat(g).as("a sweep ran on its own").isNotNull();
    long lastSweep = (long) g[0];
    long rewards = (long) store.ledger("ns", List.of("r")).get("r")[0];
    assertThat(lastSweep).isGreaterThanOrEqualTo(TaskLedger.SWEEP_MIN);
    long perMemory = store.ledgerKeys("ns").stream().filter(k -> k.startsWith("c:") || k.startsWith("p:")).count();
    // at most one c: and one p: key per reward since the last sweep, beside those of live memories
    assertThat(perMemory).isLessThanOrEqualTo(2L * liveIds.size() + 2 * (rewards - lastSweep));
    assertThat(perMemory).as("without sweeping, one c: and one p: per credited reward").isLessThan(rewards);

    int dropped = new TaskLedger(store, 1).sweep("ns", rewards);
    assertThat(dropped).isPositive();
    for (String k : store.ledgerKeys("ns")) {
      if (k.startsWith("c:") || k.startsWith("u:")) {
        assertThat(liveIds).contains(k.substring(2));
      } else if (k.startsWith("p:")) {
        assertThat(liveIds).contains(k.substring(k.lastIndexOf(':') + 1));
      }
    }
    assertThat(store.ledgerKeys("ns").stream().filter(k -> k.startsWith("t:")).count())
        .as("every task is still within the window").isEqualTo(rewards);
  }
}
