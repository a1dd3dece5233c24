package io.memloop.jmh;

import io.memloop.store.lucene.VectorFormat;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.ClusteredVectors;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Path;
import java.util.ArrayDeque;
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
 * One whole agent episode on a {@link LuceneStore} of {@code size} clustered memories: {@link
 * MemLoop#retrieve} (caller-supplied 384-d embedding), {@link MemLoop#reward} of that retrieval (durable
 * on return: one fsync), {@link MemLoop#remember} of the episode's experience under the same intent
 * (durable on return). Every {@code forgetEvery}-th episode also forgets the oldest memory this benchmark
 * remembered, so deletes are mixed in: a store that has seen a delete must not search any slower (it did
 * before the namespace-filter fix: every search after the first delete applied a namespace filter).
 *
 * <p>{@link #episodeEndedInOneCall} runs the same episodes but ends each with {@link MemLoop#endEpisode}: the
 * reward and the remember as one durable write (one fsync instead of two).
 *
 * <p>Single-threaded, SampleTime: read p0.50 and p0.99 of the whole episode. Runs on a scratch copy of
 * the built store (see {@link Stores}; build it first with {@link BuildStore}).
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@State(Scope.Benchmark)
public class EpisodeBenchmark {
  private static final int QUERIES = 1 << 16;

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

  /** One forget per this many episodes (0: none). */
  @Param({"10"})
  public int forgetEvery;

  /**
   * The preset's {@code firstEncounterK2} changed to this (-1: the preset's own). Every episode here is a new task, so
   * the default preset shows each one its first-encounter width: 0 measures the k2 of before.
   */
  @Param({"-1"})
  public int firstEncounterK2;

  /** The preset's {@code firstEncounterK1} changed to this (-1: the preset's own; 0: a new task recalls k1 intents). */
  @Param({"-1"})
  public int firstEncounterK1;

  /**
   * The preset's {@code similarityBlocks} changed to this (-1: the preset's own, one block for this model): 2 splits the
   * 384-d vectors into two blocks as a two-model embedder would, and learns their weights from the episodes' rewards.
   */
  @Param({"-1"})
  public int similarityBlocks;

  /**
   * The preset's {@code similarityDirections} changed to this (-1: the preset's own, 8 in the default; 0: the plain
   * cosine): half the episodes succeed here, each a pair the learned similarity is refitted from every 32.
   */
  @Param({"-1"})
  public int similarityDirections;

  /**
   * Whether the learned similarity refits on the engine's background thread ({@code MemLoop.Builder#learnInBackground},
   * as {@code memloop serve} does) instead of inside the reward that triggers a refit.
   */
  @Param({"false"})
  public boolean background;

  /**
   * Whether each task comes with a text ({@code "task N"}, N its query's number, beside the stored memories' {@code
   * "intent #i"}), as an agent's does: the default preset then also weighs the texts' words for a new task
   * ({@code textSimilarity}); false: the embedding alone.
   */
  @Param({"true"})
  public boolean text;

  /**
   * The preset's {@code doubt} changed to this ("preset": its own, NOTES_FIRST in the default, where a new task draws
   * whether the failure notes go before every success; LEARNED: only where a success's latest use failed, which half
   * the episodes here do; OFF: no draw).
   */
  @Param({"preset"})
  public String doubt;

  /**
   * Whether a new task is ranked by the learned similarity on a learned draw against the plain cosine
   * ({@code directionsUse}, LEARNED in the default: each such retrieval ranks both arms to tell whether they differ);
   * false: {@code directionsUse=ALWAYS}.
   */
  @Param({"true"})
  public boolean directionsDraw;

  /**
   * Whether a new task with text is ranked by its texts' similarity alone on a learned draw against the learned mix
   * ({@code textAlone}, LEARNED in the default: each such retrieval ranks both arms to tell whether they differ);
   * false: {@code textAlone=NEVER}.
   */
  @Param({"true"})
  public boolean textDraw;

  private MemLoop loop;
  private float[][] queries;
  private final ArrayDeque<String> remembered = new ArrayDeque<>();
  private long episode; // single benchmark thread

  @Setup(Level.Trial)
  public void setUp() {
    Path dir = Stores.scratchCopy(size, Stores.DEFAULT_SEED, VectorFormat.parse("format", format), "episode");
    LuceneStore store = LuceneStore.open(dir, LuceneStoreOptions.builder().searchOversample(oversample).build());
    MemLoopConfig config = MemLoopConfig.preset(Preset.parse(preset));
    if (firstEncounterK2 >= 0) {
      config = config.toBuilder().firstEncounterK2(firstEncounterK2).build();
    }
    if (firstEncounterK1 >= 0) {
      config = config.toBuilder().firstEncounterK1(firstEncounterK1).build();
    }
    if (similarityDirections >= 0) {
      config = config.toBuilder().similarityDirections(similarityDirections).build();
    }
    if (similarityBlocks >= 0) {
      config = config.toBuilder().similarityBlocks(similarityBlocks).build();
    }
    if (!doubt.equals("preset")) {
      config = config.toBuilder().doubt(MemLoopConfig.Doubt.valueOf(doubt)).build();
    }
    if (!directionsDraw) {
      config = config.toBuilder().directionsUse(MemLoopConfig.DirectionsUse.ALWAYS).build();
    }
    if (!textDraw) {
      config = config.toBuilder().textAlone(MemLoopConfig.TextAlone.NEVER).build();
    }
    MemLoop.Builder builder = MemLoop.builder().store(store).config(config).reconfigure();
    loop = (background ? builder.learnInBackground() : builder).build();
    ClusteredVectors vectors = new ClusteredVectors(Stores.DEFAULT_SEED ^ 0x5A5AL, size);
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
  public Memory episode() {
    return runEpisode(false);
  }

  /** The same episode, ended with {@link MemLoop#endEpisode} (retrieve + endEpisode): one fsync. */
  @Benchmark
  public Memory episodeEndedInOneCall() {
    return runEpisode(true);
  }

  private Memory runEpisode(boolean oneCall) {
    long e = episode++;
    int q = (int) (e & (QUERIES - 1));
    float[] query = queries[q];
    Intent intent = text ? Intent.of("task " + q, query) : Intent.ofEmbedding(query);
    Retrieval r = loop.retrieve(Stores.NAMESPACE, intent);
    boolean success = (e & 1) == 0;
    String experience = "episode " + e + ": what was done and how it ended";
    Outcome outcome = success ? Outcome.SUCCESS : Outcome.FAILURE;
    Memory m;
    if (oneCall) {
      m = loop.endEpisode(Stores.NAMESPACE, r.id(), success ? 1.0 : -1.0, null, null, intent, experience, outcome)
          .memory();
    } else {
      loop.reward(Stores.NAMESPACE, r.id(), success ? 1.0 : -1.0);
      // naming the episode's retrieval, as an agent does: under mergeScope=RETRIEVED (default) no second search
      m = loop.remember(Stores.NAMESPACE, intent, experience, outcome, r.id());
    }
    remembered.add(m.id());
    if (forgetEvery > 0 && e % forgetEvery == forgetEvery - 1 && remembered.size() > 1) {
      String oldest = remembered.poll();
      if (!oldest.equals(m.id())) { // a duplicate (default preset) returns an existing memory
        loop.store().delete(Stores.NAMESPACE, oldest);
      }
    }
    return m;
  }
}
