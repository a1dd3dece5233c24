package io.memloop.bench.sql;

import static io.memloop.bench.Fixtures.memory;
import static io.memloop.bench.sql.SqlPolicy.failureExperience;
import static io.memloop.bench.sql.SqlPolicy.successExperience;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The frozen SQL policy's reading rules, without a database. */
class SqlPolicyTest {
  private static final SqlPolicy NO_SLIP = new SqlPolicy(0);
  private static final String QUESTION = "Which customers from Oslo placed more than 6 orders?";
  private static final SqlTemplate BASE = SqlTemplates.BY_KIND.get("shop.order-count").get(0);
  private static final SqlTemplate NEGATED = SqlTemplates.BY_KIND.get("shop.order-count").get(1);

  @Test
  void parse_readsBackBothKindsOfExperience() {
    assertThat(SqlPolicy.parse(successExperience("Q?", "SELECT  1\n")))
        .contains(new SqlPolicy.Case("Q?", "SELECT 1", true));
    assertThat(SqlPolicy.parse(failureExperience("Q?", "SELECT 2"))).contains(new SqlPolicy.Case("Q?", "SELECT 2", false));
    assertThat(SqlPolicy.parse("Task: restart.\nOutcome: succeeded.\nWhat worked: `x`.")).isEmpty();
    assertThat(SqlPolicy.parse("Question: Q?\nSQL: SELECT 1")).as("no verdict").isEmpty();
  }

  @Test
  void choose_adaptsTheFirstAlignableSuccessCase() {
    String lyon = BASE.question(List.of("Lyon", "8"));
    List<Memory> shown =
        List.of(memory(successExperience("Which employees in Sales earn more than 5000?", "SELECT 1")),
            memory(successExperience(lyon, BASE.sql(List.of("Lyon", "8")))),
            memory(successExperience(NEGATED.question(List.of("Lyon", "8")), NEGATED.sql(List.of("Lyon", "8")))));
    for (long seed = 0; seed < 20; seed++) {
      assertThat(NO_SLIP.choose(QUESTION, shown, new SplittableRandom(seed))).isEqualTo(BASE.sql(List.of("Oslo", "6")));
    }
  }

  @Test
  void choose_skipsASuccessCaseThatAHigherFailureNoteRewritesToTheSameQuery() {
    List<Memory> shown =
        List.of(memory(failureExperience(BASE.question(List.of("Porto", "9")), NEGATED.sql(List.of("Porto", "9")))),
            memory(successExperience(NEGATED.question(List.of("Lyon", "8")), NEGATED.sql(List.of("Lyon", "8")))),
            memory(successExperience(BASE.question(List.of("Lyon", "8")), BASE.sql(List.of("Lyon", "8")))));
    assertThat(NO_SLIP.adapt(QUESTION, shown, new HashSet<>())).contains(BASE.sql(List.of("Oslo", "6")));
  }

  @Test
  void guess_drawsFromWhatItKnowsForTheQuestion_andAvoidsQueriesMarkedWrong() {
    Set<String> seen = new HashSet<>();
    for (long seed = 0; seed < 400; seed++) {
      seen.add(NO_SLIP.guess(QUESTION, Set.of(), new SplittableRandom(seed)));
    }
    assertThat(seen).containsExactlyInAnyOrderElementsOf(SqlKnowledge.candidates(QUESTION))
        .hasSize(16).allSatisfy(sql -> assertThat(sql).contains("'Oslo'"));
    Set<String> avoid = new HashSet<>(seen);
    String keep = BASE.sql(List.of("Oslo", "6"));
    avoid.remove(keep);
    for (long seed = 0; seed < 20; seed++) {
      assertThat(NO_SLIP.guess(QUESTION, avoid, new SplittableRandom(seed))).isEqualTo(keep);
    }
    // Everything marked wrong: the notes are useless, back to all shapes.
    avoid.add(keep);
    assertThat(NO_SLIP.guess(QUESTION, avoid, new SplittableRandom(1))).isIn(seen);
  }

  @Test
  void choose_withSlips_sometimesIgnoresTheCase() {
    SqlPolicy slippy = new SqlPolicy(0.5);
    List<Memory> shown =
        List.of(memory(successExperience(BASE.question(List.of("Lyon", "8")), BASE.sql(List.of("Lyon", "8")))));
    int adapted = 0;
    for (long seed = 0; seed < 400; seed++) {
      adapted += slippy.choose(QUESTION, shown, new SplittableRandom(seed)).equals(BASE.sql(List.of("Oslo", "6"))) ? 1 : 0;
    }
    // 0.5 + 0.5 / 16 ≈ 0.53
    assertThat(adapted / 400.0).isBetween(0.45, 0.63);
  }
}
