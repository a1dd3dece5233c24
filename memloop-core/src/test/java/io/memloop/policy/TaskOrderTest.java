package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TaskOrderTest {
  private static final float[] QUERY = {1, 0};
  private static final float[] OWN = {1, 0};
  private static final float[] OTHER = {0.8f, 0.6f};
  private static final MemLoopConfig CONFIG =
      MemLoopConfig.builder().taskLearning(MemLoopConfig.TaskLearning.ON).exploreAfterFailures(2).exploreBudget(4).build();

  private static PoolEntry entry(int id, Outcome outcome, float[] intent) {
    return new PoolEntry("m" + id, 0.9, 0, Instant.EPOCH, outcome, intent, null);
  }

  private static TaskView task(int failures, int explorations, double p, Map<String, Double> net) {
    return new TaskView("t", failures, explorations, p, net, 1, 0.5);
  }

  @Test
  void tiers_provenFirst_thenUnknown_thenFailed_eachInGreedyOrder() {
    List<PoolEntry> pool = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      pool.add(entry(i, Outcome.SUCCESS, OWN));
    }
    // m0 proven (net above the margin 1), m2 failed (below -1), m3 within the margin, m1 and m4 never used
    TaskView t = task(0, 0, 0.5, Map.of("m0", 1.5, "m2", -1.5, "m3", 1.0));
    int[] order = {2, 4, 0, 3, 1};
    TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 5, 3, t, CONFIG, Draws.NONE);
    assertThat(order).containsExactly(0, 4, 3, 1, 2);
    assertThat(r.take()).isEqualTo(3);
    assertThat(r.inclusion()).isNull();
    assertThat(r.note().explorable()).isFalse();
  }

  @Test
  void onlyTheEligiblePrefix_isReordered() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.SUCCESS, OWN), entry(1, Outcome.SUCCESS, OWN), entry(2, Outcome.SUCCESS, OWN));
    int[] order = {1, 0, 2}; // m2 was dropped by q_min
    TaskOrder.apply(QUERY, pool, order, 2, 3, task(0, 0, 0.5, Map.of("m0", 2.0, "m2", 2.0)), CONFIG, Draws.NONE);
    assertThat(order).containsExactly(0, 1, 2);
  }

  @Test
  void failingTask_thatCannotExplore_seesItsOwnRecord_otherIntentsWithheld() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.FAILURE, OWN), entry(1, Outcome.SUCCESS, OTHER),
        entry(2, Outcome.FAILURE, OWN), entry(3, Outcome.SUCCESS, null));
    int[] order = {1, 3, 0, 2};
    TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 4, 3, task(2, 4, 0.5, Map.of()), CONFIG, Draws.NONE);
    assertThat(order).containsExactly(0, 2, 1, 3); // an entry without an intent counts as another intent's
    assertThat(r.take()).isEqualTo(2);
    assertThat(r.note().explorable()).isFalse();
  }

  @Test
  void taskNotYetFailing_seesOtherIntentsToo() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.FAILURE, OWN), entry(1, Outcome.SUCCESS, OTHER));
    int[] order = {1, 0};
    TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 2, 3, task(1, 0, 0.5, Map.of()), CONFIG, Draws.NONE);
    assertThat(order).containsExactly(1, 0);
    assertThat(r.take()).isEqualTo(2);
  }

  @Test
  void exploringArm_showsTheFirstUntriedForeignSuccess_second_withTheDrawnProbability() {
    // own failure notes m0, m2, m4; foreign: m1 a failure (not explorable), m3 tried already, m5 untried success
    List<PoolEntry> pool = List.of(entry(0, Outcome.FAILURE, OWN), entry(1, Outcome.FAILURE, OTHER),
        entry(2, Outcome.FAILURE, OWN), entry(3, Outcome.SUCCESS, OTHER), entry(4, Outcome.FAILURE, OWN),
        entry(5, Outcome.SUCCESS, OTHER));
    TaskView t = task(2, 0, 0.3, Map.of("m3", 0.5));
    int[] explore = {0, 1, 3, 2, 5, 4}; // m5 third among those the exploring arm shows: moved up
    Draws.Fixed yes = new Draws.Fixed(0.0);
    TaskOrder.Result go = TaskOrder.apply(QUERY, pool, explore, 6, 3, t, CONFIG, yes);
    assertThat(yes.doubles).isEqualTo(1);
    assertThat(explore).containsExactly(0, 5, 2, 4, 1, 3);
    assertThat(go.note().explored()).isEqualTo("m5");
    assertThat(go.note().explorable()).isTrue();
    assertThat(go.take()).isEqualTo(3);
    // inclusion over the draw: m0 in both arms, m2 in both (2nd of stay, 3rd of go), m4 only in stay, m5 only in go
    double[] inclusion = go.inclusion();
    assertThat(inclusion[0]).isCloseTo(1, within(1e-12));
    assertThat(inclusion[2]).isCloseTo(1, within(1e-12));
    assertThat(inclusion[4]).isCloseTo(0.7, within(1e-12));
    assertThat(inclusion[5]).isCloseTo(0.3, within(1e-12));
    assertThat(Arrays.stream(inclusion).sum()).isCloseTo(3, within(1e-12));

    int[] stay = {0, 1, 3, 2, 5, 4};
    Draws.Fixed no = new Draws.Fixed(0.99);
    TaskOrder.Result r = TaskOrder.apply(QUERY, pool, stay, 6, 3, t, CONFIG, no);
    assertThat(stay).containsExactly(0, 2, 4, 1, 3, 5);
    assertThat(r.note().explored()).isEmpty();
    assertThat(r.note().explorable()).isTrue();
    assertThat(r.inclusion()).containsExactly(inclusion);
  }

  @Test
  void pastItsBudget_aTaskKeepsExploring_onlyWhileExploringPaysAboveTheThreshold() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.FAILURE, OWN), entry(1, Outcome.SUCCESS, OTHER));
    for (double p : new double[] {0.5, 0.9, 0.91, 0.99}) {
      int[] order = {1, 0};
      TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 2, 3, task(9, 4, p, Map.of()), CONFIG, new Draws.Fixed(0));
      boolean pays = p > CONFIG.exploreBeyondBudget(); // 0.9 in the default preset
      assertThat(r.note().explorable()).as("p=%s", p).isEqualTo(pays);
      assertThat(r.note().explored()).as("p=%s", p).isEqualTo(pays ? "m1" : "");
      assertThat(r.take()).as("p=%s", p).isEqualTo(pays ? 2 : 1);
    }
    // the budget still binds where exploring has not shown that it pays, and 1 (the value before the knob) or a
    // budget of 0 stops every task at its budget
    MemLoopConfig atBudget = CONFIG.toBuilder().exploreBeyondBudget(1).build();
    MemLoopConfig never = CONFIG.toBuilder().exploreBudget(0).build();
    for (MemLoopConfig c : List.of(atBudget, never)) {
      int[] order = {1, 0};
      int explorations = c.exploreBudget();
      TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 2, 3, task(9, explorations, 1.0, Map.of()), c, new Draws.Fixed(0));
      assertThat(r.note().explorable()).isFalse();
      assertThat(r.take()).isEqualTo(1);
    }
  }

  @Test
  void exploredMemory_alreadyFirst_staysFirst() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.SUCCESS, OTHER), entry(1, Outcome.FAILURE, OWN));
    int[] order = {0, 1};
    TaskOrder.apply(QUERY, pool, order, 2, 3, task(2, 0, 0.5, Map.of()), CONFIG, new Draws.Fixed(0));
    assertThat(order).containsExactly(0, 1);
  }

  @Test
  void exploringArm_withK2One_showsTheExploredFirst() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.FAILURE, OWN), entry(1, Outcome.SUCCESS, OTHER));
    int[] order = {0, 1};
    TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 2, 1, task(3, 0, 0.5, Map.of()), CONFIG, new Draws.Fixed(0));
    assertThat(order).containsExactly(1, 0);
    assertThat(r.take()).isEqualTo(1);
  }

  @Test
  void provenMemory_stopsTheFailingTaskFromExploring() {
    List<PoolEntry> pool = List.of(entry(0, Outcome.SUCCESS, OTHER), entry(1, Outcome.SUCCESS, OTHER));
    int[] order = {1, 0};
    TaskOrder.Result r = TaskOrder.apply(QUERY, pool, order, 2, 2, task(5, 0, 0.9, Map.of("m0", 3.0)), CONFIG, Draws.NONE);
    assertThat(order).containsExactly(0, 1);
    assertThat(r.take()).isEqualTo(2);
    assertThat(r.note().explorable()).isFalse();
  }
}
