package io.memloop.jmh;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * How large a namespace's per-task learning ledger grows over a stream of tasks that never come back, under
 * {@code maxMemories}, and what the ledger's sweep costs the rewards that run it. Each episode: a new task (a random
 * unit intent) retrieves with the default preset, succeeds with probability ½, is rewarded crediting the first memory
 * shown, and remembers what it did. Every tenth of the run it prints the namespace's memories, its ledger keys, the keys
 * it would hold without the sweep (a task entry and a task–memory entry per reward, a memory entry per memory ever
 * credited, the namespace's own entries), and the reward calls' latency over that tenth (median, 99.9th percentile,
 * largest). {@code STORE} is {@code memory} ({@link InMemoryStore}) or {@code lucene} (a {@link LuceneStore} in a
 * temporary directory: two fsyncs an episode, so give it fewer episodes).
 *
 * <pre>
 * scripts/jmh --main io.memloop.jmh.LedgerGrowth [EPISODES] [MAX_MEMORIES] [STORE] [SEED]
 * </pre>
 */
public final class LedgerGrowth {
  private static final int DIM = 32;
  private static final String NS = "stream";

  private LedgerGrowth() {}

  public static void main(String[] args) throws Exception {
    int episodes = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
    int max = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
    String kind = args.length > 2 ? args[2] : "memory";
    long seed = args.length > 3 ? Long.parseLong(args[3]) : 1;
    Path dir = null;
    MemoryStore store;
    switch (kind) {
      case "memory" -> store = new InMemoryStore(DIM);
      case "lucene" -> {
        dir = Files.createTempDirectory("memloop-ledger-growth");
        store = LuceneStore.open(dir, DIM);
      }
      default -> throw new IllegalArgumentException("STORE: expected memory or lucene, got '" + kind + "'");
    }
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().maxMemories(max).build();
    SplittableRandom rnd = new SplittableRandom(seed);
    Set<String> credited = new HashSet<>();
    long rewards = 0;
    int report = Math.max(1, episodes / 10);
    long[] latency = new long[report];
    int inWindow = 0;
    System.out.printf(Locale.ROOT, "%s store, maxMemories %,d, %,d episodes of new tasks%n", kind, max, episodes);
    System.out.printf(Locale.ROOT, "%10s %9s %12s %16s %12s %12s %12s%n", "episodes", "memories", "ledger keys",
        "without sweep", "reward p50", "p99.9", "max");
    try (MemLoop loop = MemLoop.builder().store(store).config(config).seed(seed).build()) {
      for (int i = 0; i < episodes; i++) {
        float[] v = new float[DIM];
        for (int d = 0; d < DIM; d++) {
          v[d] = (float) rnd.nextGaussian();
        }
        Intent intent = Intent.of("task " + i, v);
        Retrieval r = loop.retrieve(NS, intent);
        boolean success = rnd.nextBoolean();
        if (!r.selected().isEmpty()) {
          String used = r.selected().get(0).id();
          long t0 = System.nanoTime();
          loop.reward(NS, r.id(), success ? 1 : -1, List.of(used));
          latency[inWindow++] = System.nanoTime() - t0;
          credited.add(used);
          rewards++;
        }
        loop.remember(NS, intent, "what task " + i + " did", success ? Outcome.SUCCESS : Outcome.FAILURE);
        if ((i + 1) % report == 0 || i == episodes - 1) {
          long[] w = Arrays.copyOf(latency, inWindow);
          Arrays.sort(w);
          long without = 2 * rewards + credited.size() + 4; // t: and p: per reward, c: per memory; n, r, d, g
          System.out.printf(Locale.ROOT, "%,10d %,9d %,12d %,16d %9.3f ms %9.3f ms %9.3f ms%n", i + 1,
              store.counts(NS, java.time.Instant.EPOCH).memories(), store.ledgerKeys(NS).size(), without,
              quantile(w, 0.5), quantile(w, 0.999), w.length == 0 ? 0 : w[w.length - 1] / 1e6);
          inWindow = 0;
        }
      }
    } finally {
      if (dir != null) {
        Stores.delete(dir);
      }
    }
  }

  private static double quantile(long[] sorted, double q) {
    return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
  }
}
