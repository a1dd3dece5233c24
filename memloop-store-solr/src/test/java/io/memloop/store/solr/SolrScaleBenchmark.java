package io.memloop.store.solr;

import io.memloop.Candidate;
import io.memloop.ClusteredVectors;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.store.IntentMatch;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import io.memloop.store.StoreCounts;
import io.memloop.store.UtilityUpdate;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.cloud.DocCollection;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.common.cloud.Slice;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * Scale benchmark of {@link SolrStore} on a real SolrCloud in this JVM ({@link SolrTestCluster}: two Solr nodes and an
 * embedded ZooKeeper), with one collection of 2 shards × 2 replicas, so that each node holds a replica of each shard
 * (which node leads which shard is Solr's choice; the report shows it, and the one shard that namespace {@code bench}
 * is routed to). At N memories of {@link ClusteredVectors} in that namespace it measures:
 *
 * <ol>
 *   <li><b>ingest</b>: {@link SolrStore#insertAll} in batches of 1,000 at the merge threshold (default 0.95; above 1 no search) (memories/s over all
 *       batches, latency per batch), then a hard commit and {@link SolrStore#counts};
 *   <li><b>kNN recall routed by tenant</b>: {@code recall("bench", query, 5, 0.0)}, 2,000 warm-up and 5,000 timed
 *       queries on one thread, then 5,000 more from {@code threads} concurrent callers (throughput, latency);
 *   <li><b>sustained rewards</b>: retrievals that select 3 distinct, uniformly drawn memories are saved beforehand,
 *       then {@link SolrStore#applyReward} runs from {@code threads} threads for {@code rewardSeconds} after a 3 s
 *       warm-up (rewards/s, memory utility updates/s, latency per reward). A sample of rewarded memories is then read
 *       back with {@link SolrStore#get}: each one's visits must equal the rewards applied to it and its Q the rule's
 *       value after that many rewards, so a lost update shows as a mismatch.
 * </ol>
 *
 * <p>An operation that throws is counted as an error of its phase (the first one's message goes into the report) and
 * the run goes on; latencies and throughputs count successful operations only. The report (JVM and heap, cluster
 * layout, a Markdown table and notes) goes to stdout, progress to stderr. The Solr nodes run in the measuring JVM:
 * they share its heap and CPUs with the client threads.
 *
 * <p>Run: {@code scripts/solr-bench [N [seed [threads [rewardSeconds [mergeThreshold]]]]]} (defaults 100000, 42, 8, 20, 0.95; JVM flags from
 * {@code MEMLOOP_JAVA_OPTS}, default {@code -Xmx6g}). Not a JUnit test.
 */
public final class SolrScaleBenchmark {
  private static final String NS = "bench";
  private static final String COLLECTION = "memloop_bench";
  /** The collection's layout; {@code -Dbench.layout=shards=1&replicas=2} measures another. */
  private static final String LOCATION_PARAMS = System.getProperty("bench.layout", "shards=2&replicas=2") + "&visibility=nrt";
  private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
  private static final int BATCH = 1_000;
  private static final int K = 5;
  private static final int RECALL_WARMUP = 2_000;
  private static final int RECALL_TIMED = 5_000;
  /** First query index: queries come from their own stream, so any indices will do; each query is used once. */
  private static final int QUERY_BASE = 1_000_000;
  private static final int SELECTED = 3;
  private static final double LEARNING_RATE = 0.1;
  private static final UtilityUpdate UPDATE =
      (memoryId, u) -> new Utility(u.q() + LEARNING_RATE * (1 - u.q()), u.visits() + 1);
  private static final int REWARD_WARMUP_SECONDS = 3;
  /** Retrievals saved beyond the expected need (warm-up rate × rewardSeconds), so the timed run does not run dry. */
  private static final double POOL_HEADROOM = 1.5;
  private static final int VERIFY_SAMPLE = 100;

  private final SolrTestCluster cluster;
  private final SolrStore store;
  private final ExecutorService pool;
  private final ClusteredVectors vectors;
  private final long seed;
  private final int threads;
  private final int rewardSeconds;
  private final double mergeThreshold;
  private final List<String> rows = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  /** Every memory id, as {@link SolrStore#forEachMemory} lists them; retrievals select by index into this list. */
  private final List<String> memoryIds = new ArrayList<>();
  /** Intent group id -> index of the member whose embedding is the group's vector (its first). */
  private final java.util.Map<String, Integer> groupVector = new java.util.LinkedHashMap<>();
  /** Retrievals saved for the reward phase, in order, and the memory indices each selected. */
  private final List<String> retrievalIds = new ArrayList<>();
  private final List<int[]> selections = new ArrayList<>();

  private SolrScaleBenchmark(SolrTestCluster cluster, SolrStore store, ExecutorService pool, int n, long seed, int threads,
      int rewardSeconds, double mergeThreshold) {
    this.mergeThreshold = mergeThreshold;
    this.cluster = cluster;
    this.store = store;
    this.pool = pool;
    this.vectors = new ClusteredVectors(seed, n);
    this.seed = seed;
    this.threads = threads;
    this.rewardSeconds = rewardSeconds;
  }

  public static void main(String[] args) throws Exception {
    if (args.length > 5) {
      System.err.println("usage: SolrScaleBenchmark [N [seed [threads [rewardSeconds [mergeThreshold]]]]]");
      System.exit(2);
    }
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    long seed = args.length > 1 ? Long.parseLong(args[1]) : 42;
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    int rewardSeconds = args.length > 3 ? Integer.parseInt(args[3]) : 20;
    // 0.95: every insert searches for an intent to join (as remember does); above 1: no merging, no search (bulk load)
    double mergeThreshold = args.length > 4 ? Double.parseDouble(args[4]) : 0.95;
    if (n < SELECTED || threads < 1 || rewardSeconds < 1) {
      System.err.println("N must be >= " + SELECTED + ", threads and rewardSeconds >= 1");
      System.exit(2);
    }
    progress("starting a 2-node SolrCloud in this JVM");
    try (SolrTestCluster cluster = SolrTestCluster.start(2);
        SolrStore store = SolrStore.open(SolrStoreOptions.parse(cluster.location(COLLECTION, LOCATION_PARAMS), NS),
            OptionalInt.of(ClusteredVectors.DIMENSION));
        ExecutorService pool = Executors.newFixedThreadPool(threads)) {
      SolrScaleBenchmark bench = new SolrScaleBenchmark(cluster, store, pool, n, seed, threads, rewardSeconds, mergeThreshold);
      bench.ingest();
      bench.recall();
      bench.rewards();
      bench.print();
    }
  }

  // ---------------------------------------------------------------- phases

  private void ingest() throws Exception {
    int n = vectors.size();
    long[] batchNanos = unset((n + BATCH - 1) / BATCH);
    Failures failures = new Failures();
    long total = 0;
    int stored = 0;
    for (int b = 0; b < batchNanos.length; b++) {
      int from = b * BATCH;
      int to = Math.min(n, from + BATCH);
      List<NewMemory> batch = new ArrayList<>(to - from);
      for (int i = from; i < to; i++) {
        batch.add(new NewMemory(NS, "task " + i, vectors.member(i), "experience " + i, Outcome.SUCCESS, 0.0, CREATED));
      }
      long t = System.nanoTime();
      try {
        List<io.memloop.Memory> inserted = store.insertAll(batch, mergeThreshold);
        batchNanos[b] = System.nanoTime() - t;
        for (int i = 0; i < inserted.size(); i++) {
          groupVector.putIfAbsent(inserted.get(i).intentId(), from + i);
        }
        stored += batch.size();
      } catch (RuntimeException e) {
        failures.add(e);
      }
      total += System.nanoTime() - t;
      if ((b + 1) % 10 == 0 || to == n) {
        progress("ingest %,d / %,d (%,.0f memories/s)", to, n, stored / seconds(total));
      }
    }
    row("Ingest: insertAll (merge threshold " + mergeThreshold + "), latency per batch of " + fmt(BATCH), fmt(stored) + " memories", failures,
        String.format(Locale.ROOT, "%,.0f memories/s", stored / seconds(total)), batchNanos);
    new UpdateRequest().commit(cluster.cluster.getSolrClient(), COLLECTION);
    // one segment per replica, as the embedded store's benchmarks search (BuildStore's forceMerge(1)); otherwise
    // background merges of HNSW graphs run during the timed phases and each segment costs its own search
    long merge = System.nanoTime();
    cluster.cluster.getSolrClient().optimize(COLLECTION, true, true, 1);
    notes.add(String.format(Locale.ROOT, "Merged into one segment per replica after ingest (optimize): %.1f s.",
        seconds(System.nanoTime() - merge)));
    StoreCounts c = store.counts(NS, Instant.now());
    notes.add(String.format(Locale.ROOT, "After ingest and commit, `counts`: %,d memories, %,d intent groups, %,d pending "
        + "retrievals%s.", c.memories(), c.intents(), c.pendingRetrievals(),
        c.memories() == stored ? "" : " (**expected " + fmt(stored) + " memories**)"));
    notes.add("Documents per shard after ingest: " + shardDocCounts() + ".");
    long bytes = 0;
    StringBuilder cores = new StringBuilder();
    for (var jetty : cluster.cluster.getJettySolrRunners()) {
      for (var core : jetty.getCoreContainer().getCores()) {
        bytes += core.getIndexSize();
        cores.append(cores.isEmpty() ? "" : ", ").append(core.getName()).append(' ')
            .append(String.format(Locale.ROOT, "%,d MB", core.getIndexSize() >> 20));
      }
    }
    notes.add(String.format(Locale.ROOT, "Index size on disk after ingest (every replica, update logs not counted): %,d MB "
        + "(%s), %,.0f bytes per memory per replica.", bytes >> 20, cores, bytes / 2.0 / Math.max(1, stored)));
  }

  private void recall() throws Exception {
    RecallTally tally = new RecallTally();
    progress("recall: %,d warm-up queries", RECALL_WARMUP);
    Failures warmup = new Failures();
    parallel(1, RECALL_WARMUP, Long.MAX_VALUE, warmup, j -> store.recall(NS, vectors.query(QUERY_BASE + j), K, 0.0));
    noteFailures("Recall warm-up", warmup);
    progress("recall: %,d queries on 1 thread", RECALL_TIMED);
    timedRecall(1, QUERY_BASE + RECALL_WARMUP, tally);
    progress("recall: %,d queries from %d threads", RECALL_TIMED, threads);
    timedRecall(threads, QUERY_BASE + RECALL_WARMUP + RECALL_TIMED, tally);
    notes.add(String.format(Locale.ROOT, "Recall results (both timed runs): %.2f intent groups and %.2f memories per "
        + "query on average, mean best cosine %.3f; %,d of %,d queries returned fewer than %d groups.",
        tally.intents.get() / (double) tally.queries.get(), tally.memories.get() / (double) tally.queries.get(),
        tally.bestCosineMicros.get() / 1e6 / tally.queries.get(), tally.fewerThanK.get(), tally.queries.get(), K));
    exactRecall();
  }

  /** Phase A recall@k against brute force over every intent group's vector, on queries the timing never used. */
  private void exactRecall() {
    int queries = 200;
    List<String> ids = new ArrayList<>(groupVector.keySet());
    float[][] groupVectors = new float[ids.size()][];
    for (int g = 0; g < ids.size(); g++) {
      groupVectors[g] = vectors.member(groupVector.get(ids.get(g)));
    }
    double found = 0;
    for (int j = 0; j < queries; j++) {
      float[] q = vectors.query(QUERY_BASE + 2 * RECALL_TIMED + RECALL_WARMUP + j);
      Integer[] order = new Integer[ids.size()];
      double[] sims = new double[ids.size()];
      for (int g = 0; g < ids.size(); g++) {
        order[g] = g;
        sims[g] = io.memloop.Vectors.dot(q, groupVectors[g]);
      }
      java.util.Arrays.sort(order, (a, b) -> Double.compare(sims[b], sims[a]));
      java.util.Set<String> exact = new java.util.HashSet<>();
      for (int r = 0; r < Math.min(K, order.length); r++) {
        exact.add(ids.get(order[r]));
      }
      for (IntentMatch m : store.recall(NS, q, K, -1)) {
        found += exact.contains(m.intentId()) ? 1 : 0;
      }
    }
    notes.add(String.format(Locale.ROOT, "Phase A recall@%d against brute force over all %,d intent groups, %d held-out "
        + "queries: %.3f.", K, ids.size(), queries, found / (queries * (double) Math.min(K, ids.size()))));
  }

  /** {@link #RECALL_TIMED} recalls of queries {@code firstQuery}, ... from {@code workers} threads: one table row. */
  private void timedRecall(int workers, int firstQuery, RecallTally tally) throws Exception {
    long[] nanos = unset(RECALL_TIMED);
    Failures failures = new Failures();
    long t0 = System.nanoTime();
    parallel(workers, RECALL_TIMED, Long.MAX_VALUE, failures, j -> {
      float[] query = vectors.query(firstQuery + j);
      long t = System.nanoTime();
      List<IntentMatch> r = store.recall(NS, query, K, 0.0);
      nanos[j] = System.nanoTime() - t;
      tally.add(r);
    });
    long wall = System.nanoTime() - t0;
    int ok = RECALL_TIMED - failures.count.get();
    row("Recall k=" + K + ", " + workers + (workers == 1 ? " thread" : " threads"), fmt(RECALL_TIMED) + " queries",
        failures, String.format(Locale.ROOT, "%,.0f queries/s", ok / seconds(wall)), nanos);
  }

  private void rewards() throws Exception {
    store.forEachMemory(NS, m -> memoryIds.add(m.id()));
    if (memoryIds.size() < SELECTED) {
      throw new IllegalStateException("only " + memoryIds.size() + " memories are searchable; a retrieval selects " + SELECTED);
    }
    RewardLedger ledger = new RewardLedger(memoryIds.size());
    Instant now = Instant.now();

    int initial = Math.max(2_000, 250 * threads);
    progress("rewards: saving %,d retrievals", initial);
    Failures saveFailures = new Failures();
    long t0 = System.nanoTime();
    long[] saveNanos = saveRetrievals(initial, now, saveFailures);
    long saveWall = System.nanoTime() - t0;
    row("Save retrieval (setup), " + threads + " threads", fmt(initial) + " retrievals", saveFailures,
        String.format(Locale.ROOT, "%,.0f saves/s", (initial - saveFailures.count.get()) / seconds(saveWall)), saveNanos);

    progress("rewards: %d s warm-up", REWARD_WARMUP_SECONDS);
    RewardRun warmup = applyRewards(0, REWARD_WARMUP_SECONDS, ledger);
    noteFailures("Reward warm-up", warmup.failures());
    int used = warmup.attempted();
    double warmupRate = warmup.attempted() / seconds(warmup.wallNanos());
    int more = (int) Math.ceil(warmupRate * rewardSeconds * POOL_HEADROOM) + threads - (retrievalIds.size() - used);
    if (more > 0) {
      progress("rewards: saving %,d more retrievals (warm-up ran at %,.0f rewards/s)", more, warmupRate);
      Failures topUp = new Failures();
      saveRetrievals(more, now, topUp);
      noteFailures("Save retrieval (top-up)", topUp);
    }

    progress("rewards: %d s from %d threads", rewardSeconds, threads);
    RewardRun run = applyRewards(used, rewardSeconds, ledger);
    double s = seconds(run.wallNanos());
    row("Reward (" + SELECTED + " memories each), " + threads + " threads, " + rewardSeconds + " s",
        fmt(run.attempted()) + " rewards", run.failures(),
        String.format(Locale.ROOT, "%,.0f rewards/s = %,.0f utility updates/s", run.applied() / s, run.updates() / s),
        run.latencies());
    notes.add(String.format(Locale.ROOT, "Rewards: %,d applied in the warm-up, %,d in the timed run (%.1f s)%s; outcomes "
        + "other than Applied: %,d; utility updates per applied reward: %.3f.", warmup.applied(), run.applied(), s,
        run.ranDry() ? " (**the saved retrievals ran out before the time did**)" : "",
        warmup.otherOutcomes() + run.otherOutcomes(), run.updates() / (double) Math.max(1, run.applied())));
    verify(ledger);
  }

  /** Reads back a sample of rewarded memories: visits must count every reward applied to them, Q follow the rule. */
  private void verify(RewardLedger ledger) {
    List<Integer> rewarded = new ArrayList<>();
    int uncertain = 0;
    for (int i = 0; i < memoryIds.size(); i++) {
      if (ledger.uncertain.get(i) != 0) {
        uncertain++;
      } else if (ledger.rewards.get(i) > 0) {
        rewarded.add(i);
      }
    }
    Collections.shuffle(rewarded, new Random(seed));
    List<Integer> sample = rewarded.subList(0, Math.min(VERIFY_SAMPLE, rewarded.size()));
    List<String> mismatches = new ArrayList<>();
    long visits = 0;
    String example = "";
    for (int i : sample) {
      String id = memoryIds.get(i);
      int expected = ledger.rewards.get(i);
      double expectedQ = 1 - Math.pow(1 - LEARNING_RATE, expected);
      Memory m = store.get(NS, id).orElse(null);
      if (m == null || m.visits() != expected || Math.abs(m.q() - expectedQ) > 1e-9) {
        mismatches.add(m == null ? id + " missing" : String.format(Locale.ROOT, "%s visits %d Q %.6f, expected %d and %.6f",
            id, m.visits(), m.q(), expected, expectedQ));
      } else {
        visits += m.visits();
        if (example.isEmpty()) {
          example = String.format(Locale.ROOT, "e.g. %s: visits 0 → %d, Q 0 → %.4f", id, m.visits(), m.q());
        }
      }
    }
    notes.add(String.format(Locale.ROOT, "Verified with `get` %,d of %,d rewarded memories%s: %,d match (visits = rewards "
        + "applied, Q = 1 − 0.9^visits; %,d visits among the matches)%s%s.", sample.size(), rewarded.size(),
        uncertain == 0 ? "" : " (" + fmt(uncertain) + " touched by a failed reward left out)",
        sample.size() - mismatches.size(), visits, example.isEmpty() ? "" : ", " + example,
        mismatches.isEmpty() ? "" : "; **mismatches**: " + String.join("; ", mismatches.subList(0, Math.min(5, mismatches.size())))));
  }

  // ---------------------------------------------------------------- rewards plumbing

  /** Rewards applied to each memory (by index into {@link #memoryIds}), and those a failed reward may have touched. */
  private static final class RewardLedger {
    final AtomicIntegerArray rewards;
    final AtomicIntegerArray uncertain;

    RewardLedger(int memories) {
      rewards = new AtomicIntegerArray(memories);
      uncertain = new AtomicIntegerArray(memories);
    }
  }

  /**
   * What one reward run did: rewards attempted, applied and failed, the latencies of those that returned, the utility
   * updates applied, and whether it used up the saved retrievals before its time was up.
   */
  private record RewardRun(int attempted, int applied, Failures failures, long wallNanos, long[] latencies, long updates,
      boolean ranDry) {
    /** Rewards that returned an outcome other than {@link RewardOutcome.Applied}. */
    int otherOutcomes() {
      return attempted - applied - failures.count.get();
    }
  }

  /** Applies the saved retrievals from index {@code from} on, from every thread, for at most {@code seconds}. */
  private RewardRun applyRewards(int from, int seconds, RewardLedger ledger) throws Exception {
    int available = retrievalIds.size() - from;
    long[] latencies = unset(available);
    AtomicInteger applied = new AtomicInteger();
    AtomicLong updates = new AtomicLong();
    Failures failures = new Failures();
    long t0 = System.nanoTime();
    int attempted = parallel(threads, available, TimeUnit.SECONDS.toNanos(seconds), failures, i -> {
      int[] selected = selections.get(from + i);
      long t = System.nanoTime();
      RewardOutcome o;
      try {
        o = store.applyReward(NS, retrievalIds.get(from + i), Instant.now(), UPDATE);
      } catch (RuntimeException e) {
        for (int m : selected) {
          ledger.uncertain.set(m, 1);
        }
        throw e;
      }
      latencies[i] = System.nanoTime() - t;
      if (o instanceof RewardOutcome.Applied a) {
        applied.incrementAndGet();
        updates.addAndGet(a.changes().size());
        for (int m : selected) {
          ledger.rewards.incrementAndGet(m);
        }
      }
    });
    long wall = System.nanoTime() - t0;
    return new RewardRun(attempted, applied.get(), failures, wall, Arrays.copyOf(latencies, attempted), updates.get(),
        attempted == available);
  }

  /**
   * Saves {@code count} more retrievals from every thread, each selecting {@link #SELECTED} distinct memories drawn
   * uniformly (a pure function of the seed and the retrieval's index); returns the latency of each save.
   */
  private long[] saveRetrievals(int count, Instant now, Failures failures) throws Exception {
    int first = retrievalIds.size();
    String[] ids = new String[count];
    int[][] picks = new int[count][];
    long[] latencies = unset(count);
    parallel(threads, count, Long.MAX_VALUE, failures, i -> {
      SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + first + i);
      int[] pick = r.ints(0, memoryIds.size()).distinct().limit(SELECTED).toArray();
      List<Candidate> candidates = new ArrayList<>(SELECTED);
      for (int m : pick) {
        candidates.add(new Candidate(memoryIds.get(m), 0.9, 0.0, 1.0, true, 1.0));
      }
      long t = System.nanoTime();
      ids[i] = store.saveRetrieval(new RetrievalRecordDraft(NS, now, now.plusSeconds(3600), candidates)).id();
      latencies[i] = System.nanoTime() - t;
      picks[i] = pick;
    });
    for (int i = 0; i < count; i++) {
      if (ids[i] != null) {
        retrievalIds.add(ids[i]);
        selections.add(picks[i]);
      }
    }
    return latencies;
  }

  // ---------------------------------------------------------------- running and counting

  /**
   * Runs {@code task} on indices 0, 1, ... from {@code workers} threads until {@code count} have run or {@code
   * limitNanos} have passed (checked before each index is taken, so the indices run are 0 to the returned number,
   * exclusive). A task that throws is counted in {@code failures}; the others go on.
   */
  private int parallel(int workers, int count, long limitNanos, Failures failures, IntConsumer task) throws Exception {
    AtomicInteger next = new AtomicInteger();
    AtomicInteger done = new AtomicInteger();
    long start = System.nanoTime();
    List<Future<?>> running = new ArrayList<>(workers);
    for (int w = 0; w < workers; w++) {
      running.add(pool.submit(() -> {
        while (System.nanoTime() - start < limitNanos) {
          int i = next.getAndIncrement();
          if (i >= count) {
            return;
          }
          try {
            task.accept(i);
          } catch (RuntimeException e) {
            failures.add(e);
          }
          done.incrementAndGet();
        }
      }));
    }
    for (Future<?> f : running) {
      f.get();
    }
    return done.get();
  }

  /** Operations of one phase that threw: how many, and the first exception. */
  private static final class Failures {
    final AtomicInteger count = new AtomicInteger();
    final AtomicReference<RuntimeException> first = new AtomicReference<>();

    void add(RuntimeException e) {
      count.incrementAndGet();
      first.compareAndSet(null, e);
    }
  }

  /** Sizes and best similarities of recall results, added up from any thread. */
  private static final class RecallTally {
    final AtomicLong queries = new AtomicLong();
    final AtomicLong intents = new AtomicLong();
    final AtomicLong memories = new AtomicLong();
    final AtomicLong bestCosineMicros = new AtomicLong();
    final AtomicLong fewerThanK = new AtomicLong();

    void add(List<IntentMatch> result) {
      queries.incrementAndGet();
      intents.addAndGet(result.size());
      memories.addAndGet(result.stream().mapToLong(m -> m.memories().size()).sum());
      if (!result.isEmpty()) {
        bestCosineMicros.addAndGet(Math.round(result.getFirst().similarity() * 1e6));
      }
      if (result.size() < K) {
        fewerThanK.incrementAndGet();
      }
    }
  }

  /** A latency array whose entries stay -1 for operations that did not return. */
  private static long[] unset(int size) {
    long[] a = new long[size];
    Arrays.fill(a, -1);
    return a;
  }

  // ---------------------------------------------------------------- report

  /** One table row; percentiles over the operations that returned ({@code nanos} ≥ 0). */
  private void row(String phase, String operations, Failures failures, String throughput, long[] nanos) {
    long[] sorted = Arrays.stream(nanos).filter(v -> v >= 0).sorted().toArray();
    rows.add(String.format(Locale.ROOT, "| %s | %s | %,d | %s | %s | %s | %s | %s |", phase, operations,
        failures.count.get(), throughput, ms(percentile(sorted, 0.50)), ms(percentile(sorted, 0.90)),
        ms(percentile(sorted, 0.99)), ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1])));
    noteFailures(phase, failures);
  }

  private void noteFailures(String phase, Failures failures) {
    RuntimeException e = failures.first.get();
    if (e != null) {
      int n = failures.count.get();
      notes.add(String.format(Locale.ROOT, "**%s: %,d %s failed**; the first: %s (root cause: %s).", phase, n,
          n == 1 ? "operation" : "operations", e, SolrClusterAdmin.rootMessage(e)));
    }
  }

  /** Nearest-rank percentile of sorted values; 0 for none. */
  private static long percentile(long[] sorted, double p) {
    return sorted.length == 0 ? 0 : sorted[Math.max(0, (int) Math.ceil(p * sorted.length) - 1)];
  }

  private void print() {
    Runtime rt = Runtime.getRuntime();
    var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    StringBuilder gc = new StringBuilder();
    for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
      gc.append(gc.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "%s %,d× %,d ms", g.getName(),
          g.getCollectionCount(), g.getCollectionTime()));
    }
    StringBuilder out = new StringBuilder();
    out.append("## SolrStore scale benchmark\n\n");
    out.append(String.format(Locale.ROOT, "- Run: N = %,d memories (ClusteredVectors, seed %d, %d-d), namespace `%s`, "
        + "%d client threads, reward phase %d s after a %d s warm-up.%n", vectors.size(), seed,
        ClusteredVectors.DIMENSION, NS, threads, rewardSeconds, REWARD_WARMUP_SECONDS));
    out.append(String.format(Locale.ROOT, "- JVM: %s %s, %d CPUs, flags %s; heap max %,d MB, used at end %,d MB "
        + "(committed %,d MB); GC: %s.%n", System.getProperty("java.vm.name"), Runtime.version(),
        rt.availableProcessors(), ManagementFactory.getRuntimeMXBean().getInputArguments(), rt.maxMemory() >> 20,
        heap.getUsed() >> 20, heap.getCommitted() >> 20, gc));
    out.append("- Cluster: ").append(layout()).append("\n\n");
    out.append("| Phase | Operations | Errors | Throughput | p50 ms | p90 ms | p99 ms | max ms |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
    rows.forEach(r -> out.append(r).append('\n'));
    out.append('\n');
    notes.forEach(n -> out.append("- ").append(n).append('\n'));
    System.out.print(out);
    System.out.flush();
  }

  /** Nodes, shards and replicas of the collection, and the shard the namespace is routed to. */
  private String layout() {
    DocCollection c = cluster.cluster.getZkStateReader().getClusterState().getCollection(COLLECTION);
    String home = c.getRouter().getTargetSlice(store.docId(NS, "m1"), null, null, null, c).getName();
    StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%d in-JVM Solr nodes + embedded ZooKeeper, "
        + "collection `%s` (%s, router %s):", cluster.cluster.getJettySolrRunners().size(), COLLECTION, LOCATION_PARAMS,
        c.getRouter().getClass().getSimpleName()));
    List<Slice> slices = new ArrayList<>(c.getSlices());
    slices.sort(Comparator.comparing(Slice::getName));
    for (Slice s : slices) {
      b.append(' ').append(s.getName()).append(" [");
      List<Replica> replicas = new ArrayList<>(s.getReplicas());
      replicas.sort(Comparator.comparing(Replica::getNodeName));
      for (int i = 0; i < replicas.size(); i++) {
        Replica r = replicas.get(i);
        b.append(i == 0 ? "" : ", ").append(r.isLeader() ? "leader " : "replica ").append(r.getType())
            .append(" on ").append(r.getNodeName());
      }
      b.append(']').append(s == slices.getLast() ? ";" : ",");
    }
    return b.append(" namespace `").append(NS).append("` is routed to ").append(home).append('.').toString();
  }

  private String shardDocCounts() throws Exception {
    DocCollection c = cluster.cluster.getZkStateReader().getClusterState().getCollection(COLLECTION);
    List<String> out = new ArrayList<>();
    for (Slice s : c.getSlices()) {
      ModifiableSolrParams p = new ModifiableSolrParams();
      p.set("q", "*:*");
      p.set("rows", 0);
      p.set("shards", s.getName());
      long found = new QueryRequest(p).process(cluster.cluster.getSolrClient(), COLLECTION).getResults().getNumFound();
      out.add(String.format(Locale.ROOT, "%s %,d", s.getName(), found));
    }
    Collections.sort(out);
    return String.join(", ", out);
  }

  private static void progress(String format, Object... args) {
    System.err.printf(Locale.ROOT, "[solr-bench] " + format + "%n", args);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
  }

  private static String fmt(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }
}
