package io.memloop.bench;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Policy;
import io.memloop.bench.strategy.Ablation;
import io.memloop.bench.strategy.RagStrategy;
import io.memloop.bench.strategy.RecentStrategy;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code memloop bench}: every strategy on every environment over several seeds, under common random
 * numbers (each episode's randomness depends only on seed, epoch and task), with the metrics of the
 * research digest. Strategies never read ground truth, except the oracle.
 *
 * <p>The embedder is borrowed (not closed). Everything runs on in-memory stores. The policy is the
 * environments' frozen one, or a language model ({@link LlmPolicy}).
 */
public final class Bench {
  private Bench() {}

  /**
   * Progress: one call per learning epoch of any run (in stream mode, {@link StreamBench}, per window of
   * {@link StreamMetrics#WINDOW} episodes, with the window's success), and a line at each phase.
   */
  public interface Listener {
    void epochDone(String environment, String strategy, long seed, int epoch, double accuracy);

    default void phase(String message) {}
  }

  /** Every run with the frozen policies, as many at a time as there are processors. */
  public static BenchReport run(Embedder embedder, BenchOptions options, Listener listener) {
    return run(embedder, options, Policy.FROZEN, Runtime.getRuntime().availableProcessors(), listener);
  }

  /**
   * Every (environment, seed, strategy) run of {@code options} with {@code policy} attempting the
   * tasks, up to {@code parallelism} runs at a time. Runs are independent (each has its own memory
   * and its own episode seeds), so the results do not depend on {@code parallelism}; only wall times
   * do. With an LLM policy, {@code parallelism} is the number of concurrent requests the chat server
   * gets.
   *
   * @throws io.memloop.MemLoopException {@code MODEL_FAILED} when the policy's model fails; the other
   *     runs are cancelled
   */
  public static BenchReport run(
      Embedder embedder, BenchOptions options, Policy policy, int parallelism, Listener listener) {
    if (parallelism < 1 || parallelism > 256) {
      throw MemLoopException.invalid("parallelism", "must be in [1, 256], got " + parallelism);
    }
    long started = System.nanoTime();
    List<EnvironmentSummary> summaries = new ArrayList<>();
    List<BenchReport.Run> runs = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism, Thread.ofPlatform().daemon().name("bench-", 1).factory());
    try {
      for (String envName : options.environments()) {
        EnvironmentFactory factory = EnvironmentCatalog.named(envName);
        Map<String, List<LearningCurve>> curves = new LinkedHashMap<>();
        options.strategies().forEach(s -> curves.put(s, new ArrayList<>()));
        int tasks = 0;
        int heldOut = 0;
        Environment.HeldOut heldOutKind = Environment.HeldOut.TRANSFER;
        List<Environment> open = new ArrayList<>();
        try {
          List<Future<RunResult>> pending = new ArrayList<>();
          for (long seed : options.seeds()) {
            Environment env = factory.create(seed, options.size(), options.slip(), options.knobsOf(envName));
            open.add(env);
            tasks = env.tasks().size();
            heldOut = env.heldOut().size();
            heldOutKind = env.heldOutKind();
            listener.phase(envName + " seed " + seed + ": embedding " + (tasks + heldOut) + " task intents");
            LearningLoop loop = new LearningLoop(env, IntentEmbeddings.of(embedder, env), options.epochs(), policy);
            // The oracle replays every other run of its seed, so it takes about as long as they do together:
            // it starts first (results stay in the strategies' order and do not depend on when a run starts).
            List<String> names = options.strategies();
            List<Future<RunResult>> seedRuns = new ArrayList<>(java.util.Collections.nCopies(names.size(), null));
            for (boolean oracleFirst : new boolean[] {true, false}) {
              for (int j = 0; j < names.size(); j++) {
                String name = names.get(j);
                if (name.equals(Headline.CEILING) != oracleFirst) {
                  continue;
                }
                Strategy strategy = strategy(name, env, names).on(options.store()).withBlocks(embedder.blocks());
                seedRuns.set(j, pool.submit(() -> {
                  int[] epoch = {0};
                  return loop.run(strategy, seed, acc -> listener.epochDone(envName, name, seed, ++epoch[0], acc));
                }));
              }
            }
            pending.addAll(seedRuns);
          }
          for (Future<RunResult> f : pending) {
            RunResult run = await(f, pending);
            runs.add(new BenchReport.Run(envName, run));
            curves.get(run.strategy()).add(Metrics.curve(run));
          }
        } finally {
          open.forEach(Bench::closeIfCloseable);
        }
        List<StrategySummary> strategies = new ArrayList<>();
        curves.forEach((name, list) -> strategies.add(StrategySummary.of(name, list)));
        summaries.add(new EnvironmentSummary(envName, tasks, heldOut, heldOutKind, strategies));
      }
    } finally {
      pool.shutdownNow();
    }
    return new BenchReport(options, embedder.modelId(), policy, summaries, runs, (System.nanoTime() - started) / 1e9);
  }

  /** The run's result; on its failure, cancels the others and rethrows the cause as it was thrown. */
  static <T> T await(Future<T> f, List<? extends Future<?>> all) {
    try {
      return f.get();
    } catch (ExecutionException e) {
      all.forEach(other -> other.cancel(true));
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      if (e.getCause() instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("benchmark run failed: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      all.forEach(other -> other.cancel(true));
      Thread.currentThread().interrupt();
      throw new IllegalStateException("benchmark interrupted", e);
    }
  }

  /** The strategy named {@code name}; an oracle gets no shadows (see {@link #strategy(String, Environment, List)}). */
  static Strategy strategy(String name, Environment env) {
    return strategy(name, env, List.of());
  }

  /**
   * The strategy named {@code name} in a run of the strategies {@code run}: the oracle shadows the run's other
   * memory strategies, so it bounds each of them per episode.
   */
  static Strategy strategy(String name, Environment env, List<String> run) {
    return switch (name) {
      case "no-memory" -> Strategy.noMemory();
      case "rag" -> RagStrategy.all();
      case "rag-success" -> RagStrategy.successesOnly();
      case "rag-k5" -> RagStrategy.top(5);
      case "recent" -> new RecentStrategy();
      case "memp" -> Strategy.memp();
      case "oracle" -> {
        if (!(env instanceof GroundTruth truth)) {
          throw MemLoopException.invalid("strategies", "environment " + env.name() + " has no ground truth for the oracle");
        }
        yield Strategy.oracle(OpaqueTasks.truthFor(env, truth), shadows(run));
      }
      default -> {
        int ragTop = BenchOptions.ragTop(name);
        if (ragTop > 0) {
          yield RagStrategy.top(ragTop);
        }
        int hybridTop = BenchOptions.ragHybridTop(name);
        if (hybridTop > 0) {
          yield RagStrategy.hybrid(hybridTop);
        }
        MemLoopConfig engine = BenchOptions.engineConfig(name);
        if (engine == null) {
          throw MemLoopException.invalid("strategies", "unknown strategy '" + name + "'");
        }
        yield Strategy.engine(name, engine);
      }
    };
  }

  /** The oracle's shadows in a run of the strategies {@code run}: each of them but no memory and the oracle. */
  static List<Strategy> shadows(List<String> run) {
    return run.stream()
        .filter(n -> !n.equals("no-memory") && !n.equals(Headline.CEILING))
        .map(n -> strategy(n, null))
        .toList();
  }

  static void closeIfCloseable(Environment env) {
    if (!(env instanceof AutoCloseable c)) {
      return;
    }
    try {
      c.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing environment: " + e, e);
    }
  }
}
