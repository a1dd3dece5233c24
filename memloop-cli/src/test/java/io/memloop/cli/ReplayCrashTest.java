package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.memloop.Memory;
import io.memloop.store.StoreCounts;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.server.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/replay.md ("Crashes and resuming") says a crash of {@code replay --persist} leaves, checked on a replay in
 * its own process killed with SIGKILL part-way: the episodes listed in {@code --output} are in the store completely,
 * at most one more episode is (partly) applied, and nothing after it. The output is a named pipe, so the test sees
 * each line the moment the replay writes it and kills it after a fixed number of lines.
 */
class ReplayCrashTest {
  private static final int EPISODES = 3_000;
  private static final int KILL_AFTER_LINES = 150;

  @TempDir Path dir;

  @Test
  void killedPartWay_leavesTheListedEpisodesApplied_andAtMostOneMoreInPart() throws Exception {
    Path fifo = dir.resolve("out.fifo");
    int made;
    try {
      made = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor();
    } catch (IOException e) {
      made = -1;
    }
    Assumptions.assumeTrue(made == 0, "no mkfifo here");
    Path input = dir.resolve("episodes.jsonl");
    Random rnd = new Random(7);
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= EPISODES; i++) {
      StringBuilder v = new StringBuilder("[");
      for (int d = 0; d < 8; d++) {
        v.append(d == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%.4f", rnd.nextGaussian()));
      }
      lines.append("{\"embedding\": ").append(v).append("], \"success\": ").append(rnd.nextBoolean())
          .append(", \"experience\": \"episode ").append(i).append("\"}\n");
    }
    Files.writeString(input, lines);
    Path store = dir.resolve("store");
    String java = ProcessHandle.current().info().command().orElse("java");
    Process replay = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), MemLoopCli.class.getName(),
        "replay", "--persist", "--store", store.toString(), "--embedder", "none", "--preset", "memrl",
        "--input", input.toString(), "--output", fifo.toString())
        .redirectError(dir.resolve("replay.err").toFile()).redirectOutput(dir.resolve("replay.out").toFile()).start();
    List<String> listed = new ArrayList<>();
    try (ExecutorService reader = Executors.newSingleThreadExecutor()) {
      Future<?> reading = reader.submit(() -> {
        try (BufferedReader in = Files.newBufferedReader(fifo, StandardCharsets.UTF_8)) {
          for (String line; (line = in.readLine()) != null; ) {
            listed.add(line);
            if (listed.size() == KILL_AFTER_LINES) {
              replay.destroyForcibly(); // SIGKILL; the lines it wrote before dying are still read
            }
          }
        }
        return null;
      });
      reading.get(120, TimeUnit.SECONDS); // a guard against a replay that never opens its output, not a wait
    } finally {
      replay.destroyForcibly();
      replay.waitFor();
    }
    assertThat(listed.size()).as(Files.readString(dir.resolve("replay.err"))).isBetween(KILL_AFTER_LINES, EPISODES - 1);
    int l = listed.size();
    for (int i = 0; i < l; i++) { // whole lines only: a line is written once its episode is applied, then flushed
      String line = listed.get(i);
      assertThatCode(() -> Json.MAPPER.readTree(line)).as("line %d is whole: %s", i + 1, line).doesNotThrowAnyException();
      assertThat(Json.MAPPER.readTree(line).get("episode").asInt()).isEqualTo(i + 1);
    }

    Set<String> experiences = new HashSet<>();
    StoreCounts counts;
    try (LuceneStore s = LuceneStore.open(store)) {
      s.forEachMemory("default", (Memory m) -> experiences.add(m.experience()));
      counts = s.counts("default", Instant.EPOCH);
    }
    // Episodes 1..L listed are applied; L+1 may be applied (its line lost in the crash) or in part; none after it.
    for (int i = 1; i <= l; i++) {
      assertThat(experiences).as("episode %d was listed", i).contains("episode " + i);
    }
    for (int i = l + 2; i <= EPISODES; i++) {
      assertThat(experiences).as("episode %d came after the crash", i).doesNotContain("episode " + i);
    }
    assertThat(counts.pendingRetrievals()).as("the one episode in flight").isLessThanOrEqualTo(1);
  }
}
