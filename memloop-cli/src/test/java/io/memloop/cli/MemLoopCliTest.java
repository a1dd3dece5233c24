package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import io.memloop.server.Json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI end to end, in-process, on a real durable store; no model (caller-supplied embeddings). */
class MemLoopCliTest {
  @TempDir Path dir;

  private Result run(String... args) {
    return CliRun.run(args);
  }

  private String[] withStore(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", dir.resolve("store").toString(), "--embedder", "none"));
    return all.toArray(String[]::new);
  }

  private static void assertOneReadableLine(Result r, int code, String contains) {
    assertThat(r.code()).as("exit code, stderr=%s", r.err()).isEqualTo(code);
    assertThat(r.err().lines()).as("stderr").hasSize(1);
    assertThat(r.err()).startsWith("memloop: ").contains(contains).doesNotContain("Exception", "\tat ");
  }

  @Test
  void rememberRetrieveRewardStats_roundTripWithJson() {
    Result remembered = run(withStore("remember", "--intent", "sort a list", "--embedding", "[1,0,0,0]",
        "--experience", "use sorted()", "--outcome", "success", "--json", "--preset", "memrl"));
    assertThat(remembered.code()).as(remembered.err()).isZero();
    String memoryId = remembered.json().get("id").asText();

    Result retrieved = run(withStore("retrieve", "--embedding", "[0.9,0.1,0,0]", "--json", "--preset", "memrl"));
    assertThat(retrieved.code()).as(retrieved.err()).isZero();
    JsonNode r = retrieved.json();
    assertThat(r.get("selected").get(0).get("id").asText()).isEqualTo(memoryId);
    assertThat(r.get("selected").get(0).get("experience").asText()).isEqualTo("use sorted()");
    assertThat(r.get("candidates").get(0).get("probability").asDouble()).isEqualTo(1.0);

    Result rewarded = run(withStore("reward", "--retrieval", r.get("retrievalId").asText(), "--reward", "1", "--json", "--preset", "memrl"));
    assertThat(rewarded.code()).as(rewarded.err()).isZero();
    assertThat(rewarded.json().get("updated").get(0).get("qAfter").asDouble()).isEqualTo(0.3);

    Result stats = run(withStore("stats", "--json"));
    assertThat(stats.code()).isZero();
    JsonNode ns = stats.json().get("namespaces").get(0);
    assertThat(ns.get("memories").asLong()).isEqualTo(1);
    assertThat(ns.get("totalVisits").asLong()).isEqualTo(1);
    assertThat(ns.get("meanQ").asDouble()).isEqualTo(0.3);

    Result text = run(withStore("stats"));
    assertThat(text.out()).contains("1 memories in 1 intent groups");
  }

  @Test
  void missingStore_isOneLineAndExit3() {
    assertOneReadableLine(run(withStore("stats")), MemLoopCli.NOT_FOUND, "no MemLoop store at");
    assertThat(dir.resolve("store")).doesNotExist();
  }

  @Test
  void badInputs_failWithOneLine_andLeaveStoreUnchanged() throws IOException {
    run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x"));
    String before = run(withStore("stats", "--json")).out();
    String storeFiles = listing();

    assertOneReadableLine(run(withStore("reward", "--retrieval", "r999", "--reward", "1")), MemLoopCli.NOT_FOUND, "no retrieval 'r999'");
    assertOneReadableLine(run(withStore("reward", "--retrieval", "r1", "--reward", "NaN")), MemLoopCli.USAGE, "--reward: expected a decimal number, got 'NaN'");
    assertOneReadableLine(run(withStore("reward", "--retrieval", "r1", "--reward", "lots")), MemLoopCli.USAGE, "--reward: expected a decimal number, got 'lots'");
    assertOneReadableLine(run(withStore("remember", "--intent", "", "--experience", "x")), MemLoopCli.USAGE, "--intent: must not be empty");
    assertOneReadableLine(run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", " ")), MemLoopCli.USAGE, "--experience: must not be empty");
    assertOneReadableLine(run(withStore("remember", "--embedding", "[1,0]", "--experience", "x")), MemLoopCli.USAGE, "--embedding: has 2 dimensions but the store holds 4-d vectors");
    assertOneReadableLine(run(withStore("retrieve", "--embedding", "[1,0,")), MemLoopCli.USAGE, "--embedding: expected a JSON array");
    assertOneReadableLine(run(withStore("retrieve", "--intent", "needs a model")), MemLoopCli.USAGE, "--intent: cannot be embedded: the store holds 4-d vectors and --embedder is none");
    assertOneReadableLine(run(withStore("retrieve", "--embedding", "[1,0,0,0]", "--set", "k1=0")), MemLoopCli.USAGE, "--set k1: must be in [1, 10000], got 0");
    assertOneReadableLine(run(withStore("retrieve", "--embedding", "[1,0,0,0]", "--preset", "magic")), MemLoopCli.USAGE, "unknown preset 'magic'");
    assertOneReadableLine(run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--outcome", "meh")), MemLoopCli.USAGE, "--outcome");
    assertOneReadableLine(run(withStore("frobnicate")), MemLoopCli.USAGE, "Unmatched argument");
    assertOneReadableLine(run(withStore("remember", "--embedding", "[1,0,0,0]")), MemLoopCli.USAGE, "--experience");

    assertThat(run(withStore("stats", "--json")).out()).isEqualTo(before);
    assertThat(listing()).isEqualTo(storeFiles);
  }

  @Test
  void forget_deletesTheMemory_andUnknownIdIsNotFound() {
    String id = run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--json")).json().get("id").asText();
    Result forgot = run(withStore("forget", "--memory", id));
    assertThat(forgot.code()).as(forgot.err()).isZero();
    assertThat(run(withStore("retrieve", "--embedding", "[1,0,0,0]", "--json")).json().get("candidates")).isEmpty();
    assertOneReadableLine(run(withStore("forget", "--memory", id)), MemLoopCli.NOT_FOUND, "no memory '" + id + "'");
  }

  @Test
  void rewardTwice_isAConflict() {
    run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x"));
    String id = run(withStore("retrieve", "--embedding", "[1,0,0,0]", "--json")).json().get("retrievalId").asText();
    assertThat(run(withStore("reward", "--retrieval", id, "--reward", "1")).code()).isZero();
    assertOneReadableLine(run(withStore("reward", "--retrieval", id, "--reward", "1")), MemLoopCli.CONFLICT, "already rewarded");
  }

  @Test
  void rewardUsed_creditsASelectedMemory_andAnUnselectedOneIsABadArgument_thatChangesNothing() {
    String m = run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x", "--json")).json().get("id").asText();
    String id = run(withStore("retrieve", "--embedding", "[1,0,0,0]", "--json")).json().get("retrievalId").asText();
    assertOneReadableLine(run(withStore("reward", "--retrieval", id, "--reward", "1", "--used", "m999")), MemLoopCli.USAGE,
        "--used: 'm999' was not selected by retrieval");
    assertOneReadableLine(run(withStore("reward", "--retrieval", id, "--reward", "1", "--used", "../etc")), MemLoopCli.USAGE,
        "--used");
    Result ok = run(withStore("reward", "--retrieval", id, "--reward", "1", "--used", m, "--json"));
    assertThat(ok.code()).as(ok.err()).isZero();
    assertThat(ok.json().get("updated")).hasSize(1);
  }

  @Test
  void corruptStore_isOneLineAndExit5() throws IOException {
    run(withStore("remember", "--embedding", "[1,0,0,0]", "--experience", "x"));
    try (Stream<Path> files = Files.list(dir.resolve("store"))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().startsWith("write.lock")) {
          Files.write(f, new byte[] {'g', 'a', 'r', 'b', 'a', 'g', 'e', '!', 0, 1, 2, 3, 4, 5, 6, 7});
        }
      }
    }
    assertOneReadableLine(run(withStore("stats")), MemLoopCli.STORE, "");
  }

  @Test
  void replay_isDeterministic_andReportsPoolSelectionAndUpdates() throws IOException {
    Path input = dir.resolve("episodes.jsonl");
    StringBuilder sb = new StringBuilder();
    java.util.SplittableRandom rnd = new java.util.SplittableRandom(5);
    for (int i = 0; i < 40; i++) {
      int task = rnd.nextInt(5);
      sb.append("{\"intent\":\"task ").append(task).append("\",\"embedding\":[")
          .append(task == 0 ? 1 : 0.2).append(',').append(task).append(",1,").append(rnd.nextDouble() * 0.05)
          .append("],\"success\":").append(rnd.nextBoolean()).append(",\"experience\":\"did ").append(i).append("\"}\n");
    }
    Files.writeString(input, sb.toString());
    Result first = run("replay", "--input", input.toString(), "--preset", "memrl", "--embedder", "none");
    Result second = run("replay", "--input", input.toString(), "--preset", "memrl", "--embedder", "none");
    assertThat(first.code()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo(second.out());
    List<JsonNode> rows = first.out().lines().map(l -> {
      try {
        return Json.MAPPER.readTree(l);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }).toList();
    assertThat(rows).hasSize(40);
    assertThat(rows.get(0).get("candidates")).isEmpty();
    JsonNode later = rows.get(39);
    assertThat(later.get("candidates").size()).isGreaterThan(0);
    assertThat(later.get("selected").size()).isEqualTo(later.get("updated").size());
    for (JsonNode u : later.get("updated")) {
      double before = u.get("qBefore").asDouble();
      double expected = before + 0.3 * (later.get("reward").asDouble() - before);
      assertThat(u.get("qAfter").asDouble()).isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-12));
    }
  }

  @Test
  void replay_withBadLine_namesLineAndField_andWritesNothing() throws IOException {
    Path input = dir.resolve("bad.jsonl");
    Files.writeString(input, "{\"embedding\":[1,0],\"success\":true,\"experience\":\"a\"}\n"
        + "{\"embedding\":[1,0],\"reward\":\"high\",\"experience\":\"b\"}\n");
    Result r = run("replay", "--input", input.toString(), "--embedder", "none");
    assertOneReadableLine(r, MemLoopCli.USAGE, "--input: line 2: reward: must be a finite number");
    assertThat(r.out()).isEmpty();
    Files.writeString(input, "{\"embedding\":[1,0],\"success\":true,\"experience\":\"a\", \"colour\": 1}\n");
    assertOneReadableLine(run("replay", "--input", input.toString(), "--embedder", "none"), MemLoopCli.USAGE, "colour: unknown field");
    Files.writeString(input, "{not json\n");
    assertOneReadableLine(run("replay", "--input", input.toString(), "--embedder", "none"), MemLoopCli.USAGE, "--input: line 1: not valid JSON");
    assertOneReadableLine(run(withStore("replay", "--input", input.toString(), "--persist", "--in-memory")), MemLoopCli.USAGE,
        "--in-memory: cannot be combined with --persist");
  }

  /**
   * The store's logical content: every memory with its utility, and the counts. (Files are not
   * compared byte for byte: every open logs an "opened" marker and every clean close writes a
   * snapshot, which is the store's crash-safety housekeeping, not a change of content.)
   */
  private String listing() {
    try (var store = io.memloop.store.lucene.LuceneStore.open(dir.resolve("store"))) {
      List<String> rows = new ArrayList<>();
      for (String ns : store.namespaces()) {
        rows.add(ns + " " + store.counts(ns, java.time.Instant.EPOCH));
        store.forEachMemory(ns, m -> rows.add(m.toString() + " " + m.experience() + " " + m.updatedAt()));
      }
      return rows.toString();
    }
  }

}
