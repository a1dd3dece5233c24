package io.memloop.bench;

import io.memloop.Preset;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code memloop demo}: a small runtime-learning loop on the recurring-ops environment (recurring
 * tasks with verifiable outcomes, look-alike twin tasks whose answers differ, and stale memories
 * that look like the right experience but no longer work) run for a few epochs with no memory (the
 * floor) and the engine under the {@code similarity} and {@code memrl} presets.
 *
 * <pre>{@code
 * try (Embedder model = MiniLmEmbedder.create()) {
 *   DemoReport report = Demo.run(model, DemoOptions.defaults(), System.err::println);
 *   System.out.print(report.toTable());
 * }
 * }</pre>
 *
 * <p>The embedder is only borrowed: the demo does not close it. Each strategy starts from an empty
 * in-memory store; nothing is written to disk.
 */
public final class Demo {
  private Demo() {}

  /** The strategies the demo compares, in table order. */
  static List<Strategy> strategies() {
    return List.of(Strategy.noMemory(), Strategy.preset(Preset.SIMILARITY), Strategy.preset(Preset.MEMRL),
        Strategy.preset(Preset.DEFAULT));
  }

  public static DemoReport run(Embedder embedder, DemoOptions options) {
    return run(embedder, options, line -> {});
  }

  /**
   * Runs the demo, reporting progress (one line per strategy as it starts, no results: those are the
   * report's) to {@code progress}.
   *
   * @throws io.memloop.MemLoopException {@code EMBEDDING_FAILED} if the embedder fails
   */
  public static DemoReport run(Embedder embedder, DemoOptions options, Consumer<String> progress) {
    RecurringTasksEnvironment env =
        RecurringTasksEnvironment.generate(
            options.seed(),
            new RecurringTasksEnvironment.Knobs(
                options.families(), options.twinsPerFamily(), options.staleShare(),
                RecurringTasksEnvironment.DEFAULT_SLIP));
    progress.accept("embedding " + env.tasks().size() + " task intents with " + embedder.modelId());
    IntentEmbeddings embeddings = IntentEmbeddings.of(embedder, env);
    LearningLoop loop = new LearningLoop(env, embeddings, options.epochs());
    List<LearningCurve> curves = new ArrayList<>();
    for (Strategy strategy : strategies()) {
      progress.accept(String.format(Locale.ROOT, "running %s: %d epochs", strategy.name(), options.epochs()));
      RunResult run = loop.run(strategy, options.seed(), accuracy -> {});
      curves.add(Metrics.curve(run));
    }
    return new DemoReport(env.name(), options, embedder.modelId(), curves);
  }
}
