package io.memloop.cli;

import static io.memloop.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.server.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench --store lucene --vector-format F}: the engine's runs on the embedded store, in a vector format. */
class BenchStoreCliTest {
  private static final String[] RUN = {"bench", "--quick", "--env", "sql", "--seeds", "1", "--epochs", "2",
      "--strategies", "default,memrl", "--embedder", "hashing", "--no-progress"};

  @Test
  void onTheLuceneStore_inAQuantizedFormat_theRunsLearnAsInMemory_andTheReportSaysWhere(@TempDir Path dir)
      throws Exception {
    Path memory = dir.resolve("memory");
    Path lucene = dir.resolve("lucene");
    CliRun.Result m = run(with(RUN, "--out", memory.toString()));
    CliRun.Result l = run(with(RUN, "--store", "lucene", "--vector-format", "int7", "--out", lucene.toString()));
    assertThat(m.code()).as(m.err()).isZero();
    assertThat(l.code()).as(l.err()).isZero();
    assertThat(l.out()).contains("engine store lucene/int7");
    assertThat(m.out()).doesNotContain("engine store");
    JsonNode a = Json.MAPPER.readTree(Files.readString(memory.resolve("summary.json")));
    JsonNode b = Json.MAPPER.readTree(Files.readString(lucene.resolve("summary.json")));
    assertThat(a.path("store").asText()).isEqualTo("memory");
    assertThat(b.path("store").asText()).isEqualTo("lucene/int7");
    // a small store: the graph search finds every candidate, and the exact rescoring gives the same similarities
    JsonNode runsA = withoutWallTime(a.path("environments"));
    JsonNode runsB = withoutWallTime(b.path("environments"));
    assertThat(runsA.path("sql").path("strategies").size()).isEqualTo(2);
    assertThat(runsB).isEqualTo(runsA);
  }

  @Test
  void badStoreOptions_exitTwo_withOneLineNamingTheOption() {
    String[][] cases = {
        {"--store", "disk"}, {"--vector-format", "int7"}, {"--store", "lucene", "--vector-format", "int3"},
        {"--store", "lucene", "--ope-validation"}, {"--store", "\u001b[31m" + "x".repeat(10_000)}};
    String[] expected = {"--store: must be memory or lucene, got 'disk'", "--vector-format: only applies with --store lucene",
        "--vector-format: 'int3' is not a vector format", "--store: does not apply with --ope-validation",
        "--store: must be memory or lucene"};
    for (int i = 0; i < cases.length; i++) {
      CliRun.Result r = run(with(new String[] {"bench", "--quick", "--no-progress"}, cases[i]));
      assertThat(r.code()).as("%s: %s", List.of(cases[i]), r.err()).isEqualTo(2);
      assertThat(r.err().lines()).as(r.err()).hasSize(1);
      assertThat(r.err()).as(List.of(cases[i]).toString()).startsWith("memloop: " + expected[i])
          .doesNotContain("\u001b").hasSizeLessThan(300);
    }
  }

  /** The report without the one number a store may change: how long each run took. */
  private static JsonNode withoutWallTime(JsonNode environments) {
    JsonNode copy = environments.deepCopy();
    copy.forEach(env -> env.path("strategies").forEach(s -> ((ObjectNode) s).remove("wallSeconds")));
    return copy;
  }

  private static String[] with(String[] base, String... more) {
    return Stream.concat(Stream.of(base), Stream.of(more)).toArray(String[]::new);
  }
}
