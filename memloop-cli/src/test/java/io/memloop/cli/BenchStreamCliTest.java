package io.memloop.cli;

import static io.memloop.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bench --stream}'s options: each misuse is refused before anything runs, on one readable line, exit 2. */
class BenchStreamCliTest {
  @Test
  void badStreamOptions_exitTwo_withOneLineNamingTheOption() {
    String[][] cases = {
        {"--stream", "--epochs", "3"},
        {"--stream-length", "500"},
        {"--drift-at", "0.3"},
        {"--stream", "--stream-length", "50"},
        {"--stream", "--stream-length", "100001"},
        {"--stream", "--stream-length", "many"},
        {"--stream", "--drift-at", "1.5"},
        {"--stream", "--drift-at", "0"},
        {"--stream", "--drift-at", "half"},
        {"--stream", "--policy", "openai", "--base-url", "http://localhost:1", "--model", "m"},
        {"--stream", "--ope-validation"},
        {"--stream", "--strategies", "nonsense"},
        {"--stream", "--strategies", "default-nonsense"},
        {"--stream", "--model", "m"}};
    String[] expected = {
        "--epochs: does not apply with --stream",
        "--stream-length: only applies with --stream",
        "--drift-at: only applies with --stream",
        "--stream-length: must be in [100, 100000], got 50",
        "--stream-length: must be in [100, 100000], got 100001",
        "", // picocli's own message for a non-number
        "--drift-at: must be in (0, 1), got 1.5",
        "--drift-at: must be in (0, 1), got 0.0",
        "--drift-at:",
        "--policy: --stream runs the frozen policy only",
        "--ope-validation: does not apply with --stream",
        "strategies: unknown strategy 'nonsense'",
        "strategies: unknown strategy 'default-nonsense'",
        "--model: only applies with --policy openai"};
    for (int i = 0; i < cases.length; i++) {
      List<String> args = new ArrayList<>(List.of("bench", "--quick", "--no-progress"));
      args.addAll(List.of(cases[i]));
      CliRun.Result r = run(args);
      assertThat(r.code()).as("%s: %s", args, r.err()).isEqualTo(2);
      assertThat(r.err().lines()).as("%s: %s", args, r.err()).hasSize(1);
      // one line; a name that looks like an ablation is told every ablation, any other a line short enough to read
      boolean listsAblations = args.contains("default-nonsense");
      assertThat(r.err()).as(args.toString()).startsWith("memloop: " + expected[i])
          .hasSizeLessThan(listsAblations ? 1000 : 400);
      if (listsAblations) {
        assertThat(r.err()).contains("-no-doubt", "-always-learned");
      }
      assertThat(r.out()).as(args.toString()).isEmpty();
    }
  }

  @Test
  void aSmallStream_runsEndToEnd_andWritesTheStreamReport(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("report");
    CliRun.Result r = run("bench", "--stream", "--quick", "--env", "recurring-ops", "--seeds", "1,2", "--stream-length",
        "200", "--strategies", "no-memory,rag,default,oracle", "--embedder", "hashing", "--no-progress", "--out",
        out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("recurring-ops: default", "200 episodes per run", "| oracle |", "default minus each baseline");
    JsonNode summary = Json.MAPPER.readTree(Files.readString(out.resolve("summary.json")));
    assertThat(summary.path("mode").asText()).isEqualTo("stream");
    JsonNode env = summary.path("stream").path("environments").path("recurring-ops");
    assertThat(env.path("episodes").asInt()).isEqualTo(200);
    assertThat(env.path("strategies").path("default").path("curve")).hasSize(2);
    assertThat(Files.readAllLines(out.resolve("episodes.jsonl"))).hasSize(2 * 4 * 200)
        .allSatisfy(line -> assertThat(line).contains("\"phase\":\"stream\""));
    assertThat(out.resolve("index.html")).exists();
  }

  @Test
  void help_describesStreamMode() {
    String help = run("bench", "--help").out().replaceAll("\\s+", " ");
    assertThat(help).contains("--stream ", "--stream-length=N", "--drift-at=F", "first-encounter success",
        "episodes to recover after the drift", "(paired 95 % intervals)");
  }
}
