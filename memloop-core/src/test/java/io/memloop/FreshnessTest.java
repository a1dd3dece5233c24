package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#freshness()}: a task with no record of its own, where a success in its pool has gone stale and
 * tasks seldom come back, is shown newer memories first; where tasks come back, or nothing is stale, or the task has a
 * record, the order is as without it. And the namespace's recurrence ({@code r} in the ledger) against a reference
 * count over seeded random streams.
 */
class FreshnessTest {
  private static final int DIM = 8;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

  private static float[] unit(double... v) {
    return TestVectors.unit(DIM, v);
  }

  /** Near axis 0: the old success is nearer every query than the new one. */
  private static final float[] OLD = unit(1, 0.1);
  private static final float[] NEW = unit(1, 0, 0.6); // cosine 0.85 to OLD: below the merge threshold

  private static Intent query(int i) {
    return Intent.of("a new task " + i, unit(1, 0.05, 0.05 * (i % 3), 0.02 * i));
  }

  private MemLoop engine(MemLoopConfig config) {
    // freshness alone: the words the test's task texts share would reorder the pool too (textSimilarity), and the
    // old way, once it failed, would be doubted (doubt)
    MemLoopConfig vectorsOnly = config.toBuilder().textSimilarity(MemLoopConfig.TextSimilarity.OFF)
        .doubt(MemLoopConfig.Doubt.OFF).build();
    return MemLoop.builder().store(new InMemoryStore(DIM)).config(vectorsOnly).clock(clock).seed(7).build();
  }

  /** The old answer, then three other tasks' successes less near every query (cosine about 0.6): the pool's spread. */
  private static void rememberTheOldWay(MemLoop loop) {
    loop.remember("ns", Intent.of("the old task", OLD), "the old way", Outcome.SUCCESS);
    for (int axis : new int[] {4, 6, 7}) {
      double[] v = new double[axis + 1];
      v[0] = 0.6;
      v[axis] = 0.8;
      loop.remember("ns", Intent.of("another task " + axis, unit(v)), "what worked on axis " + axis, Outcome.SUCCESS);
    }
  }

  /** The experiences {@code loop} shows {@code intent}, in order, old and new way only. */
  private static List<String> oldAndNew(MemLoop loop, Intent intent) {
    return loop.retrieve("ns", intent).selected().stream().map(Memory::experience)
        .filter(e -> e.endsWith(" way")).toList();
  }

  /**
   * The old answer is remembered and helps a new task; then two new tasks fail with it (it has gone stale), then the
   * new answer is remembered: which does a fourth new task see first?
   */
  private static List<String> afterTheChange(MemLoop loop) {
    rememberTheOldWay(loop);
    for (int i = 0; i < 3; i++) {
      Retrieval r = loop.retrieve("ns", query(i));
      assertThat(r.selected().get(0).experience()).isEqualTo("the old way");
      loop.reward("ns", r.id(), i == 0 ? 1 : -1); // credited to the first success shown: the old way
    }
    loop.remember("ns", Intent.of("the task that found the new way", NEW), "the new way", Outcome.SUCCESS);
    return oldAndNew(loop, query(3));
  }

  @Test
  void aStaleSuccess_inANamespaceOfNewTasks_letsTheNewerMemoryGoFirst() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      assertThat(afterTheChange(loop)).containsExactly("the new way", "the old way");
      Explanation why = loop.explain("ns", query(4));
      assertThat(why.steps()).filteredOn(s -> s.step().equals("TaskOrder")).singleElement()
          .satisfies(s -> assertThat(s.detail()).contains("newer memories first (freshness)").contains("gone stale")
              .contains("the last 2 that used it failed"));
      assertThat(why.shown()).hasSize(5);
    }
    clock.advance(java.time.Duration.ofHours(1));
    try (MemLoop off = engine(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().freshness(0).build())) {
      assertThat(afterTheChange(off)).containsExactly("the old way", "the new way");
      assertThat(off.explain("ns", query(4)).steps()).noneMatch(s -> s.detail().contains("freshness"));
    }
  }

  @Test
  void whereTasksComeBack_theSimilarityOrderStays() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      // a task elsewhere (orthogonal to the rest, never in their pools) asked and rewarded twenty times
      Intent elsewhere = Intent.of("the task that comes back", unit(0, 0, 0, 0, 0, 1));
      loop.remember("ns", elsewhere, "its plan", Outcome.SUCCESS);
      for (int i = 0; i < 20; i++) {
        loop.reward("ns", loop.retrieve("ns", elsewhere).id(), 1);
      }
      assertThat(afterTheChange(loop)).containsExactly("the old way", "the new way");
    }
  }

  @Test
  void nothingStale_aSuccessThatNeverHelped_orATaskWithARecord_keepsTheSimilarityOrder() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      rememberTheOldWay(loop);
      loop.reward("ns", loop.retrieve("ns", query(0)).id(), 1);
      loop.reward("ns", loop.retrieve("ns", query(1)).id(), -1); // one failure since it helped: not stale yet
      loop.remember("ns", Intent.of("the task that found the new way", NEW), "the new way", Outcome.SUCCESS);
      assertThat(oldAndNew(loop, query(2))).containsExactly("the old way", "the new way");
      loop.reward("ns", loop.retrieve("ns", query(3)).id(), -1); // the old way's second failure in a row: stale now
      // query(1) failed once: it has a record of its own, and per-task learning, not freshness, orders its pool
      assertThat(loop.explain("ns", query(1)).steps()).noneMatch(s -> s.detail().contains("freshness"));
      assertThat(loop.explain("ns", query(5)).steps()).anyMatch(s -> s.detail().contains("freshness"));
    }
    clock.advance(java.time.Duration.ofHours(1));
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      // a success that never helped anyone, failed by every task that followed it: look-alikes, not a change
      rememberTheOldWay(loop);
      for (int i = 0; i < 4; i++) {
        loop.reward("ns", loop.retrieve("ns", query(i)).id(), -1);
      }
      loop.remember("ns", Intent.of("the task that found the new way", NEW), "the new way", Outcome.SUCCESS);
      assertThat(oldAndNew(loop, query(4))).containsExactly("the old way", "the new way");
    }
  }

  /**
   * Property: over seeded random streams (tasks drawn from a pool of a random size, so some come back and some do
   * not), the ledger's {@code r} entry counts exactly what a reference counts (rewarded retrievals, and those whose
   * task had been rewarded before), and the recurrence a retrieval reads is (recurring + 1) / (rewarded + 2): inside
   * (0, 1), finite, and near the stream's true share of returning tasks once the stream is long.
   */
  @Test
  void recurrence_countsAsTheReference_staysInsideZeroOne_andConvergesToTheShare() {
    SplittableRandom rnd = new SplittableRandom(2026_11_27L);
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().similarityThreshold(-1).build();
    for (int trial = 0; trial < 12; trial++) {
      int kinds = 1 + rnd.nextInt(400);
      int episodes = 200 + rnd.nextInt(400);
      try (MemLoop loop = engine(config)) {
        loop.remember("ns", Intent.of("a plan", unit(1)), "the plan", Outcome.SUCCESS);
        Set<Integer> rewarded = new HashSet<>();
        long total = 0;
        long recurring = 0;
        for (int e = 0; e < episodes; e++) {
          int task = rnd.nextInt(kinds);
          Retrieval r = loop.retrieve("ns", Intent.of("task " + task, unit(1, rnd.nextDouble())));
          boolean rewardIt = rnd.nextInt(5) != 0; // some retrievals are never rewarded
          if (rewardIt) {
            loop.reward("ns", r.id(), rnd.nextBoolean() ? 1 : -1);
            total++;
            recurring += rewarded.add(task) ? 0 : 1;
          }
        }
        double[] entry = loop.store().ledger("ns", List.of("r")).get("r");
        assertThat(entry).as("trial %d", trial).containsExactly(total, recurring);
        double share = (recurring + 1.0) / (total + 2.0);
        TaskLedger ledger = new TaskLedger(loop.store(), 1);
        double read = ledger.view("ns", Intent.ofText("anything"), unit(1), List.of(), config).recurrence();
        assertThat(read).isEqualTo(share).isStrictlyBetween(0.0, 1.0);
        assertThat(Double.isFinite(read)).isTrue();
        // the expected share of rewards by a task rewarded before, over a uniform draw of `kinds`
        double expected = 0;
        for (int n = 0; n < total; n++) {
          expected += 1 - Math.pow(1 - 1.0 / kinds, n);
        }
        expected /= total;
        assertThat(read).as("trial %d: %d kinds, %d rewarded", trial, kinds, total).isCloseTo(expected, within(0.1));
      }
    }
  }

  /**
   * Property: over seeded random episodes that name the memories they used (none, one or two of those shown) and
   * succeed or fail at random, each memory's {@code c:} entry is what a reference counts (uses that succeeded, failed
   * uses since the last successful one), finite and never negative, and the stale set a new task reads is exactly the
   * pooled successes with a success and at least two failures since.
   */
  @Test
  void creditRecord_countsAsTheReference_andStaleIsItsRule() {
    SplittableRandom rnd = new SplittableRandom(2026_11_28L);
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().similarityThreshold(-1).k1(50).build();
    for (int trial = 0; trial < 6; trial++) {
      try (MemLoop loop = engine(config)) {
        List<Memory> memories = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
          memories.add(loop.remember("ns", Intent.of("plan " + i, unit(1, rnd.nextDouble(), rnd.nextDouble())),
              "plan " + i + " of trial " + trial, rnd.nextInt(4) == 0 ? Outcome.FAILURE : Outcome.SUCCESS));
        }
        java.util.Map<String, long[]> reference = new java.util.HashMap<>();
        for (int e = 0; e < 150; e++) {
          Retrieval r = loop.retrieve("ns", Intent.of("episode " + trial + "/" + e, unit(1, rnd.nextDouble(), rnd.nextDouble())));
          List<String> shown = r.selected().stream().map(Memory::id).toList();
          List<String> used = new java.util.ArrayList<>();
          for (String id : shown) {
            if (used.size() < 2 && rnd.nextInt(3) == 0) {
              used.add(id);
            }
          }
          boolean success = rnd.nextBoolean();
          loop.reward("ns", r.id(), success ? 1 : -1, used);
          for (String id : used) {
            long[] c = reference.computeIfAbsent(id, k -> new long[2]);
            if (success) {
              c[0]++;
              c[1] = 0;
            } else {
              c[1]++;
            }
          }
        }
        List<String> keys = memories.stream().map(m -> "c:" + m.id()).toList();
        java.util.Map<String, double[]> entries = loop.store().ledger("ns", keys);
        Set<String> expectedStale = new HashSet<>();
        for (Memory m : memories) {
          long[] c = reference.get(m.id());
          double[] got = entries.get("c:" + m.id());
          if (c == null) {
            assertThat(got).as("%s never used", m.id()).isNull();
            continue;
          }
          assertThat(got).as(m.id()).containsExactly(c[0], c[1]);
          for (double v : got) {
            assertThat(v).isFinite().isNotNegative();
          }
          if (m.outcome() == Outcome.SUCCESS && c[0] >= 1 && c[1] >= io.memloop.policy.TaskView.STALE_AFTER) {
            expectedStale.add(m.id());
          }
        }
        TaskLedger ledger = new TaskLedger(loop.store(), 1);
        float[] q = unit(1, 0.5, 0.5);
        var matches = loop.store().recall("ns", q, 50, -1);
        assertThat(ledger.view("ns", Intent.ofText("a task never seen " + trial), q, matches, config).stale())
            .as("trial %d", trial).isEqualTo(expectedStale);
      }
    }
  }
}
