package io.memloop.bench.ops;

import static io.memloop.bench.ops.CopyFirstPolicy.failureExperience;
import static io.memloop.bench.ops.CopyFirstPolicy.successExperience;
import static io.memloop.bench.Fixtures.env;
import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class RecurringTasksEnvironmentTest {

  /** Family of a task id "template/subject/vN". */
  private static String family(Task t) {
    return t.id().substring(0, t.id().lastIndexOf('/'));
  }

  private static Map<String, List<Task>> byFamily(List<Task> tasks) {
    return tasks.stream().collect(Collectors.groupingBy(RecurringTasksEnvironmentTest::family));
  }

  @Test
  void generate_sameSeed_sameTasksAnswersOrderAndStaleMemories() {
    RecurringTasksEnvironment a = env(42, 20, 3, 0.25, 0.05);
    RecurringTasksEnvironment b = env(42, 20, 3, 0.25, 0.05);
    assertThat(a.tasks()).isEqualTo(b.tasks());
    assertThat(a.tasks()).allSatisfy(t -> assertThat(a.answerOf(t)).isEqualTo(b.answerOf(t)));
    assertThat(a.priorExperiences()).isEqualTo(b.priorExperiences());
  }

  @Test
  void generate_otherSeed_otherTasks() {
    assertThat(env(1, 20, 3, 0, 0).tasks()).isNotEqualTo(env(2, 20, 3, 0, 0).tasks());
  }

  @Test
  void generate_makesFamiliesOfTwinsWithDistinctAnswers() {
    RecurringTasksEnvironment env = env(7, 20, 3, 0, 0.05);
    List<Task> tasks = env.tasks();
    assertThat(tasks).hasSize(60);
    assertThat(tasks.stream().map(Task::id).distinct()).hasSize(60);
    assertThat(tasks.stream().map(Task::intent).distinct()).hasSize(60);
    Map<String, List<Task>> families = byFamily(tasks);
    assertThat(families).hasSize(20);
    for (List<Task> twins : families.values()) {
      assertThat(twins).hasSize(3);
      assertThat(twins.stream().map(env::answerOf).distinct()).as("answers of %s", twins).hasSize(3);
      assertThat(twins).allSatisfy(t -> assertThat(env.proceduresOf(t)).contains(env.answerOf(t)));
    }
  }

  @Test
  void generate_spreadsFamiliesOverAllTemplatesFirst() {
    Set<String> templates =
        env(3, OpsTemplates.ALL.size(), 1, 0, 0).tasks().stream()
            .map(t -> t.id().substring(0, t.id().indexOf('/')))
            .collect(Collectors.toSet());
    assertThat(templates).hasSize(OpsTemplates.ALL.size());
  }

  @Test
  void generate_staleShare_addsWrongSuccessesUnderExactIntentsAndLeavesTasksAlone() {
    RecurringTasksEnvironment clean = env(5, 20, 2, 0, 0.05);
    RecurringTasksEnvironment stale = env(5, 20, 2, 0.25, 0.05);
    assertThat(stale.tasks()).isEqualTo(clean.tasks());
    assertThat(clean.priorExperiences()).isEmpty();
    assertThat(stale.priorExperiences()).hasSize(10);
    Map<String, Task> byIntent = stale.tasks().stream().collect(Collectors.toMap(Task::intent, t -> t));
    Set<String> intents = new HashSet<>();
    for (PriorExperience p : stale.priorExperiences()) {
      Task task = byIntent.get(p.intent());
      assertThat(task).as("stale memory intent %s", p.intent()).isNotNull();
      assertThat(intents.add(p.intent())).as("one stale memory per task").isTrue();
      assertThat(p.outcome()).isEqualTo(Outcome.SUCCESS);
      String procedure = CopyFirstPolicy.quoted(p.experience()).orElseThrow();
      assertThat(stale.proceduresOf(task)).contains(procedure);
      assertThat(procedure).isNotEqualTo(stale.answerOf(task));
    }
  }

  @Test
  void attempt_withoutMemory_guessesAboutOneTimeInFive() {
    RecurringTasksEnvironment env = env(11, 20, 3, 0, 0.05);
    SplittableRandom rnd = new SplittableRandom(12);
    int successes = 0;
    int tries = 0;
    for (int round = 0; round < 50; round++) {
      for (Task t : env.tasks()) {
        successes += env.attempt(t, List.of(), rnd).success() ? 1 : 0;
        tries++;
      }
    }
    assertThat((double) successes / tries).isBetween(0.17, 0.23);
  }

  @Test
  void attempt_withTheRightExperienceFirst_succeeds() {
    RecurringTasksEnvironment env = env(13, 20, 3, 0, 0);
    SplittableRandom rnd = new SplittableRandom(14);
    for (Task t : env.tasks()) {
      List<Memory> shown = List.of(memory(successExperience(t.intent(), env.answerOf(t))));
      Episode e = env.attempt(t, shown, rnd);
      assertThat(e.success()).as(t.id()).isTrue();
      assertThat(e.reward()).isEqualTo(1.0);
      assertThat(e.experience()).isEqualTo(successExperience(t.intent(), env.answerOf(t)));
    }
  }

  @Test
  void attempt_withATwinsExperienceFirst_fails() {
    RecurringTasksEnvironment env = env(15, 20, 3, 0, 0);
    Map<String, List<Task>> families = byFamily(env.tasks());
    SplittableRandom rnd = new SplittableRandom(16);
    for (List<Task> twins : families.values()) {
      Task task = twins.get(0);
      Task twin = twins.get(1);
      // The twin's own success, and the task's right answer shown below it: the policy copies the top one.
      List<Memory> shown =
          List.of(memory(successExperience(twin.intent(), env.answerOf(twin))),
              memory(successExperience(task.intent(), env.answerOf(task))));
      Episode e = env.attempt(task, shown, rnd);
      assertThat(e.success()).as(task.id()).isFalse();
      assertThat(e.reward()).isEqualTo(-1.0);
      assertThat(e.experience()).isEqualTo(failureExperience(task.intent(), env.answerOf(twin)));
    }
  }

  @Test
  void attempt_withSlips_succeedsMostlyWithTheRightExperience() {
    RecurringTasksEnvironment env = env(17, 20, 3, 0, RecurringTasksEnvironment.DEFAULT_SLIP);
    SplittableRandom rnd = new SplittableRandom(18);
    int successes = 0;
    int tries = 0;
    for (int round = 0; round < 20; round++) {
      for (Task t : env.tasks()) {
        List<Memory> shown = List.of(memory(successExperience(t.intent(), env.answerOf(t))));
        successes += env.attempt(t, shown, rnd).success() ? 1 : 0;
        tries++;
      }
    }
    // 1 − slip · 4/5 = 0.96
    assertThat((double) successes / tries).isBetween(0.93, 0.99);
  }

  @Test
  void attempt_ofAForeignTask_throws() {
    RecurringTasksEnvironment env = env(19, 4, 2, 0, 0);
    Task foreign = new Task("nope/x/v0", "Do something else.");
    assertThatThrownBy(() -> env.attempt(foreign, List.of(), new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope/x/v0");
  }

  @Test
  void knobs_outOfRange_areRejectedWithTheirLimits() {
    int max = RecurringTasksEnvironment.maxFamilies();
    assertThatThrownBy(() -> new RecurringTasksEnvironment.Knobs(max + 1, 2, 0, 0))
        .hasMessageContaining("families must be in [1, " + max + "]");
    assertThatThrownBy(() -> new RecurringTasksEnvironment.Knobs(4, 4, 0, 0)).hasMessageContaining("twinsPerFamily");
    assertThatThrownBy(() -> new RecurringTasksEnvironment.Knobs(4, 2, 1.5, 0)).hasMessageContaining("staleShare");
    assertThatThrownBy(() -> new RecurringTasksEnvironment.Knobs(4, 2, 0, 1)).hasMessageContaining("slipProbability");
    assertThatThrownBy(() -> new RecurringTasksEnvironment.Knobs(4, 2, 0, 0, 9))
        .hasMessageContaining("heldOut must be in [0, families × twinsPerFamily = 8], got 9");
  }

  @Test
  void heldOut_restatesTrainingTasks_soTheOriginalsExperienceHelps_andTheTwinsDoNot() {
    RecurringTasksEnvironment env =
        RecurringTasksEnvironment.generate(31, new RecurringTasksEnvironment.Knobs(10, 3, 0.25, 0.05, 12));
    assertThat(env.heldOut()).hasSize(12);
    Map<String, Task> training = new HashMap<>();
    env.tasks().forEach(t -> training.put(t.id(), t));
    Set<String> intents = new HashSet<>();
    env.tasks().forEach(t -> intents.add(t.intent()));
    for (Task h : env.heldOut()) {
      Task source = training.get(env.sourceOf(h).orElseThrow());
      assertThat(h.intent()).endsWith(source.intent().substring(1)).isNotIn(intents);
      assertThat(RecurringTasksEnvironment.REQUEST_PREAMBLES).anyMatch(h.intent()::startsWith);
      assertThat(env.answerOf(h)).isEqualTo(env.answerOf(source));
      assertThat(env.helps(h, memory(CopyFirstPolicy.successExperience(source.intent(), env.answerOf(source))))).isTrue();
      for (Task twin : env.tasks()) {
        if (twin != source && twin.id().startsWith(source.id().substring(0, source.id().lastIndexOf('/')) + "/")) {
          assertThat(env.helps(h, memory(CopyFirstPolicy.successExperience(twin.intent(), env.answerOf(twin))))).isFalse();
        }
      }
    }
    assertThat(env.heldOut().stream().map(Task::id).distinct()).hasSize(12);
  }

  @Test
  void heldOut_leavesTheTrainingTasksAsTheyWere() {
    RecurringTasksEnvironment without = RecurringTasksEnvironment.generate(
        37, new RecurringTasksEnvironment.Knobs(10, 3, 0.25, 0.05));
    RecurringTasksEnvironment with = RecurringTasksEnvironment.generate(
        37, new RecurringTasksEnvironment.Knobs(10, 3, 0.25, 0.05, 15));
    assertThat(with.tasks()).isEqualTo(without.tasks());
    assertThat(with.priorExperiences()).isEqualTo(without.priorExperiences());
    assertThat(without.heldOut()).isEmpty();
    assertThat(with.tasks()).allSatisfy(t -> assertThat(with.answerOf(t)).isEqualTo(without.answerOf(t)));
  }

  @Test
  void catalogue_supportsTheLargestSize() {
    RecurringTasksEnvironment env =
        env(23, RecurringTasksEnvironment.maxFamilies(), RecurringTasksEnvironment.maxTwinsPerFamily(), 1, 0);
    int max = RecurringTasksEnvironment.maxFamilies() * RecurringTasksEnvironment.maxTwinsPerFamily();
    assertThat(env.tasks()).hasSize(max);
    assertThat(env.priorExperiences()).hasSize(env.tasks().size());
  }
}
