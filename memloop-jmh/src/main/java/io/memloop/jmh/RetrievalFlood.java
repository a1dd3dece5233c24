package io.memloop.jmh;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.lucene.LuceneStore;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A store flooded with retrievals that are never rewarded (what an agent that retrieves and never
 * reports outcomes leaves behind): {@code build DIR N} saves N retrievals of 15 candidates each into a
 * store of 1,000 memories and closes it; {@code open DIR} opens it, prints the open time and the heap
 * used after GC, and closes. Run {@code open} under a small heap to check the store stays openable:
 *
 * <pre>
 * scripts/jmh --main io.memloop.jmh.RetrievalFlood build /tmp/flood 200000
 * MEMLOOP_JAVA_OPTS="-Xmx64m --enable-native-access=ALL-UNNAMED" scripts/jmh --main io.memloop.jmh.RetrievalFlood open /tmp/flood
 * </pre>
 */
public final class RetrievalFlood {
  private static final int DIM = 384;
  private static final int CANDIDATES = 15;

  private RetrievalFlood() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[1]);
    if (args[0].equals("build")) {
      build(dir, Integer.parseInt(args[2]));
    } else {
      long t0 = System.nanoTime();
      try (LuceneStore store = LuceneStore.open(dir)) {
        double openMs = (System.nanoTime() - t0) / 1e6;
        for (int i = 0; i < 3; i++) {
          System.gc();
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        System.out.printf(Locale.ROOT, "open %.0f ms, heap used after GC %.1f MB (max %.0f MB), pending retrievals %d%n",
            openMs, heap / 1e6, Runtime.getRuntime().maxMemory() / 1e6,
            store.counts("bench", Instant.now()).pendingRetrievals());
      }
    }
  }

  private static void build(Path dir, int n) {
    SplittableRandom rnd = new SplittableRandom(7);
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      List<String> ids = new ArrayList<>();
      for (int i = 0; i < 1_000; i++) {
        float[] v = new float[DIM];
        for (int d = 0; d < DIM; d++) {
          v[d] = (float) rnd.nextGaussian();
        }
        Memory m = store.insert(new NewMemory("bench", "intent " + i, Vectors.normalized(v, "v"), "experience " + i,
            Outcome.SUCCESS, 0, Instant.now()), 1.01);
        ids.add(m.id());
      }
      Instant now = Instant.now();
      for (int r = 0; r < n; r++) {
        List<Candidate> candidates = new ArrayList<>(CANDIDATES);
        for (int c = 0; c < CANDIDATES; c++) {
          candidates.add(new Candidate(ids.get((r + c * 61) % ids.size()), 0.8, 0.1, 0.5, c < 3, c < 3 ? 1 : 0));
        }
        store.saveRetrieval(new RetrievalRecordDraft("bench", now, now.plus(Duration.ofDays(7)), candidates));
      }
    }
    System.out.printf(Locale.ROOT, "saved %,d unrewarded retrievals into %s%n", n, dir);
  }
}
