package io.memloop.bench.textworld;

import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class TextWorldEnvironmentTest {

  private static TextWorldEnvironment env(long seed, double slip) {
    TextWorldEnvironment.Knobs d = TextWorldEnvironment.Knobs.defaults();
    return TextWorldEnvironment.generate(
        seed, new TextWorldEnvironment.Knobs(d.houses(), d.goalsPerHouse(), d.rooms(), d.spareSteps(), d.heldOut(), slip));
  }

  private static Memory planOf(TextWorldEnvironment env, Task task) {
    return memory(env.successExperience(task, 0));
  }

  private static double rate(int successes, int tries) {
    return (double) successes / tries;
  }

  @Test
  void generate_sameSeed_sameHousesTasksOrderAndHeldOut() {
    TextWorldEnvironment a = env(42, 0.05);
    TextWorldEnvironment b = env(42, 0.05);
    assertThat(a.tasks()).isEqualTo(b.tasks());
    assertThat(a.heldOut()).isEqualTo(b.heldOut());
    assertThat(a.tasks()).allSatisfy(t -> {
      assertThat(a.layoutOf(t)).isEqualTo(b.layoutOf(t));
      assertThat(a.goalOf(t)).isEqualTo(b.goalOf(t));
    });
  }

  @Test
  void generate_sameSeed_samePlay() {
    TextWorldEnvironment env = env(43, 0.05);
    Task t = env.tasks().get(0);
    assertThat(env.play(t, List.of(), new SplittableRandom(9))).isEqualTo(env.play(t, List.of(), new SplittableRandom(9)));
  }

  @Test
  void aSuccess_storesThePlanTheAgentExecuted_whichReplaysInTheSameHouse() {
    TextWorldEnvironment env = env(44, 0);
    int explored = 0;
    SplittableRandom rnd = new SplittableRandom(3);
    for (int round = 0; round < 5; round++) {
      for (Task t : env.tasks()) {
        Episode e = env.attempt(t, List.of(), rnd);
        if (!e.success()) {
          continue;
        }
        List<TextWorldAction> stored = TextWorldExperience.plan(e.experience()).orElseThrow();
        List<TextWorldAction> optimal = env.layoutOf(t).optimalPlan(env.goalOf(t));
        assertThat(stored).as("no looks").noneMatch(a -> a.verb() == TextWorldAction.Verb.LOOK);
        assertThat(env.helps(t, memory(e.experience()))).as("the stored plan replays to the goal").isTrue();
        explored += stored.equals(optimal) ? 0 : 1;
      }
    }
    assertThat(explored).as("blind explorations that took another way than the shortest plan store that way").isPositive();
  }

  @Test
  void generate_otherSeed_otherTasks() {
    assertThat(env(1, 0).tasks()).isNotEqualTo(env(2, 0).tasks());
  }

  @Test
  void generate_sharesOneGoalListAcrossHouses_withIntentsThatReadBackAsTheGoal() {
    TextWorldEnvironment env = env(7, 0);
    TextWorldEnvironment.Knobs k = env.knobs();
    assertThat(env.tasks()).hasSize(k.houses() * k.goalsPerHouse());
    assertThat(env.tasks().stream().map(Task::id).distinct()).hasSize(env.tasks().size());
    assertThat(env.tasks().stream().map(Task::intent).distinct()).hasSize(env.tasks().size());
    Map<TextWorldGoal, Long> housesPerGoal =
        env.tasks().stream().collect(Collectors.groupingBy(env::goalOf, Collectors.counting()));
    assertThat(housesPerGoal).hasSize(k.goalsPerHouse());
    assertThat(housesPerGoal.values()).containsOnly((long) k.houses());
    for (Task t : env.tasks()) {
      TextWorldGoal.Parsed parsed = TextWorldGoal.parse(t.intent()).orElseThrow();
      assertThat(parsed.goal()).isEqualTo(env.goalOf(t));
      assertThat(parsed.house()).isEqualTo(env.layoutOf(t).house());
      // Not already done at the start.
      assertThat(env.layoutOf(t).placeOf().get(env.goalOf(t).object())).isNotEqualTo(env.goalOf(t).target());
    }
  }

  @Test
  void nearPairs_areWordedAlike_andMostlyDistractors() {
    int near = 0;
    int distractors = 0;
    for (long seed = 1; seed <= 3; seed++) {
      TextWorldEnvironment env = env(seed, 0);
      for (TextWorldEnvironment.Pair p : env.nearPairs()) {
        Set<String> a = new HashSet<>(List.of(p.task().intent().split(" ")));
        Set<String> b = new HashSet<>(List.of(p.source().intent().split(" ")));
        Set<String> differ = new HashSet<>(a);
        differ.addAll(b);
        a.retainAll(b);
        differ.removeAll(a);
        assertThat(differ).as("%s / %s", p.task().intent(), p.source().intent()).hasSizeBetween(1, 4);
      }
      near += env.nearPairs().size();
      distractors += env.distractors().size();
    }
    assertThat(rate(distractors, near)).isGreaterThan(0.8);
  }

  @Test
  void heldOut_isDisjointFromTraining_andItsSourcesPlanTransfers() {
    for (long seed = 1; seed <= 3; seed++) {
      TextWorldEnvironment env = env(seed, 0);
      assertThat(env.heldOut()).isNotEmpty().hasSizeLessThanOrEqualTo(env.knobs().heldOut());
      Set<String> ids = env.tasks().stream().map(Task::id).collect(Collectors.toSet());
      Set<String> intents = env.tasks().stream().map(Task::intent).collect(Collectors.toSet());
      for (Task h : env.heldOut()) {
        assertThat(ids).doesNotContain(h.id());
        assertThat(intents).doesNotContain(h.intent());
        Task source = env.sourceOf(h).orElseThrow();
        assertThat(env.tasks()).contains(source);
        assertThat(env.layoutOf(h)).isEqualTo(env.layoutOf(source));
        assertThat(env.goalOf(h).type()).isEqualTo(env.goalOf(source).type());
        assertThat(env.helps(h, planOf(env, source))).as(h.id()).isTrue();
      }
    }
  }

  @Test
  void attempt_withoutMemory_rarelySucceeds() {
    int successes = 0;
    int tries = 0;
    for (long seed = 1; seed <= 3; seed++) {
      TextWorldEnvironment env = env(seed, TextWorldEnvironment.DEFAULT_SLIP);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int round = 0; round < 10; round++) {
        for (Task t : env.tasks()) {
          successes += env.attempt(t, List.of(), rnd).success() ? 1 : 0;
          tries++;
        }
      }
    }
    assertThat(rate(successes, tries)).isBetween(0.03, 0.25);
  }

  @Test
  void attempt_withTheTasksOwnPlanFirst_succeedsByTheShortestRoute() {
    for (long seed = 1; seed <= 3; seed++) {
      TextWorldEnvironment env = env(seed, 0);
      SplittableRandom rnd = new SplittableRandom(seed);
      List<Task> all = new ArrayList<>(env.tasks());
      all.addAll(env.heldOut());
      for (Task t : all) {
        Task source = env.sourceOf(t).orElse(t);
        // A failure note below the plan does not distract it.
        List<Memory> shown = List.of(planOf(env, source), memory(env.attempt(t, List.of(), rnd).experience()));
        TextWorldTrajectory tr = env.play(t, shown, rnd);
        assertThat(tr.success()).as(t.id()).isTrue();
        assertThat(tr.steps()).isEqualTo(env.layoutOf(t).optimalPlan(env.goalOf(t)).size());
        Episode e = env.attempt(t, shown, rnd);
        assertThat(e.reward()).isEqualTo(1.0);
        assertThat(e.experience()).startsWith("Task: " + t.intent() + "\nOutcome: succeeded");
      }
    }
  }

  @Test
  void attempt_withADistractorsPlanFirst_usuallyFails() {
    int successes = 0;
    int tries = 0;
    for (long seed = 1; seed <= 3; seed++) {
      TextWorldEnvironment env = env(seed, 0);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (TextWorldEnvironment.Pair p : env.distractors()) {
        // The right plan is shown too, below the distractor's: the policy follows the first that applies.
        List<Memory> shown = List.of(planOf(env, p.source()), planOf(env, p.task()));
        TextWorldTrajectory tr = env.play(p.task(), shown, rnd);
        assertThat(tr.planSteps()).isPositive();
        successes += tr.success() ? 1 : 0;
        tries++;
      }
    }
    assertThat(tries).isGreaterThan(200);
    assertThat(rate(successes, tries)).isLessThan(0.2);
  }

  @Test
  void attempt_withItsOwnFailureNote_succeedsMoreOftenThanBlind() {
    int blind = 0;
    int withNote = 0;
    int tries = 0;
    for (long seed = 1; seed <= 3; seed++) {
      TextWorldEnvironment env = env(seed, 0);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int round = 0; round < 5; round++) {
        for (Task t : env.tasks()) {
          Episode first = env.attempt(t, List.of(), rnd);
          if (first.success()) {
            continue;
          }
          blind += env.attempt(t, List.of(), rnd).success() ? 1 : 0;
          withNote += env.attempt(t, List.of(memory(first.experience())), rnd).success() ? 1 : 0;
          tries++;
        }
      }
    }
    assertThat(rate(withNote, tries)).isGreaterThan(rate(blind, tries) + 0.05);
  }

  /** A helpful memory always wins without slips; the others rarely do (only by exploring). */
  @Test
  void helps_agreesWithAttempt_whenSlipIsZero() {
    int otherSuccesses = 0;
    int otherTries = 0;
    int helpful = 0;
    for (long seed = 1; seed <= 2; seed++) {
      TextWorldEnvironment env = env(seed, 0);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (Task t : env.tasks()) {
        List<Memory> candidates = new ArrayList<>();
        candidates.add(planOf(env, t));
        candidates.add(memory(env.attempt(t, List.of(), rnd).experience()));
        env.nearPairs().stream().filter(p -> p.task().equals(t)).forEach(p -> candidates.add(planOf(env, p.source())));
        for (Memory m : candidates) {
          boolean helps = env.helps(t, m);
          for (int i = 0; i < 5; i++) {
            boolean success = env.attempt(t, List.of(m), rnd).success();
            if (helps) {
              assertThat(success).as("%s with %s", t.id(), m.experience()).isTrue();
            } else {
              otherSuccesses += success ? 1 : 0;
              otherTries++;
            }
          }
          helpful += helps ? 1 : 0;
        }
      }
    }
    assertThat(helpful).isGreaterThanOrEqualTo(48); // at least every task's own plan
    assertThat(rate(otherSuccesses, otherTries)).isLessThan(0.25);
  }

  @Test
  void stepBudget_isEnforced_everyCommandCounts() {
    TextWorldEnvironment env = env(11, 0);
    SplittableRandom rnd = new SplittableRandom(12);
    for (Task t : env.tasks()) {
      int budget = env.budgetOf(t);
      assertThat(budget).isEqualTo(env.layoutOf(t).optimalPlan(env.goalOf(t)).size() + env.knobs().spareSteps());
      TextWorldTrajectory tr = env.play(t, List.of(), rnd);
      assertThat(tr.steps()).isLessThanOrEqualTo(budget);
      assertThat(tr.budget()).isEqualTo(budget);
      if (!tr.success()) {
        assertThat(tr.steps()).isEqualTo(budget); // it kept trying until the budget ran out
        assertThat(tr.unmetNeed()).isNotBlank();
      }
    }
    // The shortest plan under a budget one step short never gets there, and the simulator refuses more.
    Task t = env.tasks().get(0);
    List<TextWorldAction> plan = env.layoutOf(t).optimalPlan(env.goalOf(t));
    TextWorldSimulator sim = new TextWorldSimulator(env.layoutOf(t), env.goalOf(t), plan.size() - 1);
    plan.subList(0, plan.size() - 1).forEach(sim::step);
    assertThat(sim.over()).isTrue();
    assertThat(sim.succeeded()).isFalse();
    assertThatThrownBy(() -> sim.step(plan.getLast())).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("budget=" + (plan.size() - 1));
  }

  @Test
  void reward_comesOnlyAtTheEnd() {
    TextWorldEnvironment env = env(13, 0);
    for (Task t : env.tasks()) {
      List<TextWorldAction> plan = env.layoutOf(t).optimalPlan(env.goalOf(t));
      TextWorldSimulator sim = new TextWorldSimulator(env.layoutOf(t), env.goalOf(t), env.budgetOf(t));
      for (int i = 0; i < plan.size(); i++) {
        assertThat(sim.step(plan.get(i)).ok()).as(plan.get(i).text()).isTrue();
        assertThat(sim.succeeded()).as("after %s", plan.get(i).text()).isEqualTo(i == plan.size() - 1);
      }
    }
    // Progress without the goal is worth the same as nothing: −1.
    SplittableRandom rnd = new SplittableRandom(14);
    for (Task t : env.tasks()) {
      Episode e = env.attempt(t, List.of(), rnd);
      assertThat(e.reward()).isEqualTo(e.success() ? 1.0 : -1.0);
    }
  }

  @Test
  void failureNote_reportsWhatWasSeenTruthfully() {
    TextWorldEnvironment env = env(15, 0);
    SplittableRandom rnd = new SplittableRandom(16);
    int notes = 0;
    for (Task t : env.tasks()) {
      Episode e = env.attempt(t, List.of(), rnd);
      if (e.success()) {
        continue;
      }
      notes++;
      assertThat(e.experience()).contains("What went wrong: ran out of steps while ");
      TextWorldLayout layout = env.layoutOf(t);
      List<TextWorldExperience.Fact> facts = TextWorldExperience.facts(e.experience());
      assertThat(facts).isNotEmpty();
      for (TextWorldExperience.Fact f : facts) {
        assertThat(layout.roomOf().get(f.receptacle())).as(f.toString()).isEqualTo(f.room());
        f.contents().ifPresent(inside -> assertThat(layout.objectsIn(f.receptacle())).containsAll(inside));
      }
    }
    assertThat(notes).isGreaterThan(10);
  }

  @Test
  void attempt_ofAForeignTask_throws() {
    TextWorldEnvironment env = env(17, 0);
    Task foreign = new Task("tw/none", "In the Nowhere house, put a mug on the table.");
    assertThatThrownBy(() -> env.attempt(foreign, List.of(), new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("tw/none");
  }

  @Test
  void knobs_outOfRange_areRejectedWithTheirLimits() {
    assertThatThrownBy(() -> new TextWorldEnvironment.Knobs(13, 6, 5, 4, 8, 0)).hasMessageContaining("houses must be in [1, 12]");
    assertThatThrownBy(() -> new TextWorldEnvironment.Knobs(4, 0, 5, 4, 8, 0)).hasMessageContaining("goalsPerHouse");
    assertThatThrownBy(() -> new TextWorldEnvironment.Knobs(4, 6, 2, 4, 8, 0)).hasMessageContaining("rooms must be in [3, 10]");
    assertThatThrownBy(() -> new TextWorldEnvironment.Knobs(4, 6, 5, -1, 8, 0)).hasMessageContaining("spareSteps");
    assertThatThrownBy(() -> new TextWorldEnvironment.Knobs(4, 6, 5, 4, -1, 0)).hasMessageContaining("heldOut");
    assertThatThrownBy(() -> new TextWorldEnvironment.Knobs(4, 6, 5, 4, 8, 1)).hasMessageContaining("slipProbability");
  }

  @Test
  void sizeKnobs_scaleTheWorld() {
    TextWorldEnvironment big = TextWorldEnvironment.generate(19, new TextWorldEnvironment.Knobs(12, 12, 10, 2, 20, 0));
    assertThat(big.tasks()).hasSize(144);
    assertThat(big.layoutOf(big.tasks().get(0)).rooms()).hasSize(10);
    TextWorldEnvironment small = TextWorldEnvironment.generate(19, new TextWorldEnvironment.Knobs(1, 1, 3, 0, 0, 0));
    assertThat(small.tasks()).hasSize(1);
    assertThat(small.heldOut()).isEmpty();
  }
}
