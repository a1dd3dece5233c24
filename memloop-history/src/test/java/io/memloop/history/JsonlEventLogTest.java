package io.memloop.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Retrieval;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.store.InMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonlEventLogTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  @TempDir Path dir;

  private MemLoop engine(JsonlEventLog log) {
    return MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION)).embedder(new HashingEmbedder())
        .events(log).build();
  }

  static List<JsonNode> read(Path dir) throws IOException {
    List<JsonNode> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).sorted().toList()) {
        for (String line : Files.readAllLines(f)) {
          out.add(MAPPER.readTree(line));
        }
      }
    }
    return out;
  }

  @Test
  void everyOperationIsOneVersionedLineWithWhatOffPolicyEvaluationNeeds() throws IOException {
    Memory m;
    try (MemLoop loop = engine(new JsonlEventLog(dir))) {
      m = loop.remember("team-a", Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS);
      loop.remember("team-a", Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS); // duplicate
      Retrieval r = loop.retrieve("team-a", Intent.ofText("restart nginx please"));
      loop.reward("team-a", r.id(), 1, List.of(m.id()));
      loop.forget("team-a", m.id());
    }
    List<JsonNode> events = read(dir);
    assertThat(events).extracting(e -> e.get("type").asText())
        .containsExactly("config", "remember", "remember", "retrieval", "reward", "forget");
    assertThat(events).allSatisfy(e -> {
      assertThat(e.get("v").asInt()).isEqualTo(JsonlEventLog.VERSION);
      assertThat(e.get("ns").asText()).isEqualTo("team-a");
      assertThat(e.get("at").asText()).isNotBlank();
    });
    assertThat(events).extracting(e -> e.get("seq").asLong()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
    assertThat(events.get(0).at("/knobs/k2").asText()).isEqualTo("3");
    assertThat(events.get(1).get("duplicate").asBoolean()).isFalse();
    assertThat(events.get(2).get("duplicate").asBoolean()).isTrue();
    JsonNode retrieval = events.get(3);
    assertThat(retrieval.get("intent").asText()).isEqualTo("restart nginx please");
    JsonNode c = retrieval.get("candidates").get(0);
    assertThat(c.get("id").asText()).isEqualTo(m.id());
    assertThat(c.get("selected").asBoolean()).isTrue();
    assertThat(c.get("probability").asDouble()).isBetween(0.0, 1.0);
    assertThat(c.has("similarity") && c.has("q") && c.has("score")).isTrue();
    assertThat(retrieval.has("embedding")).isFalse();
    JsonNode reward = events.get(4);
    assertThat(reward.get("retrievalId").asText()).isEqualTo(retrieval.get("retrievalId").asText());
    assertThat(reward.get("usedMemoryIds").get(0).asText()).isEqualTo(m.id());
    assertThat(reward.at("/updated/0/qAfter").asDouble()).isGreaterThan(reward.at("/updated/0/qBefore").asDouble());
    assertThat(events.get(5).get("memoryId").asText()).isEqualTo(m.id());
  }

  @Test
  void filesRotateAndConcurrentCallersLoseNoEvent() throws Exception {
    JsonlEventLog log = new JsonlEventLog(dir, 4096, true);
    try (MemLoop loop = engine(log)) {
      try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
        List<Future<?>> jobs = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          int thread = t;
          jobs.add(pool.submit(() -> {
            for (int i = 0; i < 25; i++) {
              loop.remember("ns", Intent.ofText("task " + thread), "step " + thread + "." + i, Outcome.SUCCESS);
              Retrieval r = loop.retrieve("ns", Intent.ofText("task " + thread));
              loop.reward("ns", r.id(), -1);
            }
            return null;
          }));
        }
        for (Future<?> j : jobs) {
          j.get();
        }
      }
    }
    try (Stream<Path> files = Files.list(dir)) {
      assertThat(files.count()).isGreaterThan(10);
    }
    List<JsonNode> events = read(dir);
    assertThat(events).hasSize(1 + 8 * 25 * 3);
    Set<Long> seqs = new HashSet<>();
    events.forEach(e -> seqs.add(e.get("seq").asLong()));
    assertThat(seqs).hasSize(events.size());
    assertThat(events).filteredOn(e -> e.get("type").asText().equals("retrieval"))
        .allSatisfy(e -> assertThat(e.get("embedding")).hasSize(HashingEmbedder.DEFAULT_DIMENSION));
  }

  @Test
  void aClosedLogRefusesInsteadOfDroppingEvents() {
    JsonlEventLog log = new JsonlEventLog(dir);
    log.close();
    assertThatThrownBy(() -> log.forgot("ns", java.time.Instant.EPOCH, "m1"))
        .isInstanceOf(MemLoopException.class).hasMessageStartingWith("eventLog:");
    assertThatThrownBy(() -> new JsonlEventLog(dir, 10, false)).hasMessageContaining("eventLog");
  }

  @Test
  void aProcessWhoseFirstEventIsAForgetLogsTheNamespaceConfigurationFirst() throws IOException {
    InMemoryStore store = new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION);
    // another process (no event log) remembered it; this one only forgets
    Memory m = MemLoop.builder().store(store).embedder(new HashingEmbedder()).build()
        .remember("team-a", Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS);
    try (MemLoop loop = MemLoop.builder().store(store).embedder(new HashingEmbedder()).events(new JsonlEventLog(dir)).build()) {
      loop.forget("team-a", m.id());
    }
    List<JsonNode> events = read(dir);
    assertThat(events).extracting(e -> e.get("type").asText()).containsExactly("config", "forget");
    assertThat(events.get(0).get("ns").asText()).isEqualTo("team-a");
    assertThat(events.get(0).get("knobs").isObject()).isTrue();
    assertThat(events.get(1).get("memoryId").asText()).isEqualTo(m.id());
  }

  @Test
  void anEditIsOneDurableLineWithTheMemoryAndItsNewText_afterTheNamespaceConfiguration() throws IOException {
    InMemoryStore store = new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION);
    Memory m = MemLoop.builder().store(store).embedder(new HashingEmbedder()).build()
        .remember("team-a", Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS);
    try (MemLoop loop = MemLoop.builder().store(store).embedder(new HashingEmbedder()).events(new JsonlEventLog(dir)).build()) {
      loop.edit("team-a", m.id(), "systemctl reload nginx (no downtime)");
    }
    List<JsonNode> events = read(dir);
    assertThat(events).extracting(e -> e.get("type").asText()).containsExactly("config", "edit");
    assertThat(events.get(1).get("memoryId").asText()).isEqualTo(m.id());
    assertThat(events.get(1).get("experience").asText()).isEqualTo("systemctl reload nginx (no downtime)");
  }

  @Test
  void theConfigurationSaysHowManyEmbeddingModelsTheVectorsConcatenate_onlyWhenMoreThanOne() throws IOException {
    Path two = dir.resolve("two");
    Path one = dir.resolve("one");
    io.memloop.embeddings.ConcatenatedEmbedder both = new io.memloop.embeddings.ConcatenatedEmbedder(
        List.of(new HashingEmbedder(64), new HashingEmbedder(64)));
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(both.dimension())).embedder(both)
        .events(new JsonlEventLog(two)).build()) {
      loop.remember("team-a", Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS);
    }
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).events(new JsonlEventLog(one)).build()) {
      loop.remember("team-a", Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS);
    }
    JsonNode config = read(two).getFirst();
    assertThat(config.get("type").asText()).isEqualTo("config");
    assertThat(config.get("embedderBlocks").asInt()).isEqualTo(2);
    assertThat(read(one).getFirst().has("embedderBlocks")).isFalse();
  }
}
