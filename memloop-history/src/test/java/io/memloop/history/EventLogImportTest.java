package io.memloop.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.store.InMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EventLogImportTest {
  @TempDir Path dir;

  private static MemLoop engine(JsonlEventLog log, MemLoopConfig config) {
    MemLoop.Builder b = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION)).embedder(new HashingEmbedder());
    if (config != null) {
      b.config(config);
    }
    if (log != null) {
      b.events(log);
    }
    return b.build();
  }

  /** memrl with a discount, so that TD rewards move utilities towards targets other than their rewards. */
  private static final MemLoopConfig CONFIG = MemLoopConfig.preset(Preset.MEMRL).toBuilder().gamma(0.7).build();

  /** Runs a seeded agent history into an event log; returns the final (experience -> q/visits) of the source store. */
  private Map<String, String> history(Path logDir) {
    Map<String, String> finals = new TreeMap<>();
    try (MemLoop loop = engine(new JsonlEventLog(logDir), CONFIG)) {
      SplittableRandom random = new SplittableRandom(5);
      Memory doomed = loop.remember("ops", Intent.ofText("task doomed"), "to be forgotten", Outcome.FAILURE);
      String previous = null;
      Memory edited = null;
      for (int i = 0; i < 60; i++) {
        String task = "task " + random.nextInt(6);
        Retrieval r = loop.retrieve("ops", Intent.ofText(task));
        // every other reward is a Bellman/TD one, naming another retrieval as the next step: the log keeps its target
        loop.reward("ops", r.id(), random.nextBoolean() ? 1 : -1, null, i % 2 == 1 ? previous : null);
        previous = r.id();
        Memory m = loop.remember("ops", Intent.ofText(task), "attempt " + i, random.nextBoolean() ? Outcome.SUCCESS : Outcome.FAILURE);
        if (i == 10) {
          edited = m;
        }
      }
      // an edit: the import stores the edited text (with the utility the memory learned before and after it)
      loop.edit("ops", edited.id(), "attempt 10, corrected by hand");
      loop.forget("ops", doomed.id());
      loop.store().forEachMemory("ops", m -> finals.put(m.experience(), m.q() + "/" + m.visits() + "/" + m.intentText()));
    }
    return finals;
  }

  @Test
  void aStoreImportedFromTheLogHoldsTheSameMemoriesWithTheUtilitiesLearnedFromTheLoggedRewards() {
    Map<String, String> source = history(dir.resolve("log"));
    try (MemLoop target = engine(null, null)) {
      EventLogImport.Result r = EventLogImport.run(dir.resolve("log"), true, target);
      assertThat(r.skipped()).isEmpty();
      assertThat(r.memories()).isEqualTo(source.size());
      assertThat(r.forgotten()).isEqualTo(1);
      assertThat(r.rewardsReplayed()).isPositive();
      Map<String, String> imported = new TreeMap<>();
      target.store().forEachMemory("ops", m -> imported.put(m.experience(), m.q() + "/" + m.visits() + "/" + m.intentText()));
      assertThat(imported).isEqualTo(source);
      assertThat(target.recordedConfig("ops").orElseThrow()).isEqualTo(CONFIG);
    }
  }

  @Test
  void malformedLinesAreSkippedWithTheirLineAndReasonOrRefuseAStrictImport() throws IOException {
    history(dir.resolve("log"));
    Path file;
    try (var files = Files.list(dir.resolve("log"))) {
      file = files.findFirst().orElseThrow();
    }
    int lines = Files.readAllLines(file).size() + 1; // the first appended line's number
    Files.writeString(file, String.join("\n", List.of(
        "{not json",
        "{\"v\":2,\"type\":\"remember\",\"ns\":\"ops\",\"at\":\"2026-01-01T00:00:00Z\"}",
        "{\"v\":1,\"type\":\"remember\",\"ns\":\"ops\",\"at\":\"2026-01-01T00:00:00Z\",\"memoryId\":\"m9999\",\"intent\":\"x\",\"experience\":\"y\",\"outcome\":\"great\",\"q\":0}",
        "{\"v\":1,\"type\":\"teleport\",\"ns\":\"ops\",\"at\":\"2026-01-01T00:00:00Z\"}",
        "{\"v\":1,\"type\":\"reward\",\"ns\":\"ops\",\"at\":\"2026-01-01T00:00:00Z\",\"reward\":\"high\",\"updated\":[]}",
        "")), StandardOpenOption.APPEND);
    try (MemLoop strict = engine(null, null)) {
      assertThatThrownBy(() -> EventLogImport.run(dir.resolve("log"), true, strict))
          .isInstanceOf(MemLoopException.class).hasMessageContaining("--input").hasMessageContaining("5 malformed")
          .hasMessageContaining(":" + lines + ": not valid JSON");
      assertThat(strict.store().namespaces()).isEmpty();
    }
    try (MemLoop lenient = engine(null, null)) {
      EventLogImport.Result r = EventLogImport.run(dir.resolve("log"), false, lenient);
      assertThat(r.skipped()).extracting(EventLogImport.Skipped::line)
          .containsExactly(lines, lines + 1, lines + 2, lines + 3, lines + 4);
      assertThat(r.skipped()).extracting(EventLogImport.Skipped::reason).anySatisfy(s -> assertThat(s).startsWith("v: version 2"))
          .anySatisfy(s -> assertThat(s).startsWith("outcome:")).anySatisfy(s -> assertThat(s).startsWith("type:"))
          .anySatisfy(s -> assertThat(s).startsWith("reward:"));
      assertThat(lenient.stats("ops").memories()).isEqualTo(r.memories()).isPositive();
    }
  }

  @Test
  void agentTracesBecomeMemoriesWithTheirOutcomesInitialUtility() throws Exception {
    Path fixture = Path.of(java.util.Objects.requireNonNull(getClass().getResource("/otlp/agent-run.json")).toURI());
    MemLoopConfig config = MemLoopConfig.preset(Preset.MEMRL).toBuilder().set("qInitSuccess", "0.4").build();
    try (MemLoop loop = engine(null, config)) {
      EventLogImport.Result r = EventLogImport.runOtlp(fixture, true, loop, "weather");
      assertThat(r.memories()).isEqualTo(1);
      assertThat(r.skipped()).isEmpty();
      List<Memory> all = new java.util.ArrayList<>();
      loop.store().forEachMemory("weather", all::add);
      assertThat(all).singleElement().satisfies(m -> {
        assertThat(m.intentText()).isEqualTo("What is the weather in Paris right now?");
        assertThat(m.experience()).startsWith("tool get_weather(").endsWith("answer: It is 18\u00b0C and sunny in Paris (14:05).");
        assertThat(m.outcome()).isEqualTo(Outcome.SUCCESS);
        assertThat(m.q()).isEqualTo(0.4);
      });
    }
    Path broken = dir.resolve("broken.jsonl");
    Files.writeString(broken, Files.readString(fixture).replace("\n", " ") + "\n{not json\n");
    try (MemLoop loop = engine(null, null)) {
      assertThatThrownBy(() -> EventLogImport.runOtlp(broken, true, loop, "weather"))
          .isInstanceOf(MemLoopException.class).hasMessageContaining("--strict");
      assertThat(loop.stats("weather").memories()).isZero();
      EventLogImport.Result lenient = EventLogImport.runOtlp(broken, false, loop, "weather");
      assertThat(lenient.memories()).isEqualTo(1);
      assertThat(lenient.skipped()).singleElement().satisfies(sk -> assertThat(sk.line()).isEqualTo(2));
    }
    Path none = dir.resolve("none.jsonl");
    Files.writeString(none, "{\"resourceSpans\":[]}\n");
    try (MemLoop loop = engine(null, null)) {
      assertThatThrownBy(() -> EventLogImport.runOtlp(none, false, loop, "weather"))
          .isInstanceOf(MemLoopException.class).hasMessageContaining("no agent run");
    }
  }

  // ------------------------------------------------------------ issue 23 item 13: the new history is complete

  private static Map<String, String> byId(MemLoop loop, String ns) {
    Map<String, String> out = new TreeMap<>();
    loop.store().forEachMemory(ns, m -> out.put(m.id(), m.experience()));
    return out;
  }

  private static Map<String, String> rememberedById(List<com.fasterxml.jackson.databind.JsonNode> events) {
    Map<String, String> out = new TreeMap<>();
    events.stream().filter(e -> e.get("type").asText().equals("remember"))
        .forEach(e -> out.put(e.get("memoryId").asText(), e.get("experience").asText()));
    return out;
  }

  @Test
  void anImportIntoAProcessWithAnEventLogLogsARememberPerImportedMemory() throws IOException {
    history(dir.resolve("log"));
    EventLogImport.Result r;
    Map<String, String> stored;
    Map<String, String> utilities = new TreeMap<>();
    try (MemLoop target = engine(new JsonlEventLog(dir.resolve("new")), null)) {
      r = EventLogImport.run(dir.resolve("log"), true, target);
      stored = byId(target, "ops");
      target.store().forEachMemory("ops", m -> utilities.put(m.experience(), m.q() + "/" + m.intentText()));
    }
    List<com.fasterxml.jackson.databind.JsonNode> events = JsonlEventLogTest.read(dir.resolve("new"));
    assertThat(events.getFirst().get("type").asText()).isEqualTo("config");
    assertThat(events).filteredOn(e -> e.get("type").asText().equals("remember")).hasSize(r.memories())
        .allSatisfy(e -> {
          assertThat(e.get("duplicate").asBoolean()).isFalse();
          assertThat(e.has("retrievalId")).isFalse();
        });
    assertThat(rememberedById(events)).isEqualTo(stored).hasSize(r.memories());
    // the new history is enough to rebuild the store: the same memories, with the utilities the import gave them
    try (MemLoop again = engine(null, null)) {
      EventLogImport.Result r2 = EventLogImport.run(dir.resolve("new"), true, again);
      assertThat(r2.memories()).isEqualTo(r.memories());
      Map<String, String> rebuilt = new TreeMap<>();
      again.store().forEachMemory("ops", m -> rebuilt.put(m.experience(), m.q() + "/" + m.intentText()));
      assertThat(rebuilt).isEqualTo(utilities);
      assertThat(again.recordedConfig("ops").orElseThrow()).isEqualTo(CONFIG);
    }
  }

  @Test
  void anOtlpImportIntoAProcessWithAnEventLogLogsARememberPerRun() throws Exception {
    Path fixture = Path.of(java.util.Objects.requireNonNull(getClass().getResource("/otlp/agent-run.json")).toURI());
    Map<String, String> stored;
    try (MemLoop loop = engine(new JsonlEventLog(dir.resolve("new")), null)) {
      assertThat(EventLogImport.runOtlp(fixture, true, loop, "weather").memories()).isEqualTo(1);
      stored = byId(loop, "weather");
    }
    List<com.fasterxml.jackson.databind.JsonNode> events = JsonlEventLogTest.read(dir.resolve("new"));
    assertThat(events).extracting(e -> e.get("type").asText()).containsExactly("config", "remember");
    assertThat(events.get(1).get("intent").asText()).isEqualTo("What is the weather in Paris right now?");
    assertThat(events.get(1).get("outcome").asText()).isEqualTo("success");
    assertThat(rememberedById(events)).isEqualTo(stored);
  }

  @Test
  void aRememberLineWhoseIntentIsOverTheBoundIsSkippedAndCountedByItsReason() throws IOException {
    Path log = dir.resolve("log");
    try (MemLoop loop = engine(new JsonlEventLog(log), null)) {
      loop.remember("ops", Intent.ofText("short task"), "did it", Outcome.SUCCESS);
    }
    Path file;
    try (var files = Files.list(log)) {
      file = files.findFirst().orElseThrow();
    }
    com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
    var remember = (com.fasterxml.jackson.databind.node.ObjectNode) JsonlEventLogTest.read(log).get(1);
    String atBound = "b".repeat(io.memloop.Checks.MAX_INTENT_CHARS);
    String over = "o".repeat(io.memloop.Checks.MAX_INTENT_CHARS + 1);
    Files.writeString(file, json.writeValueAsString(remember.deepCopy().put("seq", 3).put("memoryId", "m8")
        .put("intent", atBound).put("experience", "at the bound")) + "\n"
        + json.writeValueAsString(remember.deepCopy().put("seq", 4).put("memoryId", "m9")
        .put("intent", over).put("experience", "over the bound")) + "\n", StandardOpenOption.APPEND);

    try (MemLoop target = engine(null, null)) {
      assertThatThrownBy(() -> EventLogImport.run(log, true, target)).isInstanceOf(MemLoopException.class)
          .hasMessageContaining("--strict").hasMessageContaining("1 line(s) whose intent is over the limit of 8192 characters");
      EventLogImport.Result r = EventLogImport.run(log, false, target);
      assertThat(r.memories()).isEqualTo(2);
      assertThat(r.skipped()).singleElement().isEqualTo(new EventLogImport.Skipped(file.getFileName().toString(), 4,
          "intent: is 8193 characters, over the limit of 8192", EventLogImport.Skipped.Kind.INTENT_TOO_LONG));
      assertThat(r.skippedByKind()).containsExactly(Map.entry(EventLogImport.Skipped.Kind.MALFORMED, 0),
          Map.entry(EventLogImport.Skipped.Kind.INTENT_TOO_LONG, 1));
      assertThat(byId(target, "ops").values()).containsExactlyInAnyOrder("did it", "at the bound");
    }
  }
}
