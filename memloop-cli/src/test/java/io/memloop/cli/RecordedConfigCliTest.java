package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import io.memloop.server.Json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store keeps each namespace's configuration: later commands use it, or must say they replace it. */
class RecordedConfigCliTest {
  @TempDir Path dir;

  private Result run(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", dir.resolve("store").toString(), "--embedder", "none"));
    return CliRun.run(all);
  }

  private static JsonNode json(Result r) throws Exception {
    return Json.MAPPER.readTree(r.out());
  }

  @Test
  void aPlainRewardUsesTheRecordedConfiguration_andAnotherPresetMustReconfigure() throws Exception {
    assertThat(run("remember", "--embedding", "[1,0,0,0]", "--experience", "e", "--preset", "similarity").code()).isZero();
    Result retrieved = run("retrieve", "--embedding", "[1,0,0,0]", "--json"); // no preset: the recorded one
    String id = json(retrieved).get("retrievalId").asText();
    Result rewarded = run("reward", "--retrieval", id, "--reward", "1", "--json");
    assertThat(rewarded.code()).as(rewarded.err()).isZero();
    assertThat(json(rewarded).get("updated").get(0).get("qAfter").asDouble())
        .as("similarity records alpha = 0: nothing is learned, not alpha = 0.3 of the default").isZero();

    JsonNode stats = json(run("stats", "--json"));
    JsonNode ns = stats.get("namespaces").get(0);
    assertThat(ns.get("configRecorded").asBoolean()).isTrue();
    assertThat(ns.get("config").get("lambda").asDouble()).isZero();
    assertThat(ns.get("config").get("similarityNormalization").asText()).isEqualTo("POOL");

    Result conflict = run("retrieve", "--embedding", "[1,0,0,0]", "--preset", "memrl");
    assertThat(conflict.code()).isEqualTo(MemLoopCli.CONFLICT);
    assertThat(conflict.err().lines()).hasSize(1);
    assertThat(conflict.err()).contains("namespace 'default' is configured differently", "lambda 0.0 -> 0.5", "--reconfigure");

    assertThat(run("retrieve", "--embedding", "[1,0,0,0]", "--preset", "memrl", "--reconfigure").code()).isZero();
    JsonNode after = json(run("stats", "--json")).get("namespaces").get(0).get("config");
    assertThat(after.get("lambda").asDouble()).isEqualTo(0.5);
    Result bare = run("retrieve", "--embedding", "[1,0,0,0]", "--reconfigure");
    assertThat(bare.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(bare.err()).contains("--reconfigure: needs the new configuration");
  }
}
