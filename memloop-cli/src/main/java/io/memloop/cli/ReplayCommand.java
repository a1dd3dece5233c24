package io.memloop.cli;

import io.memloop.server.Json;
import io.memloop.Checks;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.embed.Embedder;
import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Runs a JSON Lines stream of episodes through a configuration: for each episode retrieve, reward
 * the selected memories with the episode's reward, remember the episode. The whole input is parsed
 * and validated before the first episode runs, so bad input changes no store.
 */
@Command(name = "replay",
    description = "Replay a JSON Lines file of episodes (docs/replay.md) through a configuration; writes one JSON line per episode.")
final class ReplayCommand implements Callable<Integer> {
  private static final int EMBED_BATCH = 64;

  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;

  @Option(names = {"-i", "--input"}, paramLabel = "FILE", required = true, description = "Episodes, JSON Lines; '-' for stdin.")
  String input;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Per-episode results, JSON Lines (default: stdout).")
  @Nullable Path output;

  @Option(names = "--persist",
      description = "Replay into the durable store at --store (kept afterwards). Default: a fresh in-memory store, so the "
          + "same input always gives the same output (above " + IN_MEMORY_LIMIT + " episodes, a temporary on-disk store: the "
          + "in-memory one searches linearly).")
  boolean persist;

  @Option(names = "--in-memory",
      description = "Keep the in-memory store (exact search, byte-identical output) whatever the input's size.")
  boolean inMemory;

  /** Above this many episodes a replay without --persist runs on a temporary LuceneStore (sublinear search). */
  static final int IN_MEMORY_LIMIT = 20_000;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed of exploration randomness (default: ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws IOException {
    // Everything is read and checked before anything is written: a bad line changes nothing.
    MemLoopConfig config = engine.config();
    LuceneStoreOptions options = engine.storeOptions();
    Checks.requireNamespace(engine.namespace);
    if (persist && inMemory) {
      throw MemLoopException.invalid("--in-memory", "cannot be combined with --persist");
    }
    Path dir = persist ? Session.storeDirectory(engine) : null;
    CliOutput.requireOutputIsNotInput(output, input);
    List<ReplayEpisode> episodes = read();
    Path scratch = null;
    if (!persist && !inMemory && episodes.size() > IN_MEMORY_LIMIT) {
      scratch = Files.createTempDirectory("memloop-replay-");
      spec.commandLine().getErr().printf(java.util.Locale.ROOT, "memloop: %d episodes: replaying on a temporary on-disk store "
          + "(HNSW search; --in-memory for exact, byte-identical replays, linear in the store's size)%n", episodes.size());
    }
    Embedder embedder = Session.embedder(engine);
    MemoryStore store = persist && LuceneStore.exists(dir) ? LuceneStore.open(dir, options) : null;
    MemLoop loop;
    io.memloop.events.EventSink events = io.memloop.events.EventSink.NONE;
    try {
      MemLoop probe = store == null ? null : engine.engineBuilder(config).store(store).build();
      for (ReplayEpisode e : episodes) {
        checkNamespace(e);
        checkReward(e, effectiveConfig(probe, e, config));
      }
      int dim = dimension(episodes, store, embedder);
      List<float[]> embeddings = embeddings(episodes, dim, embedder);
      if (store == null) {
        store = persist ? LuceneStore.open(dir, dim, options)
            : scratch != null ? LuceneStore.open(scratch, dim, options) : new InMemoryStore(dim);
      }
      events = engine.eventSink();
      // a replay that embeds texts holds that model's vectors: the engine checks (and records) it against the store's
      boolean embeds = episodes.stream().anyMatch(e -> e.embedding() == null);
      loop = engine.engineBuilder(config).store(store).embedder(embeds ? embedder : null).seed(seed).events(events).build();
      return run(loop, episodes, embeddings);
    } finally {
      try {
        events.close();
      } finally {
        try {
          if (store != null) {
            store.close();
          }
        } finally {
          if (scratch != null) {
            deleteTree(scratch);
          }
        }
      }
    }
  }

  private static void deleteTree(Path dir) {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary directory left behind is harmless; the OS cleans its temp area
    }
  }

  private int run(MemLoop loop, List<ReplayEpisode> episodes, List<float[]> embeddings) throws IOException {
    try (Writer out = writer()) {
      int successes = 0;
      for (int i = 0; i < episodes.size(); i++) {
        ReplayEpisode e = episodes.get(i);
        String ns = e.namespace() != null ? e.namespace() : engine.namespace;
        Intent intent = Intent.of(e.intent(), embeddings.get(i));
        Retrieval r = loop.retrieve(ns, intent);
        MemLoopConfig config = loop.config(ns);
        double reward = e.rewardWithin(config.rewardMin(), config.rewardMax());
        RewardResult rewarded = loop.reward(ns, r.id(), reward);
        Memory added = loop.remember(ns, intent, e.experience(), e.outcomeOr(reward), r.id());
        if (reward > 0) {
          successes++;
        }
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("episode", i + 1);
        row.put("line", e.line());
        row.put("namespace", ns);
        row.put("retrievalId", r.id());
        row.put("candidates", r.candidates().stream().map(Json::candidate).toList());
        row.put("selected", r.selected().stream().map(Memory::id).toList());
        row.put("reward", reward);
        row.put("updated", Json.changes(rewarded.changes()));
        row.put("memoryId", added.id());
        row.put("intentId", added.intentId());
        out.write(Json.write(row));
        out.write(System.lineSeparator());
        if (persist) {
          out.flush(); // each durable episode's line is out before the next one starts (docs/replay.md, "Crashes")
        }
      }
      spec.commandLine().getErr().printf(Locale.ROOT, "replayed %d episodes (%d with positive reward) under %s%n",
          episodes.size(), successes, engine.explicitConfig() ? "preset " + engine.presetName() : "the recorded configuration");
    }
    return 0;
  }

  /** The configuration {@code e}'s namespace will run under, read without recording anything. */
  private MemLoopConfig effectiveConfig(@Nullable MemLoop probe, ReplayEpisode e, MemLoopConfig requested) {
    return probe == null ? requested : probe.plannedConfig(e.namespace() != null ? e.namespace() : engine.namespace);
  }

  /** What the engine would reject mid-replay, rejected up front with the line. */
  private static void checkNamespace(ReplayEpisode e) {
    if (e.namespace() != null) {
      try {
        Checks.requireNamespace(e.namespace());
      } catch (MemLoopException ex) {
        throw ReplayEpisode.fail(e.line(), "namespace", ex.getMessage().substring("namespace: ".length()));
      }
    }
  }

  private static void checkReward(ReplayEpisode e, MemLoopConfig config) {
    double reward = e.rewardWithin(config.rewardMin(), config.rewardMax());
    if (reward < config.rewardMin() || reward > config.rewardMax()) {
      throw ReplayEpisode.fail(e.line(), "reward",
          "must be in [" + config.rewardMin() + ", " + config.rewardMax() + "], got " + reward);
    }
  }

  /**
   * The store's dimension: an existing store's; else --dimension; else the model's when some episode
   * needs embedding; else the first given embedding's.
   */
  private int dimension(List<ReplayEpisode> episodes, @Nullable MemoryStore existing, @Nullable Embedder embedder) {
    if (existing != null) {
      Session.requireDimension(engine, existing.dimension());
      return existing.dimension();
    }
    if (engine.dimension != null) {
      return engine.dimension;
    }
    boolean needsModel = episodes.stream().anyMatch(e -> e.embedding() == null);
    if (needsModel && embedder != null) {
      return embedder.dimension();
    }
    return episodes.stream().filter(e -> e.embedding() != null).findFirst().map(e -> e.embedding().length)
        .orElseThrow(() -> MemLoopException.invalid("--dimension",
            "is required when --embedder none and no episode has an embedding"));
  }

  /** Given embeddings checked against {@code dim}; the rest embedded in batches, before any write. */
  private static List<float[]> embeddings(List<ReplayEpisode> episodes, int dim, @Nullable Embedder embedder) {
    List<float[]> out = new ArrayList<>(episodes.size());
    List<Integer> missing = new ArrayList<>();
    for (ReplayEpisode e : episodes) {
      if (e.embedding() != null && e.embedding().length != dim) {
        throw ReplayEpisode.fail(e.line(), "embedding", "has " + e.embedding().length + " dimensions but the store holds " + dim + "-d vectors");
      }
      if (e.embedding() == null) {
        if (embedder == null || embedder.dimension() != dim) {
          throw ReplayEpisode.fail(e.line(), "intent", "cannot be embedded: the store holds " + dim + "-d vectors and "
              + (embedder == null ? "--embedder is none" : "the model gives " + embedder.dimension() + "-d vectors")
              + "; give this line an embedding, or use the --embedder the store was made with");
        }
        missing.add(out.size());
      }
      out.add(e.embedding());
    }
    for (int from = 0; from < missing.size(); from += EMBED_BATCH) {
      List<Integer> batch = missing.subList(from, Math.min(missing.size(), from + EMBED_BATCH));
      List<float[]> vectors = embedder.embedAll(batch.stream().map(i -> episodes.get(i).intent()).toList());
      for (int j = 0; j < batch.size(); j++) {
        out.set(batch.get(j), vectors.get(j));
      }
    }
    return out;
  }

  private List<ReplayEpisode> read() throws IOException {
    List<ReplayEpisode> out = new ArrayList<>();
    try (InputStream in = input()) {
      JsonLines.read(in, "--input", (line, node) -> out.add(ReplayEpisode.parse(line, node)));
    }
    return out;
  }

  private InputStream input() throws IOException {
    if (input.equals("-")) {
      return System.in;
    }
    Path p = Path.of(input);
    if (!Files.isRegularFile(p)) {
      throw MemLoopException.invalid("--input", "no such file: " + p);
    }
    return Files.newInputStream(p);
  }

  /** Where the per-episode lines go; a file's write errors (a full disk) fail the command instead of vanishing. */
  private Writer writer() throws IOException {
    if (output == null) {
      return new PrintWriter(spec.commandLine().getOut(), true) {
        @Override
        public void close() {
          flush(); // never close the command's stdout
        }
      };
    }
    return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(output), StandardCharsets.UTF_8));
  }
}
