package io.memloop.jmh;

import io.memloop.Candidate;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.RewardResult;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Durable reward throughput: each operation is one {@link MemLoop#reward} of a distinct, pre-saved
 * retrieval that selected 3 memories, so it updates 3 utilities and returns once its log record is
 * fsynced. Concurrent callers ({@code -t}) share fsyncs (group commit); run with {@code -t 1} and
 * {@code -t 8} and more. Score = rewards/s; memory updates/s = 3 × score.
 *
 * <p>A retrieval can be rewarded once, so each iteration's setup saves {@code pool} fresh retrievals
 * (untimed, from {@value #SAVERS} threads so their own fsyncs are shared) and the benchmark threads
 * take them in turn. If a fast machine drains the pool the iteration fails loudly: raise {@code -p pool}.
 * Each retrieval selects memories drawn uniformly from the whole store, so a 1M store's rewards touch
 * memories all over it (utility stripes, memory table, log) as real traffic would.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@State(Scope.Benchmark)
public class RewardBenchmark {
  private static final int SAVERS = 64;
  private static final int SELECTED = 3;

  @Param({"100000"})
  public int size;

  /**
   * {@code memrl}: the reward updates Q (one fsync, group-committed). {@code default}: per-task learning
   * too — the retrievals carry a task note (10,000 tasks), and each reward reads the selected memories
   * to find the one used and writes one ledger record (not awaited).
   */
  @Param({"memrl", "default"})
  public String preset;

  /** Retrievals saved before each iteration; must exceed what the threads reward in one iteration. */
  @Param({"100000"})
  public int pool;

  private LuceneStore store;
  private MemLoop loop;
  private List<String> memoryIds;
  private String[] retrievals;
  private final AtomicInteger taken = new AtomicInteger();
  private int round;

  @Setup(Level.Trial)
  public void setUp() {
    // The book must hold a whole pool of saved retrievals (the defaults keep 10,000 per namespace and
    // 20,000 in the store).
    store = LuceneStore.open(Stores.scratchCopy(size, Stores.DEFAULT_SEED, "reward"),
        LuceneStoreOptions.builder().maxRetrievalsPerNamespace(2 * pool).maxRetrievalBytesPerNamespace(1L << 30)
            .maxRetrievals(2 * pool).maxRetrievalBytes(1L << 30).build());
    loop = MemLoop.builder().store(store).config(MemLoopConfig.preset(Preset.parse(preset))).reconfigure().build();
    memoryIds = new ArrayList<>(size);
    store.forEachMemory(Stores.NAMESPACE, m -> memoryIds.add(m.id())); // every memory of the store
  }

  /** Saves {@code pool} retrievals, each selecting 3 of 5 candidates, as MemLoop.retrieve would. */
  @Setup(Level.Iteration)
  public void savePool() {
    int r = round++;
    Instant now = Instant.now();
    retrievals = new String[pool];
    taken.set(0);
    try (ExecutorService savers =
        Executors.newFixedThreadPool(SAVERS, Thread.ofPlatform().name("pool-saver-", 0).factory())) {
      List<Future<?>> jobs = new ArrayList<>();
      for (int s = 0; s < SAVERS; s++) {
        int saver = s;
        jobs.add(savers.submit(() -> {
          SplittableRandom random = new SplittableRandom(31L * r + saver);
          for (int i = saver; i < pool; i += SAVERS) {
            List<Candidate> candidates = new ArrayList<>(5);
            while (candidates.size() < 5) { // distinct ids, so every reward updates exactly 3 memories
              String id = memoryIds.get(random.nextInt(memoryIds.size()));
              boolean selected = candidates.size() < SELECTED;
              if (candidates.stream().noneMatch(c -> c.memoryId().equals(id))) {
                candidates.add(new Candidate(id, 0.8, 0.0, 0.5, selected, selected ? 1 : 0));
              }
            }
            TaskNote note = preset.equals("default") ? new TaskNote("t" + (i % 10_000), "", false) : TaskNote.NONE;
            retrievals[i] = store.saveRetrieval(new RetrievalRecordDraft(
                Stores.NAMESPACE, now, now.plus(Duration.ofDays(7)), candidates, note.into(Annotations.EMPTY))).id();
          }
        }));
      }
      for (Future<?> job : jobs) {
        job.get();
      }
    } catch (InterruptedException | ExecutionException e) {
      throw new IllegalStateException("saving the retrieval pool", e);
    }
  }

  @TearDown(Level.Iteration)
  public void checkPool() {
    if (taken.get() > pool) {
      throw new IllegalStateException("the pool of " + pool + " retrievals ran dry: raise -p pool");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    loop.close();
  }

  @Benchmark
  public RewardResult reward() {
    int i = taken.getAndIncrement();
    if (i >= pool) {
      throw new IllegalStateException("the pool of " + pool + " retrievals ran dry: raise -p pool");
    }
    // alternate success and failure so Q keeps moving both ways
    return loop.reward(Stores.NAMESPACE, retrievals[i], (i & 1) == 0 ? 1.0 : -1.0);
  }
}
