package io.memloop.jmh;

import io.memloop.MemLoop;
import io.memloop.Outcome;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.history.extraction.AsyncExperienceManager;
import io.memloop.history.extraction.ExperienceExtractor;
import io.memloop.history.extraction.Trajectory;
import io.memloop.store.InMemoryStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * Back-pressure of the asynchronous experience manager: agents submit finished trajectories at a fixed offered
 * rate (open loop) while extraction runs on a model with a fixed latency; prints, per offered rate, how many
 * were accepted and refused ({@code QUEUE_FULL}), the extraction throughput, the deepest queue, and what a
 * submit costs the agent (p50 / p99 / max), which must stay in microseconds whatever the model does.
 *
 * <pre>java -cp memloop-jmh/target/benchmarks.jar io.memloop.jmh.ExtractionBackPressure LATENCY_MS THREADS CAPACITY SECONDS RATE...</pre>
 */
public final class ExtractionBackPressure {
  private ExtractionBackPressure() {}

  public static void main(String[] args) throws Exception {
    long latencyMs = Long.parseLong(args[0]);
    int threads = Integer.parseInt(args[1]);
    int capacity = Integer.parseInt(args[2]);
    int seconds = Integer.parseInt(args[3]);
    System.out.printf(Locale.ROOT, "model latency %d ms, %d extraction threads (capacity %.0f/s), queue %d, %d s per rate%n",
        latencyMs, threads, threads * 1000.0 / latencyMs, capacity, seconds);
    System.out.println("| offered /s | accepted | refused (QUEUE_FULL) | distilled /s | deepest queue | submit p50 | p99 | max |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (int a = 4; a < args.length; a++) {
      run(Integer.parseInt(args[a]), latencyMs, threads, capacity, seconds);
    }
  }

  /** A model that takes {@code latencyMs} per answer (a stand-in for an LLM endpoint). */
  private static ExperienceExtractor slowModel(long latencyMs) {
    return t -> {
      LockSupport.parkNanos(latencyMs * 1_000_000L);
      return new ExperienceExtractor.Extraction("1. " + t.steps(), true, "scripted");
    };
  }

  private static void run(int rate, long latencyMs, int threads, int capacity, int seconds) throws InterruptedException {
    int n = rate * seconds;
    long[] submit = new long[n];
    long refused = 0;
    long start;
    long end;
    AsyncExperienceManager.Stats stats;
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
            .embedder(new HashingEmbedder()).build();
        AsyncExperienceManager manager = new AsyncExperienceManager(loop, slowModel(latencyMs), capacity, 8, threads)) {
      long interval = 1_000_000_000L / rate;
      start = System.nanoTime();
      for (int i = 0; i < n; i++) {
        long due = start + i * interval;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
        Trajectory t = new Trajectory("task " + (i % 500), "step " + i, i % 3 == 0 ? Outcome.FAILURE : Outcome.SUCCESS);
        long s = System.nanoTime();
        AsyncExperienceManager.Submission r = manager.submit("agents", t);
        submit[i] = System.nanoTime() - s;
        refused += r == AsyncExperienceManager.Submission.QUEUE_FULL ? 1 : 0;
      }
      end = System.nanoTime();
      stats = manager.stats();
    }
    Arrays.sort(submit);
    double secs = (end - start) / 1e9;
    System.out.printf(Locale.ROOT, "| %d | %,d | %,d | %.1f | %d | %.1f µs | %.1f µs | %.1f µs |%n", rate, n - refused, refused,
        stats.distilled() / secs, stats.maxQueued(), submit[n / 2] / 1e3, submit[(int) (n * 0.99)] / 1e3, submit[n - 1] / 1e3);
  }
}
