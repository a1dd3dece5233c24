package io.memloop.bench.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.ScriptedChatModel;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The SQL environment with a language model as its policy ({@link LlmPolicy}). */
class SqlLlmTest {
  @Test
  void readQuery_takesOneSelectFromAFenceOrTheText() {
    assertThat(SqlEnvironment.readQuery("Here:\n```sql\nSELECT name\nFROM t -- all rows\nWHERE x = 1;\n```").value())
        .isEqualTo("SELECT name FROM t WHERE x = 1");
    assertThat(SqlEnvironment.readQuery("with a as (select 1) select * from a").value())
        .isEqualTo("with a as (select 1) select * from a");
    assertThat(SqlEnvironment.readQuery("DELETE FROM customers").problem()).contains("not a SELECT query");
    assertThat(SqlEnvironment.readQuery("SELECT 1; DROP TABLE t").problem()).contains("more than one statement");
    assertThat(SqlEnvironment.readQuery("```sql\n```").problem()).isEqualTo("it holds no query.");
  }

  @Test
  void sql_runsTheModelsQueryOnTheDatabase_readOnly() {
    try (SqlEnvironment env = SqlEnvironment.generate(5, new SqlEnvironment.Knobs(12, 0.4, 4, 0.05))) {
      Task task = env.tasks().getFirst();
      ScriptedChatModel gold = new ScriptedChatModel((m, c) -> "```sql\n" + env.goldSqlOf(task) + ";\n```");
      Episode e = env.attempt(task, List.of(), new LlmPolicy(gold, 2, null), new SplittableRandom(1));
      assertThat(e.success()).isTrue();
      assertThat(e.experience()).isEqualTo(SqlPolicy.successExperience(task.intent(), env.goldSqlOf(task)));
      assertThat(gold.seen.getFirst().getFirst().content()).contains("CREATE TABLE customers", "CREATE TABLE employees");

      ScriptedChatModel sneaky =
          new ScriptedChatModel((m, c) -> c == 1 ? "DELETE FROM orders" : "SELECT * FROM orders; DELETE FROM orders");
      Episode f = env.attempt(task, List.of(), new LlmPolicy(sneaky, 1, null), new SplittableRandom(1));
      assertThat(f.success()).isFalse();
      assertThat(f.experience()).contains("No query was written");
      assertThat(env.answers(task, env.goldSqlOf(task))).isTrue(); // the data is intact
    }
  }
}
