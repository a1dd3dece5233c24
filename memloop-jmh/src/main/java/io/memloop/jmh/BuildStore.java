package io.memloop.jmh;

import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.lucene.VectorFormat;
import io.memloop.ClusteredVectors;
import io.memloop.Outcome;
import io.memloop.store.NewMemory;
import io.memloop.store.lucene.LuceneStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Builds the clustered store of {@code size} memories once, outside any timed benchmark, through
 * the store's bulk-load API: {@link LuceneStore#insertAll} in batches (one log record, one fsync and
 * one {@code addDocuments} per core per batch), then {@link LuceneStore#forceMerge}, then close
 * (checkpoint).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx4g \
 *   -cp memloop-jmh/target/benchmarks.jar io.memloop.jmh.BuildStore SIZE [SEED] [BATCH] [MAX_SEGMENTS] [FORMAT]
 * </pre>
 *
 * <p>{@code BATCH} memories per {@code insertAll} call (default 10,000; a log record holds about
 * 40,000). {@code MAX_SEGMENTS} is the {@code forceMerge} target (default 1: every segment costs
 * Phase A its own HNSW search, and a single merge reuses the largest segment's graph; 0 skips the
 * merge). {@code FORMAT} is the index's {@link VectorFormat} (default float32; another format's store is kept
 * beside it, named with the format, e.g. {@code clustered-100000-seed42-int8}).
 *
 * <p>Merging is off ({@link Stores#NO_MERGE}): with members of a cluster at cosine ≈ 0.8 the default
 * merge threshold 0.9 would merge only a few, but any merging makes "memories" and "intents" differ
 * and Phase A recall would be measured over fewer points. Without it the index holds one intent per
 * memory, the worst case for both latency and recall.
 */
public final class BuildStore {
  private BuildStore() {}

  public static void main(String[] args) throws Exception {
    int size = Integer.parseInt(args[0]);
    long seed = args.length > 1 ? Long.parseLong(args[1]) : Stores.DEFAULT_SEED;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 10_000;
    int maxSegments = args.length > 3 ? Integer.parseInt(args[3]) : 1;
    VectorFormat format = args.length > 4 ? VectorFormat.parse("FORMAT", args[4]) : VectorFormat.FLOAT32;
    Path dir = Stores.built(size, seed, format);
    Files.deleteIfExists(Stores.doneMarker(size, seed, format));
    Stores.delete(dir);
    Files.createDirectories(dir.getParent());

    ClusteredVectors vectors = new ClusteredVectors(seed, size);
    Instant createdAt = Instant.parse("2026-01-01T00:00:00Z");
    long start = System.nanoTime();
    long loadNanos;
    long mergeNanos = 0;
    long closeStart;
    try (LuceneStore store = LuceneStore.open(dir, ClusteredVectors.DIMENSION,
        LuceneStoreOptions.builder().vectorFormat(format).build())) {
      for (int from = 0; from < size; from += batch) {
        int to = Math.min(size, from + batch);
        List<NewMemory> memories = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
          memories.add(new NewMemory(Stores.NAMESPACE, "intent #" + i, vectors.member(i),
              "experience #" + i, Outcome.SUCCESS, 0.0, createdAt));
        }
        store.insertAll(memories, Stores.NO_MERGE);
        if (to % 100_000 == 0 || to == size) {
          report("inserted", to, start);
        }
      }
      loadNanos = System.nanoTime() - start;
      report("bulk load done", size, start);
      if (maxSegments > 0) {
        long m = System.nanoTime();
        store.forceMerge(maxSegments);
        mergeNanos = System.nanoTime() - m;
        System.out.printf(Locale.ROOT, "forceMerge(%d) took %.1f s%n", maxSegments, mergeNanos / 1e9);
      }
      closeStart = System.nanoTime();
    }
    double closeSeconds = (System.nanoTime() - closeStart) / 1e9;
    double total = (System.nanoTime() - start) / 1e9;
    long segments = segments(dir);
    System.out.printf(Locale.ROOT,
        "load %.1f s (%.0f inserts/s), forceMerge %.1f s, close %.1f s, total %.1f s, %d segments%n",
        loadNanos / 1e9, size / (loadNanos / 1e9), mergeNanos / 1e9, closeSeconds, total, segments);
    Files.writeString(Stores.doneMarker(size, seed, format), String.format(Locale.ROOT,
        "size=%d seed=%d format=%s batch=%d maxSegments=%d loadSeconds=%.1f insertsPerSecond=%.0f mergeSeconds=%.1f"
            + " closeSeconds=%.1f totalSeconds=%.1f segments=%d bytes=%d%n",
        size, seed, format.id(), batch, maxSegments, loadNanos / 1e9, size / (loadNanos / 1e9), mergeNanos / 1e9,
        closeSeconds, total, segments, Stores.sizeBytes(dir)));
    System.out.println("store: " + dir.toAbsolutePath() + " (" + Stores.sizeBytes(dir) / (1 << 20) + " MiB)");
  }

  /** Lucene segments of the committed index: one {@code .si} file each. */
  private static long segments(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".si")).count();
    }
  }

  private static void report(String what, long n, long startNanos) {
    double s = (System.nanoTime() - startNanos) / 1e9;
    System.out.printf(Locale.ROOT, "%s %,d in %.1f s: %.0f inserts/s%n", what, n, s, n / s);
  }
}
