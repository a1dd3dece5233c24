package io.memloop.cli;

import io.memloop.Checks;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.solr.SolrStoreOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** Options every engine command shares: where the store is, which config, which model, output. */
final class EngineOptions {
  @Option(names = "--store", paramLabel = "DIR|solr://...", defaultValue = "./memloop-data",
      description = "Where the memories live: a directory for the embedded store (default: ${DEFAULT-VALUE}), or a "
          + "SolrCloud collection: solr://zkhost:2181[,zkhost2:2181][/chroot]/COLLECTION or "
          + "solr+http://solrhost:8983/COLLECTION (README, \"Scale-out on SolrCloud\").")
  String store = "./memloop-data";

  /** Whether {@code --store} names a SolrCloud collection rather than a directory. */
  boolean isSolrStore() {
    return SolrStoreOptions.isSolrLocation(store);
  }

  /** {@code --store} as a directory (callers check {@link #isSolrStore} first). */
  Path storePath() {
    return Path.of(store);
  }

  /** {@code --store} as messages show it: the absolute directory, or the Solr location without its parameters. */
  String storeLabel() {
    return isSolrStore() ? SolrStoreOptions.parse(store, "--store").location() : storePath().toAbsolutePath().normalize().toString();
  }

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS", defaultValue = "default",
      description = "Namespace (tenant) to work in (default: ${DEFAULT-VALUE}).")
  String namespace = "default";

  @Option(names = "--preset", paramLabel = "NAME",
      description = "Config preset: default, memrl or similarity. A namespace keeps the configuration it was first "
          + "used with; without --preset and --set a command uses that one, with them it must match (or --reconfigure).")
  @Nullable String preset;

  @Option(names = "--reconfigure",
      description = "Record --preset/--set as the namespace's configuration, replacing the recorded one.")
  boolean reconfigure;

  @Option(names = "--set", paramLabel = "KNOB=VALUE", completionCandidates = KnobNames.class,
      description = "Override one knob of the preset (repeatable, each knob once; the order does not matter; each "
          + "knob's type, bounds, preset values and conflicts are in docs/configuration.md), e.g. --set k1=10 --set "
          + "exploration=EPSILON_GREEDY --set epsilon=0.1. KNOB is one of ${COMPLETION-CANDIDATES}.")
  List<String> overrides = new ArrayList<>();

  /** The names {@code --set} takes, from the knob table (for the help text and shell completion). */
  static final class KnobNames implements Iterable<String> {
    @Override
    public java.util.Iterator<String> iterator() {
      return MemLoopConfig.KNOBS.iterator();
    }
  }

  @Option(names = "--json", description = "Print JSON instead of text.")
  boolean json;

  @Option(names = "--embedder", paramLabel = "MODEL", defaultValue = "minilm",
      description = "Embedding model for text intents: minilm (in-process), openai (any OpenAI-compatible "
          + "server), hashing (feature hashing of words, no model: for tests and quick trials), minilm+hashing (both "
          + "at once, 768-d: each namespace learns from its rewards which one to trust) or none "
          + "(default: ${DEFAULT-VALUE}).")
  String embedder = "minilm";

  @Option(names = "--openai-base-url", paramLabel = "URL",
      description = "Base URL of the OpenAI-compatible server, e.g. http://localhost:11434 (with --embedder openai).")
  @Nullable String openAiBaseUrl;

  @Option(names = "--openai-model", paramLabel = "NAME", description = "Embedding model name (with --embedder openai).")
  @Nullable String openAiModel;

  @Option(names = "--openai-dimension", paramLabel = "N", description = "Dimension of that model's vectors (with --embedder openai).")
  @Nullable Integer openAiDimension;

  @Option(names = "--dimension", paramLabel = "N",
      description = "Dimension of a NEW store (default: the embedding model's, or the first supplied embedding's).")
  @Nullable Integer dimension;

  @Option(names = "--vector-format", paramLabel = "FORMAT",
      description = "How the embedded store's vector index holds vectors: float32 (the default for new stores), int8, "
          + "int7, int4, bbq2 or bbq1 (quantized: a smaller graph to search, candidates rescored exactly). A store keeps "
          + "the format it was created with; naming another rewrites its index in it once (BENCHMARKS.md, \"Quantized "
          + "vectors\").")
  @Nullable String vectorFormat;

  /** The command these options are mixed into: for notices on its stderr. */
  @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE) picocli.CommandLine.Model.@Nullable CommandSpec mixee;

  /** Prints {@code memloop: <line>} on the command's stderr (not its output, which may be JSON). */
  void notice(String line) {
    if (mixee != null) {
      java.io.PrintWriter err = mixee.commandLine().getErr();
      err.println("memloop: " + line);
      err.flush();
    }
  }

  @Option(names = "--lock-timeout", paramLabel = "SECONDS", defaultValue = "10",
      description = "How long to wait while another process uses the store (default: ${DEFAULT-VALUE}; 0 fails at once).")
  String lockTimeout = "10";

  @Option(names = "--event-log", paramLabel = "DIR",
      description = "Append every retrieval, reward, remembered and forgotten memory to JSON Lines files in DIR "
          + "(the execution history; format: docs/event-log.md).")
  @Nullable Path eventLog;

  @Option(names = "--event-log-embeddings", description = "Log each retrieval's query embedding too (about 4 KB per retrieval at 384-d).")
  boolean eventLogEmbeddings;

  /**
   * Whether the engine learns in the background ({@link MemLoop.Builder#learnInBackground}): set by the commands that
   * serve requests for a while (serve, mcp), where a reward's latency matters more than the same selections from the
   * same calls; not a flag.
   */
  boolean learnInBackground;

  /** An engine builder with these flags' configuration choice (see {@link MemLoop#config(String)}). */
  MemLoop.Builder engineBuilder(MemLoopConfig config) {
    MemLoop.Builder b = MemLoop.builder();
    if (learnInBackground) {
      b.learnInBackground();
    }
    if (explicitConfig()) {
      b.config(config);
    }
    if (reconfigure) {
      b.reconfigure();
    }
    return b;
  }

  /** The event log {@code --event-log} asks for (opened now: the caller closes it, or the engine it is given to). */
  io.memloop.events.EventSink eventSink() {
    if (eventLog == null) {
      return io.memloop.events.EventSink.NONE;
    }
    checkEventLog();
    return new io.memloop.history.JsonlEventLog(eventLog, 64L << 20, eventLogEmbeddings);
  }

  /** {@code --event-log}, when given, names a directory or a path where one can be made. */
  void checkEventLog() {
    if (eventLog != null && (eventLog.toString().isBlank()
        || (java.nio.file.Files.exists(eventLog) && !java.nio.file.Files.isDirectory(eventLog)))) {
      throw MemLoopException.invalid("--event-log", "must name a directory, got '" + eventLog + "'");
    }
  }

  /** The store options these flags ask for. */
  LuceneStoreOptions storeOptions() {
    double seconds = Checks.parseDecimal(lockTimeout, "--lock-timeout");
    if (!(seconds >= 0 && seconds <= 3600)) {
      throw MemLoopException.invalid("--lock-timeout", "must be in [0, 3600] seconds, got " + lockTimeout);
    }
    return LuceneStoreOptions.builder().lockTimeout(Duration.ofMillis(Math.round(seconds * 1000)))
        .vectorFormat(vectorFormat == null ? null : io.memloop.store.lucene.VectorFormat.parse("--vector-format", vectorFormat))
        .build();
  }

  /** Whether the command names a configuration (--preset or --set) rather than using the recorded one. */
  boolean explicitConfig() {
    return preset != null || !overrides.isEmpty();
  }

  /** The preset's name as given, or the default's. */
  String presetName() {
    return preset != null ? preset : Preset.DEFAULT.id();
  }

  MemLoopConfig config() {
    if (reconfigure && !explicitConfig()) {
      throw MemLoopException.invalid("--reconfigure", "needs the new configuration: give --preset and/or --set");
    }
    MemLoopConfig.Builder b = MemLoopConfig.preset(Preset.parse(presetName())).toBuilder();
    java.util.Map<String, String> given = new java.util.HashMap<>(); // knob (an alias as its knob) -> KNOB=VALUE
    for (String o : overrides) {
      int eq = o.indexOf('=');
      if (eq <= 0) {
        throw MemLoopException.invalid("--set", "expected KNOB=VALUE, got '" + Text.printable(Checks.abbreviate(o)) + "'");
      }
      String name = o.substring(0, eq);
      b.set(name, o.substring(eq + 1)); // an unknown knob or a bad value fails here, naming the knob
      String knob = io.memloop.Knob.named(name).map(io.memloop.Knob::key).orElse(name);
      String before = given.put(knob, o);
      if (before != null) {
        throw MemLoopException.invalid(knob, "is given twice (" + Text.printable(Checks.abbreviate(before)) + ", "
            + Text.printable(Checks.abbreviate(o)) + "); give each knob once");
      }
    }
    return b.build();
  }
}
