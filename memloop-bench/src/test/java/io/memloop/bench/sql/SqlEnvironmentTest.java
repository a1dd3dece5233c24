package io.memloop.bench.sql;

import static io.memloop.bench.Fixtures.memory;
import static io.memloop.bench.sql.SqlPolicy.failureExperience;
import static io.memloop.bench.sql.SqlPolicy.successExperience;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class SqlEnvironmentTest {

  private static SqlEnvironment env(long seed, int tasks, double distractorShare, int heldOut, double slip) {
    return SqlEnvironment.generate(seed, new SqlEnvironment.Knobs(tasks, distractorShare, heldOut, slip));
  }

  private static Map<SqlTemplate, List<Task>> byTemplate(SqlEnvironment env, List<Task> tasks) {
    return tasks.stream().collect(Collectors.groupingBy(env::templateOf));
  }

  /** The success case another task of the same template would have left, rewritten by the policy to this task. */
  private static Memory successOf(SqlEnvironment env, Task t) {
    return memory(successExperience(t.intent(), env.goldSqlOf(t)));
  }

  @Test
  void generate_sameSeed_sameTasksOrderHeldOutAndGoldRows() {
    try (SqlEnvironment a = env(42, 60, 0.4, 20, 0.05);
        SqlEnvironment b = env(42, 60, 0.4, 20, 0.05)) {
      assertThat(a.database().name()).isNotEqualTo(b.database().name());
      assertThat(a.tasks()).isEqualTo(b.tasks());
      assertThat(a.heldOut()).isEqualTo(b.heldOut());
      for (Task t : a.tasks()) {
        assertThat(a.goldSqlOf(t)).isEqualTo(b.goldSqlOf(t));
        assertThat(a.goldRowsOf(t)).isEqualTo(b.goldRowsOf(t));
      }
    }
  }

  @Test
  void generate_otherSeed_otherTasks() {
    try (SqlEnvironment a = env(1, 40, 0.4, 10, 0);
        SqlEnvironment b = env(2, 40, 0.4, 10, 0)) {
      assertThat(a.tasks()).isNotEqualTo(b.tasks());
    }
  }

  @Test
  void generate_sizesAndDistractorShare_areAsAsked() {
    try (SqlEnvironment env = env(3, 90, 0.4, 30, 0)) {
      assertThat(env.tasks()).hasSize(90);
      assertThat(env.heldOut()).hasSize(30);
      assertThat(env.tasks().stream().map(Task::id).distinct()).hasSize(90);
      assertThat(env.tasks().stream().map(Task::intent).distinct()).hasSize(90);
      assertThat(env.tasks().stream().filter(t -> env.templateOf(t).variant() > 0)).hasSize(36);
      // Every kind, and both distractor variants, are present at this size.
      assertThat(env.tasks().stream().map(t -> env.templateOf(t).kind()).distinct()).hasSize(SqlTemplates.BY_KIND.size());
      assertThat(env.tasks().stream().map(t -> env.templateOf(t).variant()).distinct()).containsExactlyInAnyOrder(0, 1, 2);
    }
    try (SqlEnvironment env = env(3, 40, 0, 5, 0)) {
      assertThat(env.tasks()).allSatisfy(t -> assertThat(env.templateOf(t).variant()).isZero());
    }
  }

  @Test
  void generate_distractorsAreTwinsOfBaseTasksWherePossible() {
    try (SqlEnvironment env = env(4, 60, 0.4, 0, 0)) {
      Set<String> baseLiterals = new HashSet<>();
      for (Task t : env.tasks()) {
        if (env.templateOf(t).variant() == 0) {
          baseLiterals.add(env.templateOf(t).kind() + "/" + SqlAlignment.literals(t.intent(), SqlAlignment.Kind.ENTITY)
              + SqlAlignment.literals(t.intent(), SqlAlignment.Kind.NUMBER));
        }
      }
      long twins = env.tasks().stream()
          .filter(t -> env.templateOf(t).variant() > 0)
          .filter(t -> baseLiterals.contains(env.templateOf(t).kind() + "/"
              + SqlAlignment.literals(t.intent(), SqlAlignment.Kind.ENTITY)
              + SqlAlignment.literals(t.intent(), SqlAlignment.Kind.NUMBER)))
          .count();
      assertThat(twins).isEqualTo(24); // 36 base tasks over 11 kinds: every distractor finds a base to twin
    }
  }

  @Test
  void heldOut_isDisjointFromTraining_andHasTrainingTasksOfItsTemplate() {
    try (SqlEnvironment env = env(5, 60, 0.4, 25, 0)) {
      Set<String> trainingIds = env.tasks().stream().map(Task::id).collect(Collectors.toSet());
      Set<String> trainingIntents = env.tasks().stream().map(Task::intent).collect(Collectors.toSet());
      Set<SqlTemplate> trainingTemplates = env.tasks().stream().map(env::templateOf).collect(Collectors.toSet());
      for (Task h : env.heldOut()) {
        assertThat(trainingIds).doesNotContain(h.id());
        assertThat(trainingIntents).doesNotContain(h.intent());
        assertThat(trainingTemplates).contains(env.templateOf(h));
      }
    }
  }

  @Test
  void goldQueries_runOnH2_withInformativeResults() {
    try (SqlEnvironment env = env(6, 120, 0.5, 40, 0)) {
      List<Task> all = new ArrayList<>(env.tasks());
      all.addAll(env.heldOut());
      for (Task t : all) {
        List<String> rows = env.database().query(env.goldSqlOf(t)).orElseThrow();
        assertThat(rows).as(t.id()).isEqualTo(env.goldRowsOf(t)).isNotEmpty().isNotEqualTo(List.of("NULL"));
        assertThat(env.answers(t, env.goldSqlOf(t))).isTrue();
      }
    }
  }

  /**
   * Measured over every task and every other variant of its kind, with the variant's case taken from
   * other literals: the rewritten distractor query never returns the gold rows, the same template's does.
   */
  @Test
  void distractorCases_rewriteToQueriesWithOtherResults() {
    try (SqlEnvironment env = env(7, 100, 0.4, 0, 0)) {
      SqlPolicy policy = env.policy();
      SplittableRandom rnd = new SplittableRandom(8);
      int distractorPairs = 0;
      int distractorRight = 0;
      for (Task t : env.tasks()) {
        SqlTemplate own = env.templateOf(t);
        for (SqlTemplate other : SqlTemplates.BY_KIND.get(own.kind())) {
          List<String> values = new ArrayList<>();
          for (SqlTemplate.Slot s : other.slots()) {
            values.add(s.values().get(rnd.nextInt(s.values().size())));
          }
          Memory shown = memory(successExperience(other.question(values), other.sql(values)));
          String sql = policy.adapt(t.intent(), List.of(shown), new HashSet<>()).orElseThrow();
          if (other.equals(own)) {
            assertThat(sql).isEqualTo(env.goldSqlOf(t));
          } else {
            distractorPairs++;
            distractorRight += env.answers(t, sql) ? 1 : 0;
          }
        }
      }
      assertThat(distractorPairs).isEqualTo(200);
      assertThat(distractorRight).isZero();
    }
  }

  @Test
  void attempt_withoutMemory_isRightAboutOneTimeInTen() {
    try (SqlEnvironment env = env(9, 100, 0.4, 0, 0.05)) {
      SplittableRandom rnd = new SplittableRandom(10);
      int successes = 0;
      int tries = 0;
      for (int round = 0; round < 20; round++) {
        for (Task t : env.tasks()) {
          successes += env.attempt(t, List.of(), rnd).success() ? 1 : 0;
          tries++;
        }
      }
      assertThat((double) successes / tries).isBetween(0.05, 0.2);
    }
  }

  @Test
  void attempt_withASameTemplateCaseFirst_succeeds() {
    try (SqlEnvironment env = env(11, 80, 0.4, 20, 0)) {
      List<Task> all = new ArrayList<>(env.tasks());
      all.addAll(env.heldOut());
      Map<SqlTemplate, List<Task>> byTemplate = byTemplate(env, all);
      SplittableRandom rnd = new SplittableRandom(12);
      int transferred = 0;
      for (Task t : all) {
        List<Task> siblings = byTemplate.get(env.templateOf(t)).stream().filter(s -> !s.equals(t)).toList();
        Task source = siblings.isEmpty() ? t : siblings.get(rnd.nextInt(siblings.size()));
        transferred += source.equals(t) ? 0 : 1;
        Episode e = env.attempt(t, List.of(successOf(env, source)), rnd);
        assertThat(e.success()).as("%s with the case of %s", t.id(), source.id()).isTrue();
        assertThat(e.reward()).isEqualTo(1.0);
        assertThat(e.experience()).isEqualTo(successExperience(t.intent(), env.goldSqlOf(t)));
      }
      assertThat(transferred).isGreaterThan(all.size() / 2);
    }
  }

  /** The twin of {@code t}: another variant of its kind with the same literals, as (question, gold SQL). */
  private static List<String> twinOf(SqlEnvironment env, Task t) {
    SqlTemplate own = env.templateOf(t);
    SqlTemplate twin = SqlTemplates.BY_KIND.get(own.kind()).get(own.variant() == 0 ? 1 : 0);
    String entity = SqlAlignment.literals(t.intent(), SqlAlignment.Kind.ENTITY).getFirst();
    String number = SqlAlignment.literals(t.intent(), SqlAlignment.Kind.NUMBER).getFirst();
    List<String> values = own.slots().getFirst().numeric() ? List.of(number, entity) : List.of(entity, number);
    return List.of(twin.question(values), twin.sql(values));
  }

  @Test
  void attempt_withADistractorCaseFirst_failsEvenWithTheRightCaseBelow() {
    try (SqlEnvironment env = env(13, 80, 0.4, 0, 0)) {
      SplittableRandom rnd = new SplittableRandom(14);
      for (Task t : env.tasks()) {
        List<String> twin = twinOf(env, t);
        List<Memory> shown = List.of(memory(successExperience(twin.get(0), twin.get(1))), successOf(env, t));
        Episode e = env.attempt(t, shown, rnd);
        assertThat(e.success()).as(t.id()).isFalse();
        assertThat(e.reward()).isEqualTo(-1.0);
        assertThat(e.experience()).isEqualTo(failureExperience(t.intent(), twin.get(1)));
      }
    }
  }

  @Test
  void attempt_aFailureNoteAboveTheDistractor_makesThePolicySkipIt() {
    try (SqlEnvironment env = env(15, 40, 0.4, 0, 0)) {
      SplittableRandom rnd = new SplittableRandom(16);
      for (Task t : env.tasks()) {
        List<String> twin = twinOf(env, t);
        List<Memory> shown =
            List.of(memory(failureExperience(t.intent(), twin.get(1))),
                memory(successExperience(twin.get(0), twin.get(1))),
                successOf(env, t));
        assertThat(env.attempt(t, shown, rnd).success()).as(t.id()).isTrue();
      }
    }
  }

  @Test
  void attempt_withSlips_succeedsMostlyWithTheRightCase() {
    try (SqlEnvironment env = env(17, 60, 0.4, 0, SqlEnvironment.DEFAULT_SLIP)) {
      SplittableRandom rnd = new SplittableRandom(18);
      int successes = 0;
      int tries = 0;
      for (int round = 0; round < 20; round++) {
        for (Task t : env.tasks()) {
          successes += env.attempt(t, List.of(successOf(env, t)), rnd).success() ? 1 : 0;
          tries++;
        }
      }
      // 1 − slip · (1 − guess rate ≈ 0.1) ≈ 0.955
      assertThat((double) successes / tries).isBetween(0.92, 0.99);
    }
  }

  /** helps(task, m) is what attempt(task, [m]) does when the policy uses a case, for any memory. */
  @Test
  void groundTruth_agreesWithAttemptWithoutSlips() {
    try (SqlEnvironment env = env(19, 60, 0.4, 10, 0)) {
      List<Task> all = new ArrayList<>(env.tasks());
      all.addAll(env.heldOut());
      SplittableRandom rnd = new SplittableRandom(20);
      int helped = 0;
      int notHelped = 0;
      for (Task t : all) {
        for (int k = 0; k < 15; k++) {
          Task source = all.get(rnd.nextInt(all.size()));
          boolean success = rnd.nextBoolean();
          String sql = success ? env.goldSqlOf(source) : env.goldSqlOf(t);
          Memory m = memory(success ? successExperience(source.intent(), sql) : failureExperience(source.intent(), sql));
          boolean helps = env.helps(t, m);
          boolean usesCase = env.policy().adapt(t.intent(), List.of(m), new HashSet<>()).isPresent();
          Episode e = env.attempt(t, List.of(m), rnd);
          if (helps) {
            helped++;
            assertThat(e.success()).as("%s with %s", t.id(), source.id()).isTrue();
          } else if (usesCase) {
            notHelped++;
            assertThat(e.success()).as("%s with %s", t.id(), source.id()).isFalse();
          }
          assertThat(helps).isEqualTo(success && env.templateOf(source).equals(env.templateOf(t)));
        }
        assertThat(env.helps(t, memory("Task: unrelated.\nOutcome: succeeded.\nWhat worked: `restart`."))).isFalse();
      }
      assertThat(helped).isPositive();
      assertThat(notHelped).isPositive();
    }
  }

  @Test
  void attempt_fromSeveralThreads_matchesSequentialAttempts() throws Exception {
    try (SqlEnvironment env = env(21, 60, 0.4, 0, 0.05)) {
      List<Task> tasks = env.tasks();
      ExecutorService pool = Executors.newFixedThreadPool(4);
      try {
        List<Future<Boolean>> parallel = new ArrayList<>();
        for (int i = 0; i < tasks.size(); i++) {
          int index = i;
          parallel.add(pool.submit(() -> env.attempt(tasks.get(index), List.of(), new SplittableRandom(index)).success()));
        }
        try (SqlEnvironment fresh = env(21, 60, 0.4, 0, 0.05)) { // its own cache: every query runs again
          for (int i = 0; i < tasks.size(); i++) {
            boolean sequential = fresh.attempt(tasks.get(i), List.of(), new SplittableRandom(i)).success();
            assertThat(parallel.get(i).get()).isEqualTo(sequential);
          }
        }
      } finally {
        pool.shutdown();
      }
    }
  }

  @Test
  void database_rejectsWrites_andTheDataStaysAsItWas() {
    try (SqlEnvironment env = env(23, 20, 0.4, 0, 0)) {
      Task t = env.tasks().getFirst();
      List<String> before = env.goldRowsOf(t);
      SqlDatabase db = env.database();
      assertThat(db.query("DELETE FROM orders")).isEmpty();
      assertThat(db.query("DROP TABLE employees")).isEmpty();
      assertThat(db.query("UPDATE grades SET score = 0")).isEmpty();
      assertThat(db.query("SELECT COUNT(*) FROM orders")).contains(List.of("520"));
      assertThat(db.query("SELECT * FROM no_such_table")).isEmpty();
      assertThat(db.query(env.goldSqlOf(t) + " ")).contains(before);
      // A case whose query writes is just a wrong answer.
      Memory hostile = memory(successExperience(t.intent(), "DELETE FROM customers"));
      assertThat(env.attempt(t, List.of(hostile), new SplittableRandom(1)).success()).isFalse();
      assertThat(db.query("SELECT COUNT(*) FROM customers")).contains(List.of("48"));
    }
  }

  @Test
  void close_dropsTheDatabase_andLaterAttemptsThrow() {
    SqlEnvironment env = env(25, 20, 0.4, 0, 0);
    Task t = env.tasks().getFirst();
    env.close();
    env.close(); // idempotent
    assertThatThrownBy(() -> env.attempt(t, List.of(), new SplittableRandom(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is closed");
  }

  @Test
  void attempt_ofAForeignTask_throws() {
    try (SqlEnvironment env = env(27, 20, 0.4, 0, 0)) {
      Task foreign = new Task("nope/v0/x", "Which planets orbit Lyon?");
      assertThatThrownBy(() -> env.attempt(foreign, List.of(), new SplittableRandom(1)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("nope/v0/x");
      Task renamed = new Task(env.tasks().getFirst().id(), "Something else entirely?");
      assertThatThrownBy(() -> env.helps(renamed, memory("x"))).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void knobs_outOfRange_areRejectedWithTheirLimits() {
    assertThatThrownBy(() -> new SqlEnvironment.Knobs(0, 0.4, 0, 0)).hasMessageContaining("tasks must be >= 1");
    assertThatThrownBy(() -> new SqlEnvironment.Knobs(SqlEnvironment.MAX_TASKS, 0.4, 1, 0))
        .hasMessageContaining("<= " + SqlEnvironment.MAX_TASKS);
    assertThatThrownBy(() -> new SqlEnvironment.Knobs(40, 1.5, 0, 0)).hasMessageContaining("distractorShare");
    assertThatThrownBy(() -> new SqlEnvironment.Knobs(40, 0.4, 0, 1)).hasMessageContaining("slipProbability");
  }

  @Test
  void generate_largestSize_hasEnoughSlotValues() {
    try (SqlEnvironment env = env(29, SqlEnvironment.MAX_TASKS - 40, 0.5, 40, 0)) {
      assertThat(env.tasks()).hasSize(SqlEnvironment.MAX_TASKS - 40);
      assertThat(env.heldOut()).hasSize(40);
    }
  }
}
