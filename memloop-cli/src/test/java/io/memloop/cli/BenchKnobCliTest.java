package io.memloop.cli;

import static io.memloop.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.bench.BenchOptions;
import io.memloop.server.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchKnobCliTest {
  @Test
  void aKnob_runsTheVariant_andTheReportRecordsIt(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("report");
    CliRun.Result r = run("bench", "--quick", "--env", "text-world", "--seeds", "1", "--epochs", "1", "--strategies",
        "no-memory", "--knob", "text-world.rooms=4", "--knob", "text-world.houses=2", "--no-progress", "--out",
        out.toString());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).contains("knobs text-world.rooms=4 text-world.houses=2");
    JsonNode summary = Json.MAPPER.readTree(Files.readString(out.resolve("summary.json")));
    assertThat(summary.path("knobs").path("text-world").path("rooms").asText()).isEqualTo("4");
    assertThat(summary.path("knobs").path("text-world").path("houses").asText()).isEqualTo("2");
  }

  @Test
  void help_listsEveryKnobOfEveryEnvironment() {
    String help = run("bench", "--help").out().replaceAll("\\s+", " ");
    for (String env : BenchOptions.ENVIRONMENTS) {
      assertThat(help).as(env).contains(env + " " + String.join(", ", BenchOptions.knobNames(env)));
    }
  }

  @Test
  void badKnobs_exitTwo_withOneLineNamingTheKnob() {
    String[][] cases = {
        {"--knob", "rooms=4"}, {"--knob", "text-world.rooms"}, {"--knob", "text-world.rooms="},
        {"--knob", "text-world.rooms=4", "--knob", "text-world.rooms=5"},
        {"--knob", "text-world.rooms=x"}, {"--knob", "text-world.rooms=99"}, {"--knob", "text-world.colour=red"},
        {"--knob", "nowhere.rooms=4"}, {"--env", "sql", "--knob", "text-world.rooms=4"},
        {"--knob", "text-world.rooms=\u001b[31m4"}, {"--knob", "x".repeat(10_000) + ".rooms=4"},
        {"--knob", "text-world." + "y".repeat(10_000) + "=4"}};
    String[] expected = {"--knob: expected ENV.NAME=VALUE", "--knob: expected ENV.NAME=VALUE",
        "--knob: expected ENV.NAME=VALUE", "--knob: text-world.rooms is given twice",
        "knob: text-world.rooms: expected a whole number", "knob: text-world: rooms must be in",
        "knob: text-world.colour: unknown knob", "knob: unknown environment 'nowhere'",
        "knob: knobs of text-world are set but it is not run", "knob: text-world.rooms: expected a whole number",
        "knob: unknown environment 'xxxx", "knob: text-world.yyyy"};
    for (int i = 0; i < cases.length; i++) {
      String[] args = new String[cases[i].length + 3];
      args[0] = "bench";
      args[1] = "--quick";
      System.arraycopy(cases[i], 0, args, 2, cases[i].length);
      args[args.length - 1] = "--no-progress";
      CliRun.Result r = run(args);
      assertThat(r.code()).as("%s: %s", List.of(cases[i]), r.err()).isEqualTo(2);
      assertThat(r.err().lines()).as(r.err()).hasSize(1);
      assertThat(r.err()).as(List.of(cases[i]).toString()).startsWith("memloop: " + expected[i]).doesNotContain("\u001b")
          .hasSizeLessThan(300);
    }
  }
}
