package io.memloop.jmh;

import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.store.NewMemory;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
 * Listing and search ({@link LuceneStore#search}) on one namespace of {@code size} memories: the first page of
 * the default listing (creation order, no filter), a one-word and a two-word text search, and a Q range sorted by Q
 * descending; 100 memories a page, with the total counted. The store is built once per trial in a scratch directory
 * (8-d intents in 16 groups: vectors do not matter here; experiences of 8 words from a vocabulary of 1,000, so a word
 * is in about 0.8 % of memories; Q uniform in [-1, 1] in steps of 0.001; outcomes uniform), closed (a checkpoint)
 * and reopened, so pages are read from the committed index, not from the in-RAM tail.
 *
 * <pre>
 * java -jar memloop-jmh/target/benchmarks.jar ListBenchmark -p size=100000
 * </pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Xmx3g"})
@State(Scope.Benchmark)
public class ListBenchmark {
  private static final int DIMENSION = 8;
  private static final int VOCABULARY = 1_000;
  private static final int BATCH = 10_000;

  @Param({"100000", "1000000"})
  public int size;

  private Path dir;
  private LuceneStore store;
  private final MemoryQuery firstPage = MemoryQuery.all(100);
  private final MemoryQuery oneWord = MemoryQuery.builder().text(word(17)).limit(100).build();
  private final MemoryQuery twoWords = MemoryQuery.builder().text(word(17) + " " + word(4)).limit(100).build();
  private final MemoryQuery qRangeDesc = MemoryQuery.builder().minQ(0.2).maxQ(0.6).sort(MemoryQuery.Sort.Q)
      .descending(true).limit(100).build();

  static String word(int i) {
    return "w" + Integer.toString(i * 7919 % 100_003, 36);
  }

  @Setup(Level.Trial)
  public void build() throws Exception {
    dir = Files.createTempDirectory("memloop-list-bench");
    SplittableRandom rnd = new SplittableRandom(25);
    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    float[][] groups = new float[16][];
    for (int g = 0; g < groups.length; g++) {
      groups[g] = new float[DIMENSION];
      groups[g][g % DIMENSION] = g < DIMENSION ? 1 : -1;
    }
    try (LuceneStore s = LuceneStore.open(dir, DIMENSION)) {
      for (int from = 0; from < size; from += BATCH) {
        List<NewMemory> batch = new ArrayList<>(BATCH);
        for (int i = from; i < Math.min(size, from + BATCH); i++) {
          StringBuilder experience = new StringBuilder();
          for (int w = 0; w < 8; w++) {
            experience.append(w == 0 ? "" : " ").append(word(rnd.nextInt(VOCABULARY)));
          }
          batch.add(new NewMemory(Stores.NAMESPACE, "task " + i, groups[rnd.nextInt(groups.length)], experience.toString(),
              Outcome.values()[rnd.nextInt(3)], rnd.nextInt(2001) / 1000.0 - 1, t0.plusSeconds(i)));
        }
        s.insertAll(batch, 0.99);
      }
    }
    store = LuceneStore.open(dir, DIMENSION);
  }

  @TearDown(Level.Trial)
  public void close() {
    store.close();
    Stores.delete(dir);
  }

  @Benchmark
  public MemoryPage firstPageNoFilter() {
    return store.search(Stores.NAMESPACE, firstPage);
  }

  @Benchmark
  public MemoryPage textOneWord() {
    return store.search(Stores.NAMESPACE, oneWord);
  }

  @Benchmark
  public MemoryPage textTwoWords() {
    return store.search(Stores.NAMESPACE, twoWords);
  }

  @Benchmark
  public MemoryPage qRangeSortedByQDescending() {
    return store.search(Stores.NAMESPACE, qRangeDesc);
  }
}
