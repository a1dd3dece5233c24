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
 * experiences with one reward each; then times {@code evaluate} (2 candidates) over the decisions and
 * {@code import} of the memories into a new LuceneStore (hashing embedder).
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
        String id = "m" + (m + 2);
        log.remembered("w", t, new Memory(id, "w", "i" + m, "task number " + m + " of kind " + (m % 97), new float[] {1},
            "did step " + m, Outcome.SUCCESS, 0, 0, t, t), false, "r" + m);
        log.rewarded("w", t, new RewardResult("r" + m, 1, List.of(new UtilityChange(id, 0, 0.3, 1))), null);
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
    System.out.printf(Locale.ROOT, "log: %,d decisions written in %.1f s (%,.0f events/s), %s%n", decisions, writeS,
        2.0 * decisions / writeS, size(decisionLog));
    System.out.printf(Locale.ROOT, "evaluate: %,d decisions x 2 candidates in %.1f s (%,.0f decisions/s); ESS %s%n",
        r.decisions(), evalS, r.decisions() / evalS, r.reports().stream().map(x -> String.format(Locale.ROOT, "%.0f", x.effectiveSampleSize())).toList());
    System.out.printf(Locale.ROOT, "import: %,d memories (+%,d rewards) into a LuceneStore in %.1f s (%,.0f memories/s), log %s%n",
        imported.memories(), imported.rewardsReplayed(), importS, imported.memories() / importS, size(memoryLog));
  }

  private static String size(Path dir) throws Exception {
    try (Stream<Path> f = Files.list(dir)) {
      long b = f.mapToLong(p -> p.toFile().length()).sum();
      return String.format(Locale.ROOT, "%.0f MB", b / 1e6);
    }
  }
}
