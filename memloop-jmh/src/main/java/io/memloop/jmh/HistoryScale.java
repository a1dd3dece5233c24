package io.memloop.jmh;

import io.memloop.Candidate;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.OfflineSelection;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.UtilityChange;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.history.EventLogImport;
import io.memloop.history.JsonlEventLog;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.history.RlExport;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Execution-history throughput at scale: writes a synthetic event log of {@code decisions} retrievals with
 * their rewards (pools of 6 of 50,000 memories, ε-greedy logging, ε = 0.1) and {@code memories} remembered
 * episodes (retrieve showing the previous episode's memory, reward, remember with the retrieval's id, 5,000
 * distinct tasks); then times {@code evaluate} (2 candidates) over the decisions, {@code import} of the episodes'
 * memories into a new LuceneStore (hashing embedder), {@code export} of their rollouts, and {@code import
 * --format otlp} of as many agent runs written as OpenTelemetry GenAI traces (an agent span, two tool spans, an
 * evaluation; one export request per line).
 *
 * <pre>java -cp memloop-jmh/target/benchmarks.jar io.memloop.jmh.HistoryScale DIR 1000000 100000</pre>
 */
public final class HistoryScale {
  private HistoryScale() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    int decisions = Integer.parseInt(args[1]);
    int memories = Integer.parseInt(args[2]);
    Stores.delete(dir);
    Path decisionLog = dir.resolve("decisions");
    Path memoryLog = dir.resolve("memories");
    MemLoopConfig logging = MemLoopConfig.preset(Preset.MEMRL).toBuilder().set("lambda", "0")
        .set("exploration", "EPSILON_GREEDY").set("epsilon", "0.1").build();
    SplittableRandom random = new SplittableRandom(42);
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    long start = System.nanoTime();
    try (JsonlEventLog log = new JsonlEventLog(decisionLog)) {
      log.configured("w", t, logging);
      for (int d = 0; d < decisions; d++) {
        List<Candidate> pool = new ArrayList<>(6);
        Set<String> ids = new HashSet<>();
        while (pool.size() < 6) {
          String id = "m" + (1 + random.nextInt(50_000));
          if (ids.add(id)) {
            pool.add(new Candidate(id, 0.5 + 0.5 * random.nextDouble(), random.nextGaussian(), 0, false, 0));
          }
        }
        List<String> greedy = OfflineSelection.select(pool, logging);
        Set<String> slate = new HashSet<>(greedy);
        if (random.nextDouble() < 0.1) {
          slate.clear();
          while (slate.size() < 3) {
            slate.add(pool.get(random.nextInt(6)).memoryId());
          }
        }
        List<Candidate> logged = new ArrayList<>(6);
        for (Candidate c : pool) {
          logged.add(new Candidate(c.memoryId(), c.similarity(), c.q(), 0, slate.contains(c.memoryId()),
              0.9 * (greedy.contains(c.memoryId()) ? 1 : 0) + 0.1 * 0.5));
        }
        String rid = "r" + d;
        log.retrieved("w", t, Intent.ofText("task"), new float[] {1}, new Retrieval(rid, "w", logged, List.of()));
        log.rewarded("w", t, new RewardResult(rid, random.nextBoolean() ? 1 : -1, List.of()), null);
      }
    }
    double writeS = (System.nanoTime() - start) / 1e9;
    try (JsonlEventLog log = new JsonlEventLog(memoryLog)) {
      log.configured("w", t, MemLoopConfig.preset(Preset.MEMRL));
      for (int m = 0; m < memories; m++) {
        // an episode: retrieve (showing the previous episode's memory), reward it, remember this one's experience
        String id = "m" + (m + 1);
        String previous = "m" + m;
        String rid = "r" + m;
        String task = "task number " + (m % 5_000) + " of kind " + (m % 5_000 % 97);
        boolean first = m == 0;
        List<Candidate> pool = first ? List.of() : List.of(new Candidate(previous, 0.9, 0, 0.9, true, 1));
        List<Memory> shown = first ? List.of() : List.of(memory(previous, m - 1, t));
        log.retrieved("w", t, Intent.ofText(task), new float[] {1}, new Retrieval(rid, "w", pool, shown));
        int reward = random.nextBoolean() ? 1 : -1;
        log.rewarded("w", t, new RewardResult(rid, reward,
            first ? List.of() : List.of(new UtilityChange(previous, 0, 0.3 * reward, 1))), null);
        log.remembered("w", t, memory(id, m, t), false, rid);
      }
    }
    Path traces = dir.resolve("traces");
    Files.createDirectories(traces);
    try (var out = Files.newBufferedWriter(traces.resolve("traces.jsonl"))) {
      for (int m = 0; m < memories; m++) {
        out.write(otlpRun(m));
        out.write('\n');
      }
    }
    start = System.nanoTime();
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(decisionLog, Map.of(
        "memrl", MemLoopConfig.preset(Preset.MEMRL), "greedy-similarity", MemLoopConfig.preset(Preset.SIMILARITY)), logging);
    double evalS = (System.nanoTime() - start) / 1e9;
    start = System.nanoTime();
    EventLogImport.Result imported;
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(dir.resolve("store"), HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).build()) {
      imported = EventLogImport.run(memoryLog, true, loop);
    }
    double importS = (System.nanoTime() - start) / 1e9;
    start = System.nanoTime();
    RlExport.Result exported = RlExport.run(memoryLog, RlExport.Format.ROLLOUTS, dir.resolve("rollouts.jsonl"), true,
        MemLoopConfig.preset(Preset.MEMRL));
    double exportS = (System.nanoTime() - start) / 1e9;
    start = System.nanoTime();
    EventLogImport.Result traced;
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(dir.resolve("traced"), HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).build()) {
      traced = EventLogImport.runOtlp(traces, true, loop, "w");
    }
    double tracesS = (System.nanoTime() - start) / 1e9;
    System.out.printf(Locale.ROOT, "log: %,d decisions written in %.1f s (%,.0f events/s), %s%n", decisions, writeS,
        2.0 * decisions / writeS, size(decisionLog));
    System.out.printf(Locale.ROOT, "evaluate: %,d decisions x 2 candidates in %.1f s (%,.0f decisions/s); ESS %s%n",
        r.decisions(), evalS, r.decisions() / evalS, r.reports().stream().map(x -> String.format(Locale.ROOT, "%.0f", x.effectiveSampleSize())).toList());
    System.out.printf(Locale.ROOT, "import: %,d memories (+%,d rewards) into a LuceneStore in %.1f s (%,.0f memories/s), log %s%n",
        imported.memories(), imported.rewardsReplayed(), importS, imported.memories() / importS, size(memoryLog));
    System.out.printf(Locale.ROOT, "export: %,d rollouts in %,d groups in %.1f s (%,.0f rollouts/s), %.0f MB%n",
        exported.records(), exported.groups(), exportS, exported.records() / exportS,
        Files.size(dir.resolve("rollouts.jsonl")) / 1e6);
    System.out.printf(Locale.ROOT, "import --format otlp: %,d agent runs into a LuceneStore in %.1f s (%,.0f runs/s), %s%n",
        traced.memories(), tracesS, traced.memories() / tracesS, size(traces));
  }

  private static Memory memory(String id, int m, Instant t) {
    return new Memory(id, "w", "i" + (m % 5_000), "task number " + (m % 5_000) + " of kind " + (m % 5_000 % 97), new float[] {1},
        "did step " + m, Outcome.SUCCESS, 0, 0, t, t);
  }

  /** One agent run as an OTLP JSON export request: an invoke_agent span, two tool calls, an evaluation. */
  private static String otlpRun(int m) {
    String trace = String.format(Locale.ROOT, "%032x", m + 1L);
    String run = String.format(Locale.ROOT, "%016x", 3L * m + 1);
    long start = 1_795_435_200_000_000_000L + m * 1_000_000_000L;
    String user = "[{\\\"role\\\":\\\"user\\\",\\\"parts\\\":[{\\\"type\\\":\\\"text\\\",\\\"content\\\":"
        + "\\\"task number " + (m % 5_000) + " of kind " + (m % 5_000 % 97) + "\\\"}]}]";
    StringBuilder b = new StringBuilder("{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[");
    b.append(span(trace, run, "", start, "invoke_agent", "{\"key\":\"gen_ai.input.messages\",\"value\":{\"stringValue\":\""
        + user + "\"}}", m % 3 == 0 ? "pass" : "fail"));
    for (int k = 1; k <= 2; k++) {
      b.append(',').append(span(trace, String.format(Locale.ROOT, "%016x", 3L * m + 1 + k), run, start + k, "execute_tool",
          "{\"key\":\"gen_ai.tool.name\",\"value\":{\"stringValue\":\"step" + k + "\"}},"
              + "{\"key\":\"gen_ai.tool.call.arguments\",\"value\":{\"stringValue\":\"arg " + m + "\"}},"
              + "{\"key\":\"gen_ai.tool.call.result\",\"value\":{\"stringValue\":\"ok\"}}", null));
    }
    return b.append("]}]}]}").toString();
  }

  private static String span(String trace, String id, String parent, long start, String op, String attrs, String label) {
    String events = label == null ? "" : ",\"events\":[{\"name\":\"gen_ai.evaluation.result\",\"attributes\":["
        + "{\"key\":\"gen_ai.evaluation.name\",\"value\":{\"stringValue\":\"task\"}},"
        + "{\"key\":\"gen_ai.evaluation.score.label\",\"value\":{\"stringValue\":\"" + label + "\"}}]}]";
    return "{\"traceId\":\"" + trace + "\",\"spanId\":\"" + id + "\",\"parentSpanId\":\"" + parent + "\",\"name\":\""
        + op + "\",\"startTimeUnixNano\":\"" + start + "\",\"attributes\":[{\"key\":\"gen_ai.operation.name\","
        + "\"value\":{\"stringValue\":\"" + op + "\"}}," + attrs + "]" + events + "}";
  }

  private static String size(Path dir) throws Exception {
    try (Stream<Path> f = Files.list(dir)) {
      long b = f.mapToLong(p -> p.toFile().length()).sum();
      return String.format(Locale.ROOT, "%.0f MB", b / 1e6);
    }
  }
}
