package io.memloop.cli;

import io.memloop.MemLoopException;
import io.memloop.bench.Bench;
import io.memloop.bench.BenchData;
import io.memloop.bench.BenchOptions;
import io.memloop.bench.BenchReport;
import io.memloop.bench.ReportWriter;
import io.memloop.embeddings.MiniLmEmbedder;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "bench",
    description = "The runtime-learning benchmark: every strategy (no memory, similarity RAG, MemP-like, MemRL, "
        + "MemLoop default, oracle) on every environment over several seeds; a Markdown summary on stdout and a "
        + "report folder (summary.json, raw episodes, charts).")
final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--quick", description = "Small environments, 5 epochs: a few minutes on 2 cores.")
  boolean quick;

  @Option(names = "--seeds", paramLabel = "N,N,...", split = ",",
      description = "Seeds (default: 1001-1005; 1-10 were used while developing the environments).")
  @Nullable List<Long> seeds;

  @Option(names = "--epochs", paramLabel = "N", description = "Epochs (default: 10, or 5 with --quick).")
  @Nullable Integer epochs;

  @Option(names = "--env", paramLabel = "NAME,...", split = ",", description = "Environments (default: all).")
  @Nullable List<String> environments;

  @Option(names = "--strategies", paramLabel = "NAME,...", split = ",",
      description = "Strategies (default: no-memory, similarity, memp, memrl, default, oracle).")
  @Nullable List<String> strategies;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-report",
      description = "Report folder (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench-report");

  @Option(names = "--no-progress", description = "No progress bar (it is drawn on stderr).")
  boolean noProgress;

  @Override
  public Integer call() {
    BenchOptions options = quick ? BenchOptions.quick() : BenchOptions.full();
    if (seeds != null) {
      options = options.withSeeds(seeds);
    }
    if (epochs != null) {
      options = options.withEpochs(epochs);
    }
    if (environments != null) {
      options = options.withEnvironments(environments);
    }
    if (strategies != null) {
      options = options.withStrategies(strategies);
    }
    PrintWriter err = spec.commandLine().getErr();
    BenchReport report;
    try (MiniLmEmbedder model = MiniLmEmbedder.create(); ProgressBar bar = progressBar(options)) {
      report = Bench.run(model, options, new Bench.Listener() {
        @Override
        public void epochDone(String environment, String strategy, long seed, int epoch, double accuracy) {
          if (bar != null) {
            bar.setExtraMessage(String.format(Locale.ROOT, "%s %s seed %d", environment, strategy, seed));
            bar.step();
          }
        }

        @Override
        public void phase(String message) {
          if (bar != null) {
            bar.setExtraMessage(message);
          }
        }
      });
    }
    Path index;
    try {
      BenchData.write(report, out);
      index = ReportWriter.write(report, out);
    } catch (java.io.UncheckedIOException e) {
      throw MemLoopException.invalid("--out", e.getMessage());
    }
    spec.commandLine().getOut().print(report.toMarkdown());
    err.printf(Locale.ROOT, "report: %s (charts, summary.json, episodes.jsonl, episodes.csv)%n", index.toAbsolutePath().normalize());
    return 0;
  }

  private @Nullable ProgressBar progressBar(BenchOptions options) {
    if (noProgress) {
      return null;
    }
    return new ProgressBarBuilder()
        .setTaskName("bench")
        .setInitialMax(options.totalEpochs())
        .setStyle(ProgressBarStyle.ASCII)
        .setUnit(" epochs", 1)
        .showSpeed()
        .build();
  }
}
