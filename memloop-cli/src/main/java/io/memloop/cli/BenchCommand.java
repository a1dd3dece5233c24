package io.memloop.cli;

import io.memloop.Checks;
import io.memloop.MemLoopException;
import io.memloop.bench.Bench;
import io.memloop.bench.BenchData;
import io.memloop.bench.BenchOptions;
import io.memloop.bench.BenchReport;
import io.memloop.bench.StreamBench;
import io.memloop.bench.StreamData;
import io.memloop.bench.StreamOptions;
import io.memloop.bench.StreamReport;
import io.memloop.bench.StreamReportWriter;
import io.memloop.bench.StreamShape;
import io.memloop.bench.strategy.RunStore;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Policy;
import io.memloop.bench.llm.TranscriptWriter;
import io.memloop.chat.ChatModel;
import io.memloop.embeddings.OpenAiChatModel;
import io.memloop.bench.ReportWriter;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.ConcatenatedEmbedder;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.MiniLmEmbedder;
import io.memloop.store.lucene.VectorFormat;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import me.tongfei.progressbar.DelegatingProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "bench",
    description = "The runtime-learning benchmark: every strategy (no memory, plain RAG baselines, MemRL's similarity "
        + "RAG, MemP-like, MemRL, MemLoop default, oracle) on every environment over several seeds; the findings and a "
        + "Markdown summary on stdout, a report folder (index.html, summary.json, raw episodes, charts). The full run takes "
        + "about 1.5 minutes on 2 cores.")
final class BenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--quick", description = "Small environments, 5 epochs: about 15 seconds on 2 cores.")
  boolean quick;

  @Option(names = "--stream",
      description = "Stream mode instead of epochs: every episode a task instance never seen before, of recurring kinds,"
          + " with a drift halfway (a third of the kinds' right procedure or answer changes); reports first-encounter"
          + " success, its curve per 100 episodes, cumulative regret against the oracle, episodes to recover after the"
          + " drift and memory growth, with MemLoop default against each baseline (paired 95 %% intervals). Strategies by"
          + " default: no-memory, rag, rag-k5, recent, similarity, memrl, default, oracle. Frozen policy only.")
  boolean stream;

  @Option(names = "--stream-length", paramLabel = "N",
      description = "With --stream: episodes per run, 100 to 100000 (default: " + StreamShape.DEFAULT_LENGTH + ").")
  @Nullable Integer streamLength;

  @Option(names = "--drift-at", paramLabel = "F",
      description = "With --stream: where the drift happens, as a fraction of the stream in (0, 1) (default: 0.5).")
  @Nullable String driftAt;

  @Option(names = "--seeds", paramLabel = "N,N,...", split = ",",
      description = "Seeds (default: 1001-1005; 1-10 were used while developing the environments).")
  @Nullable List<Long> seeds;

  @Option(names = "--epochs", paramLabel = "N", description = "Epochs (default: 10, or 5 with --quick).")
  @Nullable Integer epochs;

  @Option(names = "--env", paramLabel = "NAME,...", split = ",", description = "Environments (default: all).")
  @Nullable List<String> environments;

  @Option(names = "--strategies", paramLabel = "NAME,...", split = ",",
      description = "Strategies (default: no-memory, rag, rag-k5, rag-success, recent, similarity, memp, memrl,"
          + " default, oracle; with --stream no-memory, rag, rag-k5, rag-k8, rag-hybrid-k8, recent, similarity, memrl, default, oracle)."
          + " Also rag-kN (plain RAG showing N, 1 to 50), the ablations of BENCHMARKS.md (default-no-exploration,"
          + " ...), and any engine strategy with knobs changed after colons, named as in docs/configuration.md:"
          + " default:exploreBudget=8:k2=5.")
  @Nullable List<String> strategies;

  @Option(names = "--slip", paramLabel = "P",
      description = "Outcome noise: every frozen policy's chance of ignoring what it is shown and guessing, in"
          + " [0, 0.5] (default: each environment's, 0.05). A real agent is stochastic; learning from outcomes"
          + " matters more the noisier they are.")
  @Nullable String slip;

  @Option(names = "--knob", paramLabel = "ENV.NAME=VALUE",
      description = "Runs an environment with one of its knobs changed, to check that results hold on variants of it"
          + " (repeatable; each environment's knob names: recurring-ops families, twinsPerFamily, staleShare, heldOut;"
          + " sql tasks, distractorShare, heldOut; text-world houses, goalsPerHouse, rooms, spareSteps, heldOut;"
          + " hard-questions questions, duplicateShare, heldOut). Example: --knob text-world.rooms=9.")
  @Nullable List<String> knobs;

  @Option(names = "--store", paramLabel = "memory|lucene", defaultValue = "memory",
      description = "Where the engine's runs keep their memories: memory (default, fast) or lucene (the embedded store"
          + " serve uses, in a temporary directory per run, every reward synced to disk), to check that a store leaves"
          + " the learning as it is.")
  String storeName = "memory";

  @Option(names = "--vector-format", paramLabel = "FORMAT",
      description = "With --store lucene: the index's vector format: float32 (default), int8, int7, int4, bbq2 or bbq1"
          + " (BENCHMARKS.md, \"Quantized vectors\").")
  @Nullable String vectorFormat;

  @Option(names = "--embedder", paramLabel = "MODEL", defaultValue = "minilm",
      description = "Intent embeddings: minilm (in-process all-MiniLM-L6-v2, default), hashing (lexical feature"
          + " hashing, no model: a very different similarity scale, to check that nothing depends on one model) or"
          + " minilm+hashing (both, concatenated: the engine learns per namespace which to trust).")
  String embedderName = "minilm";

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "bench-report",
      description = "Report folder (default: ${DEFAULT-VALUE}).")
  Path out = Path.of("bench-report");

  @Option(names = "--no-progress", description = "No progress bar (it is drawn on stderr).")
  boolean noProgress;

  @Option(names = "--policy", paramLabel = "frozen|openai", defaultValue = "frozen",
      description = "Who attempts the tasks: the environments' frozen scripted policies (default), or a language "
          + "model over an OpenAI-compatible chat endpoint (needs --base-url and --model; the API key, if any, from "
          + "MEMLOOP_OPENAI_API_KEY). Conversations go to transcripts.jsonl in the report folder.")
  String policy = "frozen";

  @Option(names = "--base-url", paramLabel = "URL",
      description = "Chat server, without /v1: http://localhost:11434 (Ollama), http://localhost:8000 (vLLM), "
          + "https://api.openai.com (with --policy openai).")
  @Nullable String baseUrl;

  @Option(names = "--model", paramLabel = "NAME", description = "Chat model name, e.g. qwen2.5:7b (with --policy openai).")
  @Nullable String model;

  @Option(names = "--temperature", paramLabel = "T", description = "Sampling temperature, 0 to 2 (default: 0).")
  @Nullable Double temperature;

  @Option(names = "--max-tokens", paramLabel = "N", description = "Most tokens per reply (default: 512).")
  @Nullable Integer maxTokens;

  @Option(names = "--timeout", paramLabel = "SECONDS", description = "Per request attempt (default: 60).")
  @Nullable Integer timeoutSeconds;

  @Option(names = "--max-retries", paramLabel = "N",
      description = "Retries of a failed request (HTTP 408/429/5xx, I/O errors, timeouts) with backoff (default: 3).")
  @Nullable Integer maxRetries;

  @Option(names = "--format-retries", paramLabel = "N",
      description = "Corrections after an unreadable reply before the decision counts as failed (default: 2).")
  @Nullable Integer formatRetries;

  @Option(names = "--parallel", paramLabel = "N",
      description = "Runs at a time (default: one per processor with the frozen policy, 1 with --policy openai: "
          + "raise it to what the chat server serves concurrently). Results do not depend on it.")
  @Nullable Integer parallel;

  @Option(names = "--extract",
      description = "With --policy openai: distil each episode (the conversation and its result) with the same model into "
          + "the experience that is remembered — a script for a success, a reflection for a failure (prompts "
          + "success-v1/failure-v1) — instead of the environment's own summary; kept raw when the model gives nothing usable.")
  boolean extract;

  @Option(names = "--ope-validation",
      description = "Instead of the benchmark: check off-policy evaluation against the benchmark's truth (a memrl run with "
          + "exploration is logged; each candidate's success is estimated from the log and compared with its counterfactual "
          + "and online success). Writes ope-validation.md and the event logs (ope-logs/) to --out.")
  boolean opeValidation;

  @Option(names = "--ope-epsilon", paramLabel = "EPSILON", defaultValue = "0.2",
      description = "The logging policy's exploration for --ope-validation (default: ${DEFAULT-VALUE}).")
  String opeEpsilon;

  /** {@code --knob} values as environment → knob → value; each ENV.NAME=VALUE, each knob once. */
  static Map<String, Map<String, String>> knobOverrides(List<String> values) {
    Map<String, Map<String, String>> out = new LinkedHashMap<>();
    for (String v : values) {
      int eq = v.indexOf('=');
      int dot = eq < 0 ? -1 : v.lastIndexOf('.', eq);
      if (dot <= 0 || dot == eq - 1 || eq == v.length() - 1) {
        throw MemLoopException.invalid("--knob", "expected ENV.NAME=VALUE such as text-world.rooms=9, got '"
            + Text.printable(Checks.abbreviate(v)) + "'");
      }
      String env = v.substring(0, dot);
      String name = v.substring(dot + 1, eq);
      if (out.computeIfAbsent(env, e -> new LinkedHashMap<>()).putIfAbsent(name, v.substring(eq + 1)) != null) {
        throw MemLoopException.invalid("--knob", Text.printable(Checks.abbreviate(env + "." + name)) + " is given twice");
      }
    }
    return out;
  }

  private Embedder benchEmbedder() {
    return switch (embedderName) {
      case "minilm" -> MiniLmEmbedder.create();
      case "hashing" -> new HashingEmbedder();
      case "minilm+hashing" -> new ConcatenatedEmbedder(List.of(MiniLmEmbedder.create(), new HashingEmbedder()));
      default -> throw MemLoopException.invalid("--embedder", "unknown model '" + Text.printable(embedderName)
          + "' (expected minilm, hashing or minilm+hashing)");
    };
  }

  @Override
  public Integer call() {
    if (!stream) {
      if (streamLength != null) {
        throw MemLoopException.invalid("--stream-length", "only applies with --stream");
      }
      if (driftAt != null) {
        throw MemLoopException.invalid("--drift-at", "only applies with --stream");
      }
    } else if (epochs != null) {
      throw MemLoopException.invalid("--epochs", "does not apply with --stream (a stream plays each instance once;"
          + " its length is --stream-length)");
    }
    BenchOptions options = quick ? BenchOptions.quick() : BenchOptions.full();
    if (stream) {
      options = options.withStrategies(StreamOptions.STRATEGIES);
    }
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
    if (slip != null) {
      double p = Checks.parseDecimal(slip, "--slip");
      if (!(p >= 0 && p <= BenchOptions.MAX_SLIP)) {
        throw MemLoopException.invalid("--slip", "must be in [0, " + BenchOptions.MAX_SLIP + "], got " + slip);
      }
      options = options.withSlip(p);
    }
    if (knobs != null) {
      options = options.withKnobs(knobOverrides(knobs));
    }
    options = options.withStore(runStore());
    PrintWriter err = spec.commandLine().getErr();
    boolean llm = switch (policy) {
      case "frozen" -> false;
      case "openai" -> true;
      default -> throw MemLoopException.invalid("--policy", "must be frozen or openai, got '" + policy + "'");
    };
    if (!llm) {
      rejectLlmOnly();
    }
    int runsAtOnce = parallel != null ? parallel : llm ? 1 : Runtime.getRuntime().availableProcessors();
    if (runsAtOnce < 1 || runsAtOnce > 256) {
      throw MemLoopException.invalid("--parallel", "must be in [1, 256], got " + runsAtOnce);
    }
    if (stream) {
      if (llm) {
        throw MemLoopException.invalid("--policy", "--stream runs the frozen policy only (the environments' streams have"
            + " no language-model attempt); drop --policy openai");
      }
      if (opeValidation) {
        throw MemLoopException.invalid("--ope-validation", "does not apply with --stream");
      }
      return stream(options, runsAtOnce, err);
    }
    if (opeValidation) {
      if (!options.store().inMemory()) {
        throw MemLoopException.invalid("--store", "does not apply with --ope-validation (its logging runs keep their memories in memory)");
      }
      if (llm || strategies != null) {
        throw MemLoopException.invalid("--ope-validation", "runs the frozen policy and its own candidates: drop --policy openai and --strategies");
      }
      return opeValidation(options, err);
    }
    BenchReport report;
    try (ChatModel chat = llm ? chatModel() : null;
        TranscriptWriter transcripts = llm ? transcripts() : null;
        Embedder embedder = benchEmbedder();
        Progress progress = progress(options.totalEpochs(), "epochs", err)) {
      Policy p = chat == null ? Policy.FROZEN
          : new LlmPolicy(chat, formatRetries == null ? LlmPolicy.DEFAULT_FORMAT_RETRIES : formatRetries, transcripts,
              extract ? new io.memloop.history.extraction.LlmExperienceExtractor(chat) : null);
      report = Bench.run(embedder, options, p, runsAtOnce, listener(progress));
    }
    Path index;
    try {
      BenchData.write(report, out);
      index = ReportWriter.write(report, out);
    } catch (java.io.UncheckedIOException e) {
      throw MemLoopException.invalid("--out", e.getMessage());
    }
    spec.commandLine().getOut().print(report.toText());
    err.printf(Locale.ROOT, "report: %s (charts, summary.json, episodes.jsonl, episodes.csv%s)%n",
        index.toAbsolutePath().normalize(), llm ? ", " + TranscriptWriter.FILE_NAME : "");
    return 0;
  }

  /** Progress of every run's epochs (or stream windows) on {@code progress}. */
  private static Bench.Listener listener(Progress progress) {
    return new Bench.Listener() {
      @Override
      public void epochDone(String environment, String strategy, long seed, int epoch, double accuracy) {
        progress.step(String.format(Locale.ROOT, "%s %s seed %d", environment, strategy, seed));
      }

      @Override
      public void phase(String message) {
        progress.message(message);
      }
    };
  }

  /** {@code --store} and {@code --vector-format}; an error names the option. */
  private RunStore runStore() {
    switch (storeName) {
      case "memory" -> {
        if (vectorFormat != null) {
          throw MemLoopException.invalid("--vector-format", "only applies with --store lucene");
        }
        return RunStore.MEMORY;
      }
      case "lucene" -> {
        return RunStore.lucene(vectorFormat == null ? VectorFormat.DEFAULT : VectorFormat.parse("--vector-format", vectorFormat));
      }
      default -> throw MemLoopException.invalid("--store", "must be memory or lucene, got '"
          + Text.printable(Checks.abbreviate(storeName)) + "'");
    }
  }

  /** {@code --stream}: the stream mode over {@code options}' seeds, size, environments and strategies. */
  private int stream(BenchOptions options, int runsAtOnce, PrintWriter err) {
    StreamOptions so = new StreamOptions(options, shape(), environments != null);
    StreamReport report;
    try (Embedder embedder = benchEmbedder();
        Progress progress = progress((long) so.windows() * options.seeds().size() * options.environments().size()
            * options.strategies().size(), "windows", err)) {
      report = StreamBench.run(embedder, so, runsAtOnce, listener(progress));
    }
    Path index;
    try {
      StreamData.write(report, out);
      index = StreamReportWriter.write(report, out);
    } catch (java.io.UncheckedIOException e) {
      throw MemLoopException.invalid("--out", e.getMessage());
    }
    spec.commandLine().getOut().print(report.toText());
    err.printf(Locale.ROOT, "report: %s (charts, summary.json, episodes.jsonl, episodes.csv)%n",
        index.toAbsolutePath().normalize());
    return 0;
  }

  /** The stream's shape from {@code --stream-length} and {@code --drift-at}; an error names the option. */
  private StreamShape shape() {
    StreamShape d = StreamShape.defaults();
    double at = driftAt == null ? d.driftAt() : Checks.parseDecimal(driftAt, "--drift-at");
    try {
      return new StreamShape(streamLength == null ? d.length() : streamLength, at, d.driftedShare());
    } catch (MemLoopException e) {
      String option = e.field().equals("streamLength") ? "--stream-length" : e.field().equals("driftAt") ? "--drift-at" : e.field();
      throw MemLoopException.invalid(option, e.getMessage().substring(e.field().length() + 2));
    }
  }

  private int opeValidation(BenchOptions options, PrintWriter err) {
    double eps = Checks.parseDecimal(opeEpsilon, "--ope-epsilon");
    io.memloop.bench.OpeValidation.Result r;
    try (Embedder embedder = benchEmbedder()) {
      r = io.memloop.bench.OpeValidation.run(embedder, options, eps, io.memloop.bench.OpeValidation.defaultCandidates(),
          out.resolve("ope-logs"), new Bench.Listener() {
            @Override
            public void epochDone(String environment, String strategy, long seed, int epoch, double accuracy) {}

            @Override
            public void phase(String message) {
              if (!noProgress) {
                err.println(message);
                err.flush();
              }
            }
          });
    }
    String md = io.memloop.bench.OpeValidation.markdown(r);
    try {
      java.nio.file.Files.createDirectories(out);
      java.nio.file.Files.writeString(out.resolve("ope-validation.md"), md);
    } catch (java.io.IOException e) {
      throw MemLoopException.invalid("--out", "cannot write " + out + ": " + e.getMessage());
    }
    spec.commandLine().getOut().print(md);
    return 0;
  }

  private void rejectLlmOnly() {
    Map<String, @Nullable Object> llmOnly = new LinkedHashMap<>();
    llmOnly.put("--base-url", baseUrl);
    llmOnly.put("--model", model);
    llmOnly.put("--temperature", temperature);
    llmOnly.put("--max-tokens", maxTokens);
    llmOnly.put("--timeout", timeoutSeconds);
    llmOnly.put("--max-retries", maxRetries);
    llmOnly.put("--format-retries", formatRetries);
    llmOnly.put("--extract", extract ? Boolean.TRUE : null);
    llmOnly.forEach((option, value) -> {
      if (value != null) {
        throw MemLoopException.invalid(option, "only applies with --policy openai");
      }
    });
  }

  private ChatModel chatModel() {
    if (baseUrl == null) {
      throw MemLoopException.invalid("--base-url", "is required with --policy openai, e.g. http://localhost:11434");
    }
    if (model == null) {
      throw MemLoopException.invalid("--model", "is required with --policy openai, e.g. qwen2.5:7b");
    }
    OpenAiChatModel.Builder b;
    try {
      b = OpenAiChatModel.builder().baseUrl(baseUrl).model(model).apiKey(System.getenv("MEMLOOP_OPENAI_API_KEY"));
      if (temperature != null) {
        b.temperature(temperature);
      }
      if (maxTokens != null) {
        b.maxTokens(maxTokens);
      }
      if (timeoutSeconds != null) {
        if (timeoutSeconds < 1) {
          throw MemLoopException.invalid("--timeout", "must be at least 1 second, got " + timeoutSeconds);
        }
        b.requestTimeout(Duration.ofSeconds(timeoutSeconds));
      }
      if (maxRetries != null) {
        b.maxRetries(maxRetries);
      }
    } catch (MemLoopException e) {
      throw MemLoopException.invalid(OPTION_OF.getOrDefault(e.field(), e.field()), e.getMessage()
          .substring(e.field().isEmpty() ? 0 : e.field().length() + 2));
    }
    if (formatRetries != null && (formatRetries < 0 || formatRetries > 10)) {
      throw MemLoopException.invalid("--format-retries", "must be in [0, 10], got " + formatRetries);
    }
    return b.build();
  }

  /** The client's field names as this command's options, so an error names what the user typed. */
  private static final Map<String, String> OPTION_OF = Map.of(
      "baseUrl", "--base-url", "model", "--model", "apiKey", "MEMLOOP_OPENAI_API_KEY", "temperature", "--temperature",
      "maxTokens", "--max-tokens", "requestTimeout", "--timeout", "maxRetries", "--max-retries");

  private TranscriptWriter transcripts() {
    try {
      return TranscriptWriter.create(out.resolve(TranscriptWriter.FILE_NAME));
    } catch (java.io.UncheckedIOException e) {
      throw MemLoopException.invalid("--out", e.getMessage());
    }
  }

  /**
   * How far the run is, on stderr: a bar redrawn in place where stderr is a terminal (its width from
   * {@code COLUMNS}, else 80), one plain line per tenth of the run where it is a file or a pipe (no
   * carriage-return frames in logs), nothing with {@code --no-progress}.
   */
  private Progress progress(long total, String unit, PrintWriter err) {
    if (noProgress) {
      return new Progress() {};
    }
    if (!Terminal.stderrIsTerminal()) {
      return new Progress() {
        long done;
        int tenth;

        @Override
        public synchronized void step(String what) {
          done++;
          int now = (int) (10 * done / Math.max(1, total));
          if (now > tenth) {
            tenth = now;
            err.printf(Locale.ROOT, "bench: %3d%% (%d/%d %s) %s%n", 10 * now, done, total, unit, what);
            err.flush();
          }
        }

        @Override
        public void message(String message) {
          err.println("bench: " + message);
          err.flush();
        }
      };
    }
    ProgressBar bar = new ProgressBarBuilder()
        .setTaskName("bench")
        .setInitialMax(total)
        .setStyle(ProgressBarStyle.ASCII)
        .setUnit(" " + unit, 1)
        .showSpeed()
        .setConsumer(new DelegatingProgressBarConsumer(line -> {
          err.print('\r');
          err.print(line);
          err.flush();
        }, Terminal.columns() - 1))
        .build();
    return new Progress() {
      @Override
      public void step(String what) {
        bar.setExtraMessage(" " + what);
        bar.step();
      }

      @Override
      public void message(String message) {
        bar.setExtraMessage(" " + message);
      }

      @Override
      public void close() {
        bar.close();
        err.println();
        err.flush();
      }
    };
  }

  /** The run's progress display; the default does nothing. */
  interface Progress extends AutoCloseable {
    default void step(String what) {}

    default void message(String message) {}

    @Override
    default void close() {}
  }
}
