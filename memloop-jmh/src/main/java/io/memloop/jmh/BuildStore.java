package io.memloop.jmh;

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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Builds the clustered store of {@code size} memories once, outside any timed benchmark, through
 * the public insert path (one durable insert per memory, as agents would write them).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx4g \
 *   -cp memloop-jmh/target/benchmarks.jar io.memloop.jmh.BuildStore SIZE [SEED] [THREADS] [LIMIT]
 * </pre>
 *
 * <p>{@code THREADS} concurrent inserters share each log fsync (group commit); the store still
 * serialises inserts of one namespace, so more threads only overlap the syncs. {@code LIMIT} stops
 * after that many inserts without marking the store done: a dry run to measure inserts/s.
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
    int threads = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int limit = args.length > 3 ? Integer.parseInt(args[3]) : size;
    Path dir = Stores.built(size, seed);
    Files.deleteIfExists(Stores.doneMarker(size, seed));
    Stores.delete(dir);
    Files.createDirectories(dir.getParent());

    ClusteredVectors vectors = new ClusteredVectors(seed, size);
    AtomicInteger next = new AtomicInteger();
    AtomicLong done = new AtomicLong();
    long start = System.nanoTime();
    try (LuceneStore store = LuceneStore.open(dir, ClusteredVectors.DIMENSION)) {
      Instant createdAt = Instant.parse("2026-01-01T00:00:00Z");
      List<Thread> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(Thread.ofPlatform().name("inserter-" + t).start(() -> {
          for (int i = next.getAndIncrement(); i < limit; i = next.getAndIncrement()) {
            store.insert(new NewMemory(Stores.NAMESPACE, "intent #" + i, vectors.member(i),
                "experience #" + i, Outcome.SUCCESS, 0.0, createdAt), Stores.NO_MERGE);
            long n = done.incrementAndGet();
            if (n % 10_000 == 0) {
              report("inserted", n, start);
            }
          }
        }));
      }
      for (Thread w : workers) {
        w.join();
      }
      report("inserted (before close)", done.get(), start);
    }
    report("closed", done.get(), start);
    if (limit >= size) {
      Files.writeString(Stores.doneMarker(size, seed), "size=" + size + " seed=" + seed + " threads=" + threads
          + " seconds=" + (System.nanoTime() - start) / 1e9 + " bytes=" + Stores.sizeBytes(dir) + "\n");
      System.out.println("store: " + dir.toAbsolutePath() + " (" + Stores.sizeBytes(dir) / (1 << 20) + " MiB)");
    }
  }

  private static void report(String what, long n, long startNanos) {
    double s = (System.nanoTime() - startNanos) / 1e9;
    System.out.printf(Locale.ROOT, "%s %,d in %.1f s: %.0f inserts/s%n", what, n, s, n / s);
  }
}
