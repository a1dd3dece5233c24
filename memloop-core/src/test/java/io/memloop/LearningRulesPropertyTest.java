package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the learning rules against simple reference models, over seeded random cases: the
 * utility rule ({@link UtilityRule}), per-task credit ({@link TaskLedger#learn}) and the probability-matching
 * draws ({@link TaskLedger#explorationProbability}, which also decides how much of a long failure note is shown).
 */
class LearningRulesPropertyTest {
  private static final long SEED = 2026_11_23L;

  @Test
  void utilityRule_matchesTheClosedFormOfTheMovingAverage() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    for (int run = 0; run < 200; run++) {
      double alpha = rnd.nextDouble();
      double lo = -rnd.nextDouble() * 10;
      double hi = lo + rnd.nextDouble() * 20 + 1e-3;
      UtilityRule rule = new UtilityRule(alpha);
      double q0 = lo + rnd.nextDouble() * (hi - lo);
      double q = q0;
      List<Double> rewards = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        double r = lo + rnd.nextDouble() * (hi - lo);
        rewards.add(r);
        q = rule.update(q, r);
        // reference: Q_n = (1−α)^n Q_0 + Σ_k α (1−α)^(n−k) r_k
        double reference = Math.pow(1 - alpha, rewards.size()) * q0;
        for (int k = 0; k < rewards.size(); k++) {
          reference += alpha * Math.pow(1 - alpha, rewards.size() - 1 - k) * rewards.get(k);
        }
        assertThat(q).as("run %d step %d alpha=%s", run, i, alpha).isCloseTo(reference, within(1e-9 * (1 + Math.abs(hi))));
        assertThat(q).as("stays in the reward range").isBetween(lo, hi);
      }
    }
  }

  @Test
  void utilityRule_convergesToTheMeanReward_ofAStationaryReward() {
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    for (int run = 0; run < 40; run++) {
      double alpha = 0.01 + rnd.nextDouble() * 0.3;
      double p = rnd.nextDouble(); // reward +1 with probability p, else −1: mean 2p − 1
      UtilityRule rule = new UtilityRule(alpha);
      double q = 0;
      double sum = 0;
      int n = 20_000;
      for (int i = 0; i < n; i++) {
        q = rule.update(q, rnd.nextDouble() < p ? 1 : -1);
        if (i >= n / 2) {
          sum += q;
        }
      }
      // the stationary EMA has mean 2p − 1 and std ≤ sqrt(α/(2−α)); its time average over n/2 steps is far tighter
      assertThat(sum / (n / 2)).as("alpha=%s p=%s", alpha, p).isCloseTo(2 * p - 1, within(0.1));
    }
  }

  @Test
  void utilityRule_givesAFiniteValueInsideTheHull_forEveryFiniteInput() {
    double[] extremes = {-Double.MAX_VALUE, -1e300, -1, -Double.MIN_VALUE, 0, Double.MIN_VALUE, 1e-300, 1, 1e300,
        Double.MAX_VALUE};
    double[] alphas = {0, Double.MIN_VALUE, 1e-12, 0.3, 0.5, 1 - 1e-12, 1};
    SplittableRandom rnd = new SplittableRandom(SEED + 2);
    List<double[]> cases = new ArrayList<>();
    for (double q : extremes) {
      for (double t : extremes) {
        for (double a : alphas) {
          cases.add(new double[] {q, t, a});
        }
      }
    }
    for (int i = 0; i < 10_000; i++) {
      cases.add(new double[] {(rnd.nextDouble() * 2 - 1) * Math.pow(10, rnd.nextInt(-300, 308)),
          (rnd.nextDouble() * 2 - 1) * Math.pow(10, rnd.nextInt(-300, 308)), rnd.nextDouble()});
    }
    for (double[] c : cases) {
      double next = new UtilityRule(c[2]).update(c[0], c[1]);
      assertThat(Double.isFinite(next)).as("q=%s target=%s alpha=%s", c[0], c[1], c[2]).isTrue();
      assertThat(next).as("q=%s target=%s alpha=%s", c[0], c[1], c[2])
          .isBetween(Math.min(c[0], c[1]), Math.max(c[0], c[1]));
    }
    assertThat(new UtilityRule(0).update(0.25, 1)).isEqualTo(0.25);
    assertThat(new UtilityRule(1).update(0.25, 1)).isEqualTo(1.0);
  }

  @Test
  void temporalDifference_matchesATabularReference_andConvergesToTheDiscountedReturn() {
    SplittableRandom rnd = new SplittableRandom(SEED + 5);
    int dim = 6;
    for (int run = 0; run < 8; run++) {
      int steps = rnd.nextInt(2, 6);
      double alpha = 0.05 + rnd.nextDouble() * 0.15;
      double gamma = rnd.nextDouble();
      double p = rnd.nextDouble(); // the last step is rewarded +1 with probability p, else −1
      MemLoopConfig config = MemLoopConfig.preset(Preset.MEMRL).toBuilder().alpha(alpha).gamma(gamma).build();
      try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(dim)).config(config)
          .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(run).build()) {
        Intent[] step = new Intent[steps];
        for (int i = 0; i < steps; i++) {
          float[] v = new float[dim];
          v[i] = 1;
          step[i] = Intent.ofEmbedding(v);
          loop.remember("ns", step[i], "how to do step " + i, Outcome.SUCCESS);
        }
        double[] reference = new double[steps];
        double[] tail = new double[steps]; // time average of Q over the second half of the episodes
        int episodes = 2_000;
        for (int e = 0; e < episodes; e++) {
          String[] ids = new String[steps];
          for (int i = 0; i < steps; i++) {
            Retrieval r = loop.retrieve("ns", step[i]);
            assertThat(r.selected()).hasSize(1);
            ids[i] = r.id();
          }
          for (int i = 0; i < steps; i++) { // rewarded in order, each step with the next one's retrieval
            boolean last = i == steps - 1;
            double reward = last ? (rnd.nextDouble() < p ? 1 : -1) : 0;
            RewardResult result = last ? loop.reward("ns", ids[i], reward)
                : loop.reward("ns", ids[i], reward, null, ids[i + 1]);
            double target = last ? reward : reward + gamma * reference[i + 1];
            reference[i] += alpha * (target - reference[i]);
            assertThat(result.target()).isCloseTo(target, within(1e-12));
            assertThat(result.changes().getFirst().qAfter()).as("run %d episode %d step %d", run, e, i)
                .isCloseTo(reference[i], within(1e-9));
            if (e >= episodes / 2) {
              tail[i] += result.changes().getFirst().qAfter() / (episodes / 2);
            }
          }
        }
        for (int i = 0; i < steps; i++) {
          double expected = Math.pow(gamma, steps - 1 - i) * (2 * p - 1);
          assertThat(tail[i]).as("run %d step %d of %d, gamma=%s p=%s", run, i, steps, gamma, p)
              .isCloseTo(expected, within(0.1));
        }
      }
    }
  }

  @Test
  void temporalDifference_targetIsFinite_forEveryFiniteInput() {
    double[] values = {-Double.MAX_VALUE, -1, 0, 1, Double.MAX_VALUE};
    for (double r : values) {
      for (double next : values) {
        for (double gamma : new double[] {0, 0.5, 1}) {
          double t = new UtilityRule(0.3, gamma).target(r, java.util.OptionalDouble.of(next));
          assertThat(Double.isFinite(t)).as("r=%s next=%s gamma=%s", r, next, gamma).isTrue();
        }
      }
    }
    assertThat(new UtilityRule(0.3, 0.9).target(1, java.util.OptionalDouble.empty())).isEqualTo(1.0);
    assertThat(new UtilityRule(0.3, 0).target(1, java.util.OptionalDouble.of(5))).isEqualTo(1.0);
  }

  @Test
  void perTaskCredit_matchesAReferenceLedger_overRandomEpisodes() {
    int dim = 4;
    SplittableRandom rnd = new SplittableRandom(SEED + 3);
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().exploreBudget(0).k2(3).build();
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(dim)).config(config)
        .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(5).build()) {
      float[] axis = {1, 0, 0, 0};
      Intent task = Intent.of("the task", axis);
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        ids.add(loop.remember("ns", task, "plan " + i, Outcome.SUCCESS).id());
      }
      String key = TaskLedger.taskKey(task, axis);
      Map<String, Double> net = new HashMap<>();
      int failures = 0;
      for (int step = 0; step < 300; step++) {
        Retrieval r = loop.retrieve("ns", task);
        List<String> used = new ArrayList<>();
        for (Memory m : r.selected()) {
          if (rnd.nextDouble() < 0.4) {
            used.add(m.id());
          }
        }
        double reward = rnd.nextDouble() * 2 - 1;
        loop.reward("ns", r.id(), reward, used);
        for (String id : used) {
          net.merge(id, reward, Double::sum); // reward range [−1, 1]: the centred reward is the reward
        }
        failures = reward > 0 ? 0 : failures + 1;
        List<String> keys = new ArrayList<>(List.of("t:" + key));
        ids.forEach(id -> keys.add("p:" + key + ":" + id));
        Map<String, double[]> ledger = loop.store().ledger("ns", keys);
        assertThat(ledger.get("t:" + key)[0]).as("consecutive failures, step %d", step).isEqualTo(failures);
        for (String id : ids) {
          double[] entry = ledger.get("p:" + key + ":" + id);
          double expected = net.getOrDefault(id, 0.0);
          assertThat(entry == null ? 0 : entry[0]).as("net reward of %s, step %d", id, step).isCloseTo(expected, within(1e-9));
          assertThat(Double.isFinite(entry == null ? 0 : entry[0])).isTrue();
        }
      }
    }
  }

  @Test
  void probabilityMatching_isAProbability_symmetric_monotone_andFollowsTheEvidence() {
    SplittableRandom rnd = new SplittableRandom(SEED + 4);
    assertThat(TaskLedger.explorationProbability(new double[4])).as("no evidence").isCloseTo(0.5, within(1e-7));
    for (int i = 0; i < 20_000; i++) {
      double n0 = rnd.nextInt(0, 5_000);
      double n2 = rnd.nextInt(0, 5_000);
      double s0 = rnd.nextDouble() * n0;
      double s2 = rnd.nextDouble() * n2;
      double p = TaskLedger.explorationProbability(new double[] {n0, s0, n2, s2});
      assertThat(p).as("n=%s s=%s vs n=%s s=%s", n0, s0, n2, s2).isBetween(0.0, 1.0);
      assertThat(Double.isNaN(p)).isFalse();
      assertThat(TaskLedger.explorationProbability(new double[] {n2, s2, n0, s0}))
          .as("swapping the arms").isCloseTo(1 - p, within(1e-6));
      if (s0 + 1 <= n0) {
        assertThat(TaskLedger.explorationProbability(new double[] {n0, s0 + 1, n2, s2}))
            .as("one more success for the first arm").isGreaterThanOrEqualTo(p - 1e-12);
      }
    }
    // stationary arms: the draw goes to the better one as evidence accumulates
    for (int run = 0; run < 50; run++) {
      double pe = rnd.nextDouble();
      double ps = rnd.nextDouble();
      if (Math.abs(pe - ps) < 0.1) {
        continue;
      }
      double[] n = new double[4];
      for (int i = 0; i < 4_000; i++) {
        n[0]++;
        n[1] += rnd.nextDouble() < pe ? 1 : 0;
        n[2]++;
        n[3] += rnd.nextDouble() < ps ? 1 : 0;
      }
      double p = TaskLedger.explorationProbability(n);
      assertThat(pe > ps ? p : 1 - p).as("pe=%s ps=%s", pe, ps).isGreaterThan(0.99);
    }
  }
}
