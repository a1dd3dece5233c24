package io.memloop.jmh;

import io.memloop.ClusteredVectors;
import io.memloop.Outcome;
import io.memloop.store.NewMemory;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Ingest rate of the embedded store as the SolrCloud store's benchmark measures its own ({@code scripts/solr-bench}):
 * {@code N} clustered memories into a new store in a temporary directory, {@link LuceneStore#insertAll} in batches of
 * {@code BATCH} (default 1,000) at merge threshold {@code THRESHOLD} (0.95: every memory's nearest intent is searched;
 * above 1: no merging), one namespace. Prints memories/s; no merge of segments, no close in the timing.
 *
 * <pre>
 * scripts/jmh --main io.memloop.jmh.IngestRate N [THRESHOLD] [BATCH] [SEED]
 * </pre>
 */
public final class IngestRate {
  private IngestRate() {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    double threshold = args.length > 1 ? Double.parseDouble(args[1]) : 0.95;
    int batch = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
    long seed = args.length > 3 ? Long.parseLong(args[3]) : Stores.DEFAULT_SEED;
    ClusteredVectors vectors = new ClusteredVectors(seed, n);
    Instant createdAt = Instant.parse("2026-01-01T00:00:00Z");
    Path dir = Files.createTempDirectory("memloop-ingest-");
    try {
      long start = System.nanoTime();
      long intents;
      try (LuceneStore store = LuceneStore.open(dir, ClusteredVectors.DIMENSION)) {
        for (int from = 0; from < n; from += batch) {
          List<NewMemory> memories = new ArrayList<>(batch);
          for (int i = from; i < Math.min(n, from + batch); i++) {
            memories.add(new NewMemory("bench", "task " + i, vectors.member(i), "experience " + i, Outcome.SUCCESS, 0.0, createdAt));
          }
          store.insertAll(memories, threshold);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        intents = store.counts("bench", createdAt).intents();
        System.out.printf(Locale.ROOT, "IngestRate: %,d memories (%,d intent groups) in %.1f s: %,.0f memories/s "
            + "(threshold %s, batches of %,d)%n", n, intents, seconds, n / seconds, threshold, batch);
      }
    } finally {
      Stores.delete(dir);
    }
  }
}
