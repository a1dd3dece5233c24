package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code import} (issue 23 item 13): with {@code --event-log} the new history holds a {@code remember} per imported
 * memory; a run whose intent is over the bound every way in enforces is skipped and counted by its reason.
 */
class ImportCliTest {
  @TempDir Path dir;

  /** One OTLP trace request with an {@code invoke_agent} span asking {@code question} and answering {@code answer}. */
  private static String run(String traceId, String spanId, String question, String answer) throws IOException {
    String in = Json.MAPPER.writeValueAsString(List.of(java.util.Map.of("role", "user",
        "parts", List.of(java.util.Map.of("type", "text", "content", question)))));
    String out = Json.MAPPER.writeValueAsString(List.of(java.util.Map.of("role", "assistant",
        "parts", List.of(java.util.Map.of("type", "text", "content", answer)))));
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"scope\":{\"name\":\"t\"},\"spans\":[{"
        + "\"traceId\":\"" + traceId + "\",\"spanId\":\"" + spanId + "\",\"name\":\"invoke_agent a\",\"kind\":1,"
        + "\"startTimeUnixNano\":\"1795435200000000000\",\"attributes\":["
        + "{\"key\":\"gen_ai.operation.name\",\"value\":{\"stringValue\":\"invoke_agent\"}},"
        + "{\"key\":\"gen_ai.input.messages\",\"value\":{\"stringValue\":" + Json.MAPPER.writeValueAsString(in) + "}},"
        + "{\"key\":\"gen_ai.output.messages\",\"value\":{\"stringValue\":" + Json.MAPPER.writeValueAsString(out) + "}}"
        + "]}]}]}]}";
  }

  private List<JsonNode> events(Path log) throws IOException {
    List<JsonNode> events = new ArrayList<>();
    try (Stream<Path> files = Files.list(log)) {
      for (Path f : files.sorted().toList()) {
        for (String line : Files.readAllLines(f)) {
          events.add(Json.MAPPER.readTree(line));
        }
      }
    }
    return events;
  }

  @Test
  void anOtlpRunWithAMillionCharacterUserMessageIsSkippedAndTheImportedOnesAreLogged() throws IOException {
    Path traces = Files.writeString(dir.resolve("traces.jsonl"),
        run("5b8efff798038103d269b633813fc60c", "eee19b7ec3c1b174", "x".repeat(1_000_009), "done") + "\n"
            + run("6b8efff798038103d269b633813fc60c", "fee19b7ec3c1b174", "Restart billing in staging", "billing restarted") + "\n");
    List<String> common = List.of("import", "--format", "otlp", "--input", traces.toString(), "--namespace", "ops",
        "--embedder", "hashing");

    List<String> json = new ArrayList<>(common);
    json.addAll(List.of("--store", dir.resolve("a").toString(), "--event-log", dir.resolve("events").toString(), "--json"));
    CliRun.Result r = CliRun.run(json);
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.json().get("memories").asInt()).isEqualTo(1);
    assertThat(r.json().at("/skippedByReason/intentTooLong").asInt()).isEqualTo(1);
    assertThat(r.json().at("/skippedByReason/malformed").asInt()).isZero();
    assertThat(r.json().at("/skipped/0/kind").asText()).isEqualTo("intentTooLong");
    assertThat(r.json().at("/skipped/0/reason").asText()).endsWith("is 1000009 characters, over the limit of 8192");
    List<JsonNode> events = events(dir.resolve("events"));
    assertThat(events).extracting(e -> e.get("type").asText()).containsExactly("config", "remember");
    assertThat(events.get(1).get("intent").asText()).isEqualTo("Restart billing in staging");

    List<String> text = new ArrayList<>(common);
    text.addAll(List.of("--store", dir.resolve("b").toString()));
    CliRun.Result t = CliRun.run(text);
    assertThat(t.code()).as(t.err()).isZero();
    assertThat(t.out()).contains("imported 1 memories into namespace ops from 1 agent runs")
        .contains("skipped 1 record(s) or run(s) whose intent is over the 8192-character limit:")
        .doesNotContain("malformed");
  }

  @Test
  void anIntentOverTheBoundIsRefusedBeforeAStoreIsMade() {
    CliRun.Result r = CliRun.run("remember", "--store", dir.resolve("new").toString(), "--embedder", "hashing",
        "--intent", "y".repeat(8_193), "--experience", "x", "--outcome", "success");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).startsWith("memloop: --intent").contains("is 8193 characters, over the limit of 8192")
        .doesNotContain("Exception").hasLineCount(1);
    assertThat(dir.resolve("new")).doesNotExist();
  }
}
