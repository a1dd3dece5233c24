package io.memloop.cli;

import io.memloop.server.Json;
import io.memloop.bench.Demo;
import io.memloop.bench.DemoOptions;
import io.memloop.bench.DemoReport;
import io.memloop.bench.LearningCurve;
import io.memloop.embeddings.MiniLmEmbedder;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "demo",
    description = "Runtime learning in action: recurring tasks with look-alike distractors, a few epochs of no memory, "
        + "similarity RAG, MemRL and the default preset, per-epoch success. Uses the in-process model; writes nothing to disk.")
final class DemoCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of task generation and the frozen policy (default: 1).")
  long seed = DemoOptions.defaults().seed();

  @Option(names = "--epochs", paramLabel = "N", description = "Passes over the task list (default: 8).")
  int epochs = DemoOptions.defaults().epochs();

  @Option(names = "--families", paramLabel = "N", description = "Task families (default: 20).")
  int families = DemoOptions.defaults().families();

  @Option(names = "--twins", paramLabel = "N", description = "Look-alike twin tasks per family (default: 3).")
  int twins = DemoOptions.defaults().twinsPerFamily();

  @Option(names = "--stale", paramLabel = "SHARE",
      description = "Share of tasks that start with a stale, misleading memory (default: 0.25).")
  double stale = DemoOptions.defaults().staleShare();

  @Option(names = "--json", description = "Print the learning curves as JSON.")
  boolean json;

  @Override
  public Integer call() {
    DemoOptions options = DemoOptions.defaults().withSeed(seed).withEpochs(epochs).withSize(families, twins).withStaleShare(stale);
    PrintWriter err = spec.commandLine().getErr();
    DemoReport report;
    try (MiniLmEmbedder model = MiniLmEmbedder.create()) {
      report = Demo.run(model, options, line -> {
        if (!json) {
          err.println(line);
          err.flush();
        }
      });
    }
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("environment", report.environment());
      o.put("options", options);
      o.put("model", report.modelId());
      o.put("curves", report.curves().stream().map(DemoCommand::curve).toList());
      out.println(Json.write(o));
    } else {
      out.print(report.toTable());
    }
    return 0;
  }

  private static Map<String, Object> curve(LearningCurve c) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("strategy", c.strategy());
    o.put("seed", c.seed());
    o.put("epochAccuracy", c.epochAccuracy());
    o.put("lastEpochAccuracy", c.lastEpochAccuracy());
    o.put("cumulativeSuccess", c.cumulativeSuccess());
    o.put("forgettingRate", c.forgettingRate().isPresent() ? c.forgettingRate().getAsDouble() : null);
    o.put("memories", c.memoryCounts());
    return o;
  }
}
