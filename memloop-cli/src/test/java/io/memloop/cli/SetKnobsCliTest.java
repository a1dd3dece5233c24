package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Knob;
import io.memloop.MemLoopConfig;
import io.memloop.cli.CliRun.Result;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --set KNOB=VALUE}: its help, checks and {@code stats --json} come from the knob table ({@link Knob}). */
class SetKnobsCliTest {
  @TempDir Path dir;

  private Result run(String store, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", dir.resolve(store).toString(), "--embedder", "none"));
    return CliRun.run(all);
  }

  private static void assertOneReadableLine(Result r, String message) {
    assertThat(r.code()).as("exit code, stderr=%s", r.err()).isEqualTo(MemLoopCli.USAGE);
    assertThat(r.err().lines()).as("stderr").hasSize(1);
    assertThat(r.err().strip()).isEqualTo("memloop: " + message);
  }

  @Test
  void help_listsEveryKnobName_fromTheTable() {
    Result help = CliRun.run("retrieve", "--help");
    assertThat(help.out().replaceAll("\\s+", " ")).contains("KNOB is one of " + String.join(", ", MemLoopConfig.KNOBS) + ".")
        .contains("docs/configuration.md");
  }

  @Test
  void aConflict_namesBothKnobs_inEitherOrder() {
    String expected = "--set exploration: NONE conflicts with epsilon=0.1; set exploration EPSILON_GREEDY or epsilon 0";
    assertOneReadableLine(run("a", "retrieve", "--embedding", "[1,0,0,0]", "--set", "epsilon=0.1"), expected);
    assertOneReadableLine(run("a", "retrieve", "--embedding", "[1,0,0,0]", "--set", "exploration=none", "--set", "epsilon=0.1"),
        expected);
    assertOneReadableLine(run("a", "retrieve", "--embedding", "[1,0,0,0]", "--set", "epsilon=0.1", "--set", "exploration=none"),
        expected);
  }

  @Test
  void aKnobGivenTwice_isRefused() {
    assertOneReadableLine(run("a", "retrieve", "--embedding", "[1,0,0,0]", "--set", "k1=5", "--set", "k1=6"),
        "--set k1: is given twice (k1=5, k1=6); give each knob once");
    assertOneReadableLine(run("a", "retrieve", "--embedding", "[1,0,0,0]", "--set", "delta=0.4", "--set", "similarityThreshold=0.6"),
        "--set similarityThreshold: is given twice (delta=0.4, similarityThreshold=0.6); give each knob once");
    assertOneReadableLine(run("a", "retrieve", "--embedding", "[1,0,0,0]", "--set", "exploreBudget=-1"),
        "--set exploreBudget: must be in [0, 1000], got -1");
  }

  @Test
  void statsJson_listsEveryKnob_andTheOrderOfSetDoesNotMatter() {
    run("a", "remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--preset", "memrl",
        "--set", "exploration=EPSILON_GREEDY", "--set", "epsilon=0.1");
    run("b", "remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--preset", "memrl",
        "--set", "epsilon=0.1", "--set", "exploration=EPSILON_GREEDY");
    Result a = run("a", "stats", "--json");
    Result b = run("b", "stats", "--json");
    assertThat(a.code()).as(a.err()).isZero();
    var config = a.json().get("namespaces").get(0).get("config");
    assertThat(b.json().get("namespaces").get(0).get("config")).isEqualTo(config);
    List<String> names = new ArrayList<>();
    config.fieldNames().forEachRemaining(names::add);
    assertThat(names).containsExactlyElementsOf(Arrays.stream(Knob.values()).map(Knob::key).toList());
    assertThat(config.get("exploration").asText()).isEqualTo("EPSILON_GREEDY");
    assertThat(config.get("epsilon").asDouble()).isEqualTo(0.1);
    assertThat(config.get("k1").isInt()).isTrue();
  }
}
