package io.memloop.jmh;

import io.memloop.embeddings.MiniLmEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Throughput of {@link MiniLmEmbedder#embedAll} in sentences per second, by batch size and worker
 * count. The primary score counts calls; read the {@code :sentences} secondary score, which counts
 * texts (calls × batchSize).
 *
 * <p>Sentences are generated from a fixed seed: task-like intents of 9–29 words, as agents store
 * them, each distinct, so no layer can cache its way to a better number.
 *
 * <pre>
 * java -jar memloop-jmh/target/benchmarks.jar EmbeddingBenchmark -f 1 -wi 1 -i 3 -w 5s -r 10s
 * </pre>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 5)
@Measurement(iterations = 3, time = 10)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
@State(Scope.Benchmark)
public class EmbeddingBenchmark {

  private static final long SEED = 20_261_122L;
  private static final int POOL = 4096;

  @Param({"1", "8", "32", "128"})
  public int batchSize;

  /** 1 vs 2 on a 2-core machine shows what the second core buys. */
  @Param({"1", "2"})
  public int workers;

  private MiniLmEmbedder embedder;
  private List<List<String>> batches;
  private int next; // one benchmark thread (no -t): the embedder parallelises internally

  /** Texts embedded per iteration, reported per second next to the call rate. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.OPERATIONS)
  public static class Sentences {
    public long sentences;

    @Setup(Level.Iteration)
    public void reset() {
      sentences = 0;
    }
  }

  @Setup(Level.Trial)
  public void setUp() {
    embedder = MiniLmEmbedder.create(workers);
    List<String> pool = TaskSentences.generate(SEED, POOL);
    batches = new ArrayList<>();
    for (int from = 0; from + batchSize <= pool.size(); from += batchSize) {
      batches.add(List.copyOf(pool.subList(from, from + batchSize)));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    embedder.close();
  }

  @Benchmark
  public void embedAll(Sentences counter, Blackhole bh) {
    List<String> batch = batches.get(next);
    next = next + 1 == batches.size() ? 0 : next + 1;
    bh.consume(embedder.embedAll(batch));
    counter.sentences += batch.size();
  }

  /** Deterministic, varied, task-like sentences (what an agent would store as an intent). */
  static final class TaskSentences {
    private static final String[] OPENERS = {
      "Please", "Can you", "I need to", "Help me", "We should", "Quickly", "Before the release,",
      "As a follow-up,", "For the customer,", "Once the build is green,"
    };
    private static final String[] VERBS = {
      "fix", "debug", "summarise", "refactor", "deploy", "document", "translate", "review",
      "migrate", "benchmark", "rename", "archive", "schedule", "draft", "reproduce", "estimate"
    };
    private static final String[] OBJECTS = {
      "the failing integration test", "the billing service", "the quarterly sales report",
      "the onboarding guide", "the flaky login flow", "the password reset email",
      "the database migration script", "the incident postmortem", "the release notes",
      "the retry logic in the HTTP client", "the customer churn dashboard", "the Kubernetes manifests",
      "the invoice PDF generator", "the search ranking experiment", "the CSV export of orders",
      "the on-call handover notes", "the memory leak in the worker pool", "the API rate limiter"
    };
    private static final String[] CONTEXTS = {
      "after the Java 21 upgrade", "for the Berlin office", "before Friday's demo",
      "so that it runs on the CI runner", "without breaking backwards compatibility",
      "using the staging credentials", "and open a pull request", "for the EU region only",
      "with a short summary for the team", "and add a regression test", "in under an hour",
      "that the support team escalated yesterday", "for version 2.3 of the mobile app",
      "and compare it with last month's numbers", "while keeping the old endpoint alive"
    };
    private static final String[] DETAILS = {
      "", "", "", " The logs mention a timeout after 30 seconds.", " Ticket OPS-%d has the details.",
      " It only fails on every %dth run.", " Priority is high.", " The owner is on holiday.",
      " Use the checklist in the wiki.", " Budget is %d hours."
    };

    private TaskSentences() {}

    static List<String> generate(long seed, int count) {
      SplittableRandom random = new SplittableRandom(seed);
      List<String> out = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        String detail = DETAILS[random.nextInt(DETAILS.length)];
        if (detail.contains("%d")) {
          detail = String.format(Locale.ROOT, detail, 2 + random.nextInt(9_000));
        }
        out.add(
            OPENERS[random.nextInt(OPENERS.length)] + " " + VERBS[random.nextInt(VERBS.length)] + " "
                + OBJECTS[random.nextInt(OBJECTS.length)] + " " + CONTEXTS[random.nextInt(CONTEXTS.length)]
                // The running number keeps every sentence distinct without changing its shape.
                + " (#" + i + ")." + detail);
      }
      return out;
    }
  }
}
