package io.memloop.bench.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The frozen SQL policy's knowledge without an example: reach, size, and independence from the gold. */
class SqlKnowledgeTest {

  @Test
  void expand_writesOutEveryCombinationInOrder() {
    assertThat(SqlKnowledge.expand("a [1|2] b [x|y|z]"))
        .containsExactly("a 1 b x", "a 1 b y", "a 1 b z", "a 2 b x", "a 2 b y", "a 2 b z");
    assertThat(SqlKnowledge.expand("no choice")).containsExactly("no choice");
    assertThat(SqlKnowledge.expand("[|NOT ]EXISTS")).containsExactly("EXISTS", "NOT EXISTS");
  }

  @Test
  void candidates_fillTheQuestionsLiterals_andNeedOneEntityAndOneNumber() {
    List<String> c = SqlKnowledge.candidates("Which employees in Sales earn more than 5000?");
    assertThat(c).hasSize(8).doesNotHaveDuplicates()
        .allSatisfy(sql -> assertThat(sql).contains("'Sales'").contains(" 5000").doesNotContain("{"));
    assertThat(SqlKnowledge.candidates("Which employees in Sales or Legal earn more than 5000?")).isEmpty();
    assertThat(SqlKnowledge.candidates("Which employees in Sales earn more than average?")).isEmpty();
  }

  @Test
  void candidates_withoutCues_fallBackToTheQuestionsSchema() {
    List<String> c = SqlKnowledge.candidates("Which students of Poetry got 70?");
    assertThat(c).isNotEmpty().allSatisfy(sql -> assertThat(sql).containsAnyOf("grades", "students"));
    assertThat(c).noneMatch(sql -> sql.contains("employees") || sql.contains("orders"));
  }

  /**
   * Every task of every kind can be solved without a case, but only by luck: among what its question
   * reaches, the share of queries with the gold rows is between one in thirty-two and one in four,
   * and on average far below the one in three of guessing among the kind's own catalogue variants.
   */
  @Test
  void everyTask_isReachable_butAGuessIsRarelyRight() {
    try (SqlEnvironment env = SqlEnvironment.generate(31, new SqlEnvironment.Knobs(120, 0.5, 40, 0))) {
      List<Task> all = new ArrayList<>(env.tasks());
      all.addAll(env.heldOut());
      Map<String, Double> shareByKind = new HashMap<>();
      double sum = 0;
      for (Task t : all) {
        List<String> candidates = SqlKnowledge.candidates(t.intent());
        long right = candidates.stream().filter(sql -> env.answers(t, sql)).count();
        double share = (double) right / candidates.size();
        assertThat(right).as(t.intent()).isPositive();
        assertThat(share).as(t.intent()).isBetween(1.0 / 32, 1.0 / 4);
        shareByKind.merge(env.templateOf(t).kind(), share, Math::max);
        sum += share;
      }
      assertThat(shareByKind).hasSize(SqlTemplates.BY_KIND.size());
      assertThat(sum / all.size()).isLessThan(0.15);
    }
  }

  /** The knowledge holds queries no catalogue template has: it is not the gold list in disguise. */
  @Test
  void shapes_reachQueriesBeyondTheCatalogue() {
    List<String> gold = SqlTemplates.ALL.stream().map(t -> SqlPolicy.normalized(t.sql(sample(t)))).toList();
    int beyond = 0;
    int total = 0;
    for (SqlTemplate t : SqlTemplates.ALL) {
      for (String sql : SqlKnowledge.candidates(t.question(sample(t)))) {
        total++;
        beyond += gold.contains(SqlPolicy.normalized(sql)) ? 0 : 1;
      }
    }
    assertThat((double) beyond / total).isGreaterThan(0.8);
  }

  private static List<String> sample(SqlTemplate t) {
    return t.slots().stream().map(s -> s.values().getFirst()).toList();
  }
}
