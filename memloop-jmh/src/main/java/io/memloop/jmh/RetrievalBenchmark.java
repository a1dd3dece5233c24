package io.memloop.jmh;

import io.memloop.store.lucene.VectorFormat;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.ClusteredVectors;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.store.IntentMatch;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * Latency of two-phase retrieval ({@link MemLoop#retrieve} with a caller-supplied 384-d embedding,
 * under the {@code memrl} or the {@code default} preset) on a {@link LuceneStore} of {@code size}
 * clustered memories, one intent each. The default preset adds per-task learning to each retrieval:
 * hashing the intent to its task key, one ledger read per candidate, and the tiering.
 * SampleTime gives the distribution: read p0.50 and p0.99.
 *
 * <p>{@code retrieve} is the whole call, including saving the retrieval record: one append to the
 * log's buffer, not an fsync (the record becomes durable with the next synced write or the background
 * sync within 50 ms; see README "The embedded store"). {@code recallPhaseA} is only the store's Phase A
 * ({@code recall}, k1 = 5, δ = 0.5), to separate search from bookkeeping.
 *
 * <p>The saved records are never rewarded here; the store's retrieval book keeps at most 10,000 per
 * namespace (oldest evicted), so they do not pile up across the trial.
 *
 * <p>Runs on a scratch copy of the built store (see {@link Stores}); build it first with {@link
 * BuildStore}. Queries: {@value #QUERIES} perturbed members of the store's clusters (seeded,
 * generated untimed), each used once unless a trial makes more calls than that.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@State(Scope.Benchmark)
public class RetrievalBenchmark {
  private static final int QUERIES = 1 << 17;

  @Param({"10000", "100000", "1000000"})
  public int size;

  @Param({"memrl", "default"})
  public String preset;

  /** The index's vector format: the store built in it ({@code BuildStore SIZE SEED 10000 1 FORMAT}). */
  @Param({"float32"})
  public String format;

  /** HNSW candidates as a multiple of a float graph's (0: the format's own; LuceneStoreOptions.searchOversample). */
  @Param({"0"})
  public int oversample;

  private LuceneStore store;
  private MemLoop loop;
  private MemLoopConfig config;
  private float[][] queries;
  private int next; // single benchmark thread

  @Setup(Level.Trial)
  public void setUp() {
    Path dir = Stores.scratchCopy(size, Stores.DEFAULT_SEED, VectorFormat.parse("format", format), "retrieval");
    store = LuceneStore.open(dir, LuceneStoreOptions.builder().searchOversample(oversample).build());
    config = MemLoopConfig.preset(Preset.parse(preset));
    loop = MemLoop.builder().store(store).config(config).reconfigure().build(); // a scratch copy: record it
    ClusteredVectors vectors = new ClusteredVectors(Stores.DEFAULT_SEED, size);
    queries = new float[QUERIES][];
    for (int q = 0; q < QUERIES; q++) {
      queries[q] = vectors.query(q);
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    loop.close();
  }

  @Benchmark
  public Retrieval retrieve() {
    return loop.retrieve(Stores.NAMESPACE, Intent.ofEmbedding(nextQuery()));
  }

  @Benchmark
  public List<IntentMatch> recallPhaseA() {
    return store.recall(Stores.NAMESPACE, nextQuery(), config.k1(), config.similarityThreshold());
  }

  private float[] nextQuery() {
    float[] q = queries[next];
    next = (next + 1) & (QUERIES - 1);
    return q;
  }
}
