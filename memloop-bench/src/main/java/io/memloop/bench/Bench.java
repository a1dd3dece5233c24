package io.memloop.bench;

import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code memloop bench}: every strategy on every environment over several seeds, under common random
 * numbers (each episode's randomness depends only on seed, epoch and task), with the metrics of the
 * research digest. Strategies never read ground truth, except the oracle.
 *
 * <p>The embedder is borrowed (not closed). Everything runs on in-memory stores.
 */
public final class Bench {
  private Bench() {}

  /** Progress: one call per learning epoch of any run, and a line at each phase. */
  public interface Listener {
    void epochDone(String environment, String strategy, long seed, int epoch, double accuracy);

    default void phase(String message) {}
  }

  public static BenchReport run(Embedder embedder, BenchOptions options, Listener listener) {
    long started = System.nanoTime();
    List<EnvironmentSummary> summaries = new ArrayList<>();
    List<BenchReport.Run> runs = new ArrayList<>();
    for (String envName : options.environments()) {
      EnvironmentFactory factory = EnvironmentCatalog.named(envName);
      Map<String, List<LearningCurve>> curves = new LinkedHashMap<>();
      options.strategies().forEach(s -> curves.put(s, new ArrayList<>()));
      int tasks = 0;
      int heldOut = 0;
      for (long seed : options.seeds()) {
        Environment env = factory.create(seed, options.size());
        try {
          tasks = env.tasks().size();
          heldOut = env.heldOut().size();
          listener.phase(envName + " seed " + seed + ": embedding " + (tasks + heldOut) + " task intents");
          IntentEmbeddings embeddings = IntentEmbeddings.of(embedder, env);
          LearningLoop loop = new LearningLoop(env, embeddings, options.epochs());
          for (String name : options.strategies()) {
            Strategy strategy = strategy(name, env);
            int[] epoch = {0};
            RunResult run = loop.run(strategy, seed,
                acc -> listener.epochDone(envName, name, seed, ++epoch[0], acc));
            runs.add(new BenchReport.Run(envName, run));
            curves.get(name).add(Metrics.curve(run));
          }
        } finally {
          if (env instanceof AutoCloseable c) {
            close(c);
          }
        }
      }
      List<StrategySummary> strategies = new ArrayList<>();
      curves.forEach((name, list) -> strategies.add(StrategySummary.of(name, list)));
      summaries.add(new EnvironmentSummary(envName, tasks, heldOut, strategies));
    }
    return new BenchReport(options, embedder.modelId(), summaries, runs, (System.nanoTime() - started) / 1e9);
  }

  static Strategy strategy(String name, Environment env) {
    return switch (name) {
      case "no-memory" -> Strategy.noMemory();
      case "similarity" -> Strategy.preset(Preset.SIMILARITY);
      case "memp" -> Strategy.memp();
      case "memrl" -> Strategy.preset(Preset.MEMRL);
      case "default" -> Strategy.preset(Preset.DEFAULT);
      case "oracle" -> {
        if (!(env instanceof GroundTruth truth)) {
          throw MemLoopException.invalid("strategies", "environment " + env.name() + " has no ground truth for the oracle");
        }
        yield Strategy.oracle(truth);
      }
      default -> throw MemLoopException.invalid("strategies", "unknown strategy '" + name + "'");
    };
  }

  private static void close(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      throw new IllegalStateException("closing environment: " + e, e);
    }
  }
}
