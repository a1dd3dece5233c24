package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --event-log}: every command appends its operations; a bad directory is one readable line. */
class EventLogCliTest {
  @TempDir Path dir;

  private int run(StringWriter out, StringWriter err, String... args) {
    return MemLoopCli.execute(args, new PrintWriter(out), new PrintWriter(err));
  }

  private String[] with(String... args) {
    List<String> a = new ArrayList<>(List.of(args));
    a.addAll(List.of("--store", dir.resolve("store").toString(), "--event-log", dir.resolve("events").toString(),
        "--embedder", "none", "--json"));
    return a.toArray(String[]::new);
  }

  @Test
  void commandsAppendTheirOperations() throws IOException {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    assertThat(run(out, err, with("remember", "--intent", "sort a list", "--embedding", "[1,0,0,0]",
        "--experience", "use sorted()", "--outcome", "success"))).as(err.toString()).isZero();
    StringWriter r = new StringWriter();
    assertThat(run(r, err, with("retrieve", "--embedding", "[0.9,0.1,0,0]"))).as(err.toString()).isZero();
    String id = Json.MAPPER.readTree(r.toString()).get("retrievalId").asText();
    assertThat(run(new StringWriter(), err, with("reward", "--retrieval", id, "--reward", "1"))).as(err.toString()).isZero();

    List<JsonNode> events = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir.resolve("events"))) {
      for (Path f : files.sorted().toList()) {
        for (String line : Files.readAllLines(f)) {
          events.add(Json.MAPPER.readTree(line));
        }
      }
    }
    assertThat(events).extracting(e -> e.get("type").asText())
        .containsExactly("config", "remember", "config", "retrieval", "config", "reward");
    assertThat(events.get(3).get("retrievalId").asText()).isEqualTo(id);
    assertThat(events.get(5).at("/updated/0/visits").asInt()).isEqualTo(1);
  }

  @Test
  void aFileIsNotADirectory() throws IOException {
    Path file = Files.writeString(dir.resolve("a-file"), "x");
    StringWriter err = new StringWriter();
    int code = run(new StringWriter(), err, "remember", "--store", dir.resolve("store").toString(), "--event-log", file.toString(),
        "--intent", "x", "--embedding", "[1,0]", "--experience", "y", "--outcome", "success", "--embedder", "none");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("memloop: --event-log").doesNotContain("Exception").hasLineCount(1);
    assertThat(dir.resolve("store")).doesNotExist(); // checked before the disk is touched
  }
}
