package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.embed.Embedder;
import io.memloop.store.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MemLoopTest {
  private static final int DIM = 8;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

  private MemLoop engine(MemLoopConfig config) {
    return MemLoop.builder().store(new InMemoryStore(DIM)).config(config).clock(clock).seed(7).build();
  }

  private static float[] vec(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return v;
  }

  private static float[] axis(int i) {
    float[] v = new float[DIM];
    v[i] = 1;
    return v;
  }

  @Test
  void retrieveRewardRemember_roundTrip() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.MEMRL))) {
      Retrieval empty = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      assertThat(empty.selected()).isEmpty();
      assertThat(loop.reward("ns", empty.id(), 1).changes()).isEmpty();

      Memory m = loop.remember("ns", Intent.of("sort a list", axis(0)), "use sorted()", Outcome.SUCCESS);
      assertThat(m.intentText()).isEqualTo("sort a list");
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      assertThat(r.selected()).extracting(Memory::id).containsExactly(m.id());
      assertThat(r.selected().get(0).experience()).isEqualTo("use sorted()");

      RewardResult res = loop.reward("ns", r.id(), 1);
      // MemRL eq. 5 with α = 0.3 from Q = 0: 0 + 0.3 (1 − 0)
      assertThat(res.changes()).containsExactly(new UtilityChange(m.id(), 0, 0.3, 1));
      assertThat(loop.get("ns", m.id()).orElseThrow().q()).isCloseTo(0.3, within(1e-12));
      Stats stats = loop.stats("ns");
      assertThat(stats.memories()).isEqualTo(1);
      assertThat(stats.successes()).isEqualTo(1);
      assertThat(stats.totalVisits()).isEqualTo(1);
      assertThat(stats.meanQ()).isCloseTo(0.3, within(1e-12));
    }
  }

  @Test
  void exactDuplicates_areConsolidated_underTheDefaultPreset_butStoredUnderMemrl() {
    float[] nearlyTheSame = axis(0).clone();
    nearlyTheSame[1] = 0.1f; // cosine 0.995: joins the same intent group
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Memory first = loop.remember("ns", Intent.ofEmbedding(axis(0)), "use sorted()", Outcome.SUCCESS);
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      loop.reward("ns", r.id(), 1);
      Memory again = loop.remember("ns", Intent.ofEmbedding(nearlyTheSame), "use sorted()", Outcome.SUCCESS);
      assertThat(again.id()).isEqualTo(first.id());
      assertThat(again.q()).as("the learned utility is kept").isCloseTo(0.3, within(1e-12));
      // another outcome, another text or another intent group is a new memory
      assertThat(loop.remember("ns", Intent.ofEmbedding(axis(0)), "use sorted()", Outcome.FAILURE).id()).isNotEqualTo(first.id());
      assertThat(loop.remember("ns", Intent.ofEmbedding(axis(0)), "use list.sort()", Outcome.SUCCESS).id()).isNotEqualTo(first.id());
      assertThat(loop.remember("ns", Intent.ofEmbedding(axis(2)), "use sorted()", Outcome.SUCCESS).id()).isNotEqualTo(first.id());
      assertThat(loop.stats("ns").memories()).isEqualTo(4);
    }
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.MEMRL))) {
      loop.remember("ns", Intent.ofEmbedding(axis(0)), "use sorted()", Outcome.SUCCESS);
      loop.remember("ns", Intent.ofEmbedding(axis(0)), "use sorted()", Outcome.SUCCESS);
      assertThat(loop.stats("ns").memories()).isEqualTo(2);
    }
  }

  /**
   * Property of the Monte-Carlo rule Q ← Q + α(r − Q): for a stationary reward the average of Q over
   * many rewards converges to the mean return; Q never leaves [min(Q0, rMin), max(Q0, rMax)]; finite
   * input never yields NaN. Checked against a one-line reference model over seeded random cases.
   */
  @Test
  void monteCarloRule_convergesToTheMeanReturn_staysBounded_neverNaN() {
    SplittableRandom rnd = new SplittableRandom(2026_11_23L);
    for (int run = 0; run < 30; run++) {
      double alpha = 0.01 + rnd.nextDouble() * 0.5;
      double p = rnd.nextDouble(); // chance of reward +1, else -1
      MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL).toBuilder().alpha(alpha).similarityThreshold(-1).k2(1).build();
      try (MemLoop loop = engine(c)) {
        Memory m = loop.remember("ns", Intent.ofEmbedding(axis(0)), "e", Outcome.SUCCESS);
        double reference = m.q();
        double sum = 0;
        int n = 4_000;
        for (int i = 0; i < n; i++) {
          Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
          double reward = rnd.nextDouble() < p ? 1 : -1;
          double q = loop.reward("ns", r.id(), reward).changes().getFirst().qAfter();
          reference += alpha * (reward - reference);
          assertThat(q).isCloseTo(reference, within(1e-9)).isBetween(-1.0, 1.0);
          sum += q;
        }
        // the mean of an EMA of ±1 rewards has std about sqrt(alpha) / sqrt(n) around 2p − 1
        assertThat(sum / n).as("alpha=%s p=%s", alpha, p).isCloseTo(2 * p - 1, within(0.12));
      }
    }
  }

  /** A unit vector with cosine {@code cos} to axis 0, in the (0, 1) plane. */
  private static float[] nearAxis0(double cos) {
    float[] v = new float[DIM];
    v[0] = (float) cos;
    v[1] = (float) Math.sqrt(1 - cos * cos);
    return v;
  }

  @Test
  void temporalDifferenceReward_movesTowardsRewardPlusDiscountedNextValue_andChecksTheNextRetrieval() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL).toBuilder().alpha(0.5).gamma(0.8).build();
    try (MemLoop loop = engine(c)) {
      Memory a = loop.remember("ns", Intent.ofEmbedding(axis(0)), "step 1: open the console", Outcome.SUCCESS);
      Memory b = loop.remember("ns", Intent.ofEmbedding(axis(1)), "step 2: restart the service", Outcome.SUCCESS);
      Retrieval first = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      Retrieval second = loop.retrieve("ns", Intent.ofEmbedding(axis(1)));
      assertThat(loop.reward("ns", second.id(), 1).changes().getFirst().qAfter()).isEqualTo(0.5);

      assertThatThrownBy(() -> loop.reward("ns", first.id(), 0, null, "r999"))
          .isInstanceOfSatisfying(MemLoopException.class, e -> {
            assertThat(e.reason()).isEqualTo(MemLoopException.Reason.NOT_FOUND);
            assertThat(e.field()).isEqualTo("nextRetrievalId");
          });
      assertThatThrownBy(() -> loop.reward("ns", first.id(), 0, null, first.id()))
          .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("nextRetrievalId"));
      assertThat(loop.get("ns", a.id()).orElseThrow().q()).as("a refused reward changes nothing").isZero();

      RewardResult td = loop.reward("ns", first.id(), 0, null, second.id());
      assertThat(td.target()).isCloseTo(0.8 * 0.5, within(1e-12)); // 0 + γ · Q(b)
      assertThat(td.changes().getFirst().qAfter()).isCloseTo(0.5 * 0.4, within(1e-12));
      assertThat(loop.get("ns", b.id()).orElseThrow().q()).as("the next step's memory is not touched").isEqualTo(0.5);
    }
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.MEMRL).toBuilder().alpha(0.5).build())) {
      loop.remember("ns", Intent.ofEmbedding(axis(0)), "x", Outcome.SUCCESS);
      loop.remember("ns", Intent.ofEmbedding(axis(1)), "y", Outcome.SUCCESS);
      Retrieval first = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      Retrieval second = loop.retrieve("ns", Intent.ofEmbedding(axis(1)));
      loop.reward("ns", second.id(), 1);
      RewardResult mc = loop.reward("ns", first.id(), 0, null, second.id());
      assertThat(mc.target()).as("gamma = 0: Monte-Carlo").isZero();
    }
  }

  @Test
  void taskLearning_aFailingTaskTriesASimilarTasksSuccess_creditsIt_andRespectsTheBudget() {
    // k2 = 1: the task's own failure note (its three attempts merged) fills the only slot unless it explores
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().exploreAfterFailures(2).exploreBudget(1).k2(1).build();
    try (MemLoop loop = engine(c)) {
      Intent task = Intent.of("rotate the keys of service A", axis(0));
      for (int i = 0; i < 3; i++) {
        loop.remember("ns", task, "tried plan " + i + ": it failed", Outcome.FAILURE);
      }
      Memory sibling = loop.remember("ns", Intent.of("rotate the keys of service B", nearAxis0(0.8)), "plan S worked", Outcome.SUCCESS);
      for (int i = 0; i < 2; i++) { // own notes are most similar: shown, and the task fails twice
        Retrieval r = loop.retrieve("ns", task);
        assertThat(r.selected()).extracting(Memory::id).doesNotContain(sibling.id());
        loop.reward("ns", r.id(), -1);
      }
      // From now on the task may explore: each retrieval draws (½ while the namespace is still comparing)
      Retrieval explore = null;
      int stayed = 0;
      for (int i = 0; i < 30 && explore == null; i++) {
        Retrieval r = loop.retrieve("ns", task);
        if (r.selected().stream().anyMatch(m -> m.id().equals(sibling.id()))) {
          explore = r;
        } else {
          stayed++;
          loop.reward("ns", r.id(), -1);
        }
      }
      assertThat(explore).as("a task that keeps failing explores within 30 tries at ½").isNotNull();
      assertThat(explore.selected()).extracting(Memory::id).as("the untried success of a similar task").containsExactly(sibling.id());
      loop.reward("ns", explore.id(), -1); // it did not work either
      for (int i = 0; i < 5; i++) {
        Retrieval after = loop.retrieve("ns", task);
        assertThat(after.selected()).extracting(Memory::id).as("budget spent").doesNotContain(sibling.id());
      }
      String key = TaskLedger.taskKey(task, axis(0));
      Map<String, double[]> ledger = loop.store().ledger("ns", List.of("t:" + key, "p:" + key + ":" + sibling.id(), "n"));
      // [failures since its last success, explorations, the tick of its last reward: the namespace's 3 + stayed rewards]
      assertThat(ledger.get("t:" + key)).containsExactly(3 + stayed, 1, 3 + stayed);
      assertThat(ledger.get("p:" + key + ":" + sibling.id())).containsExactly(-1);
      assertThat(ledger.get("n")).as("one exploration without success; the draws that stayed, without success")
          .containsExactly(1, 0, stayed, 0);
    }
  }

  @Test
  void explorationProbability_isAHalfWithoutEvidence_thenMatchesTheChanceThatExploringIsBetter() {
    assertThat(TaskLedger.explorationProbability(new double[] {0, 0, 0, 0})).isCloseTo(0.5, within(1e-9));
    assertThat(TaskLedger.explorationProbability(new double[] {10, 5, 10, 5})).isCloseTo(0.5, within(1e-9));
    double pays = TaskLedger.explorationProbability(new double[] {20, 10, 20, 2});
    double loses = TaskLedger.explorationProbability(new double[] {20, 0, 20, 4});
    assertThat(pays).isGreaterThan(0.99);
    assertThat(loses).isBetween(0.0, 0.1);
    assertThat(TaskLedger.explorationProbability(new double[] {200, 0, 200, 40})).isLessThan(loses);
    assertThat(TaskLedger.normalCdf(0)).isCloseTo(0.5, within(1e-7));
    assertThat(TaskLedger.normalCdf(1.959964)).isCloseTo(0.975, within(1e-6));
    assertThat(TaskLedger.normalCdf(-1)).isCloseTo(0.158655, within(1e-6));
  }

  @Test
  void taskLearning_memoriesProvenForATaskComeFirst_andFailedOnesLast() {
    // per-task learning alone: a new task may be shown a success whose latest use failed last (doubt, DoubtTest)
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().doubt(MemLoopConfig.Doubt.OFF).build())) {
      Intent task = Intent.of("book the quarterly review", axis(0));
      Memory good = loop.remember("ns", Intent.of("book a review", nearAxis0(0.7)), "use the rooms API", Outcome.SUCCESS);
      Memory bad = loop.remember("ns", Intent.of("book the quarterly review!", nearAxis0(0.99)), "email the office", Outcome.SUCCESS);
      // the agent reports what it used: twice the good one worked, twice the look-alike failed
      for (int i = 0; i < 2; i++) {
        Retrieval r = loop.retrieve("ns", task);
        loop.reward("ns", r.id(), 1, List.of(good.id()));
        Retrieval w = loop.retrieve("ns", task);
        loop.reward("ns", w.id(), -1, List.of(bad.id()));
      }
      Retrieval r = loop.retrieve("ns", task);
      assertThat(r.selected()).extracting(Memory::id).containsExactly(good.id(), bad.id());
      // another task is not affected: plain similarity order
      Retrieval other = loop.retrieve("ns", Intent.of("book the annual review", axis(0)));
      assertThat(other.selected()).extracting(Memory::id).containsExactly(bad.id(), good.id());
    }
  }

  @Test
  void reward_withAUsedMemoryTheRetrievalDidNotSelect_isRejected_andChangesNothing() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Memory m = loop.remember("ns", Intent.of("a", axis(0)), "x", Outcome.SUCCESS);
      Memory other = loop.remember("ns", Intent.of("b", axis(3)), "y", Outcome.SUCCESS);
      Retrieval r = loop.retrieve("ns", Intent.of("a", axis(0)));
      assertThatThrownBy(() -> loop.reward("ns", r.id(), 1, List.of(other.id())))
          .isInstanceOf(MemLoopException.class).hasMessageContaining("usedMemoryIds")
          .hasMessageContaining(other.id());
      assertThat(loop.get("ns", m.id()).orElseThrow().visits()).isZero();
      assertThat(loop.reward("ns", r.id(), 1, List.of(m.id())).changes()).hasSize(1); // still pending
    }
  }

  @Test
  void maxMemories_evictsTheLowestUtilityMemory_neverTheOneJustStored() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL).toBuilder().maxMemories(3).similarityThreshold(-1).k2(1).build();
    try (MemLoop loop = engine(c)) {
      Memory good = loop.remember("ns", Intent.ofEmbedding(axis(0)), "good", Outcome.SUCCESS);
      Memory bad = loop.remember("ns", Intent.ofEmbedding(axis(1)), "bad", Outcome.SUCCESS);
      Memory plain = loop.remember("ns", Intent.ofEmbedding(axis(2)), "plain", Outcome.SUCCESS);
      loop.reward("ns", loop.retrieve("ns", Intent.ofEmbedding(axis(0))).id(), 1);
      loop.reward("ns", loop.retrieve("ns", Intent.ofEmbedding(axis(1))).id(), -1);
      Memory newest = loop.remember("ns", Intent.ofEmbedding(axis(3)), "new", Outcome.SUCCESS);
      assertThat(loop.stats("ns").memories()).isEqualTo(3);
      assertThat(loop.get("ns", bad.id())).as("lowest Q goes").isEmpty();
      assertThat(loop.get("ns", newest.id())).isPresent();
      Memory another = loop.remember("ns", Intent.ofEmbedding(axis(4)), "another", Outcome.SUCCESS);
      // plain and newest tie at Q 0 and 0 visits: the older (plain) goes; good (Q 0.3) stays
      assertThat(loop.get("ns", plain.id())).isEmpty();
      assertThat(loop.get("ns", good.id())).isPresent();
      assertThat(loop.get("ns", another.id())).isPresent();
    }
  }

  @Test
  void qInitByOutcome_setsNewMemoryUtility() {
    MemLoopConfig c = MemLoopConfig.builder().qInitSuccess(0.5).qInitFailure(-0.5).build();
    try (MemLoop loop = engine(c)) {
      assertThat(loop.remember("ns", Intent.ofEmbedding(axis(0)), "ok", Outcome.SUCCESS).q()).isEqualTo(0.5);
      assertThat(loop.remember("ns", Intent.ofEmbedding(axis(1)), "bad", Outcome.FAILURE).q()).isEqualTo(-0.5);
    }
  }

  @Test
  void similarityGate_keepsDissimilarMemoriesOut() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.MEMRL))) {
      loop.remember("ns", Intent.ofEmbedding(axis(1)), "other", Outcome.SUCCESS);
      assertThat(loop.retrieve("ns", Intent.ofEmbedding(axis(0))).candidates()).isEmpty();
    }
  }

  /**
   * Property: after any sequence of retrieve/reward/remember, every memory's Q equals what a
   * reference model computes by applying Q ← Q + α(r − Q) to the memories each retrieval selected.
   */
  @Test
  void rewards_matchReferenceModel_overRandomEpisodes() {
    SplittableRandom rnd = new SplittableRandom(99);
    for (int run = 0; run < 20; run++) {
      double alpha = rnd.nextDouble();
      MemLoopConfig c = MemLoopConfig.builder().alpha(alpha).similarityThreshold(-1).k1(3).k2(2)
          .qInitSuccess(rnd.nextDouble()).qInitFailure(-rnd.nextDouble()).mergeThreshold(0.95).build();
      Map<String, Double> reference = new HashMap<>();
      Map<String, Long> visits = new HashMap<>();
      try (MemLoop loop = engine(c)) {
        for (int step = 0; step < 60; step++) {
          float[] q = vec(rnd);
          Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(q));
          double reward = rnd.nextInt(3) - 1; // −1, 0, +1
          if (rnd.nextInt(5) > 0) {
            loop.reward("ns", r.id(), reward);
            for (Memory m : r.selected()) {
              reference.merge(m.id(), c.initialQ(m.outcome()), (a, b) -> a);
              reference.compute(m.id(), (id, old) -> old + alpha * (reward - old));
              visits.merge(m.id(), 1L, Long::sum);
            }
          }
          Outcome o = reward > 0 ? Outcome.SUCCESS : Outcome.FAILURE;
          Memory added = loop.remember("ns", Intent.ofEmbedding(q), "e" + step, o);
          reference.put(added.id(), c.initialQ(o));
          visits.put(added.id(), 0L);
        }
        loop.store().forEachMemory("ns", m -> {
          assertThat(m.q()).as("Q of %s", m.id()).isCloseTo(reference.get(m.id()), within(1e-12));
          assertThat(m.visits()).isEqualTo(visits.get(m.id()));
        });
      }
    }
  }

  /**
   * Stress: many threads retrieve, reward and remember at once. No update may be lost: for every
   * memory the reported changes form one chain (each qBefore is the previous qAfter) that a
   * sequential reference model reproduces, and the stored Q is the chain's end.
   */
  @Test
  void concurrentEpisodes_loseNoUpdate_againstSequentialModel() throws Exception {
    MemLoopConfig c = MemLoopConfig.builder().similarityThreshold(-1).k1(4).k2(3).alpha(0.3).build();
    try (MemLoop loop = engine(c)) {
      SplittableRandom seedRnd = new SplittableRandom(3);
      for (int i = 0; i < 10; i++) {
        loop.remember("ns", Intent.ofEmbedding(vec(seedRnd)), "seed" + i, Outcome.SUCCESS);
      }
      record Applied(double reward, UtilityChange change) {}
      ConcurrentLinkedQueue<Applied> log = new ConcurrentLinkedQueue<>();
      ExecutorService pool = Executors.newFixedThreadPool(6);
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 6; t++) {
        long seed = t;
        fs.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(seed);
          for (int i = 0; i < 300; i++) {
            Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(vec(rnd)));
            double reward = rnd.nextBoolean() ? 1 : -1;
            for (UtilityChange ch : loop.reward("ns", r.id(), reward).changes()) {
              log.add(new Applied(reward, ch));
            }
            if (i % 50 == 0) {
              loop.remember("ns", Intent.ofEmbedding(vec(rnd)), "t" + seed + "-" + i, Outcome.FAILURE);
            }
          }
        }));
      }
      for (Future<?> f : fs) {
        f.get();
      }
      pool.shutdown();

      Map<String, List<Applied>> byMemory = new HashMap<>();
      log.forEach(a -> byMemory.computeIfAbsent(a.change.memoryId(), k -> new ArrayList<>()).add(a));
      assertThat(byMemory).isNotEmpty();
      for (var e : byMemory.entrySet()) {
        List<Applied> chain = new ArrayList<>(e.getValue());
        chain.sort(java.util.Comparator.comparingLong(a -> a.change.visits()));
        double q = 0; // qInit
        for (int i = 0; i < chain.size(); i++) {
          Applied a = chain.get(i);
          assertThat(a.change.visits()).isEqualTo(i + 1);
          assertThat(a.change.qBefore()).isEqualTo(q);
          q = q + 0.3 * (a.reward - q); // sequential reference
          assertThat(a.change.qAfter()).isCloseTo(q, within(1e-12));
        }
        Memory stored = loop.get("ns", e.getKey()).orElseThrow();
        assertThat(stored.visits()).isEqualTo(chain.size());
        assertThat(stored.q()).isCloseTo(q, within(1e-12));
      }
    }
  }

  @Test
  void explorationWithSameSeed_isDeterministic() {
    MemLoopConfig c = MemLoopConfig.builder().similarityThreshold(-1).exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.5).k2(1).build();
    List<List<String>> runs = new ArrayList<>();
    for (int run = 0; run < 2; run++) {
      try (MemLoop loop = engine(c)) {
        SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < 8; i++) {
          loop.remember("ns", Intent.ofEmbedding(vec(rnd)), "e" + i, Outcome.SUCCESS);
        }
        List<String> picks = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
          picks.add(loop.retrieve("ns", Intent.ofEmbedding(vec(rnd))).selected().get(0).id());
        }
        runs.add(picks);
      }
    }
    assertThat(runs.get(0)).isEqualTo(runs.get(1));
  }

  @Test
  void reward_withBadInput_failsClearly_andChangesNothing() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.MEMRL))) {
      Memory m = loop.remember("ns", Intent.ofEmbedding(axis(0)), "x", Outcome.SUCCESS);
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      assertThatThrownBy(() -> loop.reward("ns", r.id(), Double.NaN))
          .isInstanceOf(MemLoopException.class).hasMessage("reward: must be a finite number, got NaN");
      assertThatThrownBy(() -> loop.reward("ns", r.id(), 2))
          .hasMessage("reward: must be in [-1.0, 1.0], got 2.0");
      assertThatThrownBy(() -> loop.reward("ns", "r-unknown", 1))
          .isInstanceOf(MemLoopException.class)
          .satisfies(e -> assertThat(((MemLoopException) e).reason()).isEqualTo(MemLoopException.Reason.NOT_FOUND))
          .hasMessageContaining("no retrieval 'r-unknown'");
      assertThatThrownBy(() -> loop.reward("other-ns", r.id(), 1)).hasMessageContaining("no retrieval");
      assertThat(loop.get("ns", m.id()).orElseThrow().q()).isZero();

      loop.reward("ns", r.id(), 1);
      assertThatThrownBy(() -> loop.reward("ns", r.id(), 1))
          .satisfies(e -> assertThat(((MemLoopException) e).reason()).isEqualTo(MemLoopException.Reason.CONFLICT))
          .hasMessageContaining("already rewarded");
      assertThat(loop.get("ns", m.id()).orElseThrow().q()).isCloseTo(0.3, within(1e-12));
    }
  }

  @Test
  void reward_afterTtl_isExpired() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL).toBuilder().retrievalTtl(Duration.ofMinutes(10)).build();
    try (MemLoop loop = engine(c)) {
      loop.remember("ns", Intent.ofEmbedding(axis(0)), "x", Outcome.SUCCESS);
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(axis(0)));
      clock.advance(Duration.ofMinutes(11));
      assertThatThrownBy(() -> loop.reward("ns", r.id(), 1)).hasMessageContaining("expired at");
    }
  }

  @Test
  void badIntentsAndTexts_areRejectedNamingTheField() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.MEMRL))) {
      assertThatThrownBy(() -> loop.remember("ns", Intent.ofEmbedding(new float[] {1, 2}), "x", Outcome.SUCCESS))
          .hasMessage("intent.embedding: has 2 dimensions but the store holds 8-d vectors");
      assertThatThrownBy(() -> loop.remember("ns", Intent.ofEmbedding(axis(0)), " ", Outcome.SUCCESS))
          .hasMessage("experience: must not be empty");
      assertThatThrownBy(() -> loop.retrieve("ns", Intent.ofText("no model here")))
          .hasMessage("intent.embedding: is required: no embedding model is configured");
      assertThatThrownBy(() -> loop.retrieve("ns", Intent.ofEmbedding(new float[DIM])))
          .hasMessage("intent.embedding: must not be the zero vector");
      float[] nan = axis(0);
      nan[3] = Float.NaN;
      assertThatThrownBy(() -> loop.retrieve("ns", Intent.ofEmbedding(nan)))
          .hasMessageContaining("component 3 is not a finite number");
      assertThatThrownBy(() -> loop.retrieve("bad ns!", Intent.ofEmbedding(axis(0))))
          .hasMessageStartingWith("namespace:");
      assertThatThrownBy(() -> Intent.ofText("")).hasMessage("intent: must not be empty");
      assertThat(loop.stats("ns").memories()).isZero();
    }
  }

  @Test
  void textIntents_useTheConfiguredEmbedder() {
    Embedder letters = new Embedder() {
      @Override public int dimension() { return DIM; }
      @Override public String modelId() { return "letters"; }
      @Override public List<float[]> embedAll(List<String> texts) {
        return texts.stream().map(t -> {
          float[] v = new float[DIM];
          for (char ch : t.toCharArray()) {
            v[ch % DIM] += 1;
          }
          return v;
        }).toList();
      }
    };
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).embedder(letters).build()) {
      Memory m = loop.remember("ns", Intent.ofText("aaaa"), "x", Outcome.SUCCESS);
      assertThat(loop.retrieve("ns", Intent.ofText("aaaa")).selected()).extracting(Memory::id).containsExactly(m.id());
    }
    assertThatThrownBy(() -> MemLoop.builder().store(new InMemoryStore(4)).embedder(letters).build())
        .hasMessageContaining("produces 8-d vectors but the store holds 4-d vectors");
  }
}
