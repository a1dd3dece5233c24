package io.memloop.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
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
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Reader;
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
      description = "Replay into the durable store at --store (kept afterwards). Default: a fresh in-memory store, so the same input always gives the same output.")
  boolean persist;

  @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "Seed of exploration randomness (default: ${DEFAULT-VALUE}).")
  long seed;

  @Override
  public Integer call() throws IOException {
    List<ReplayEpisode> episodes = read();
    MemLoopConfig config = engine.config();
    Integer firstDim = episodes.stream().filter(e -> e.embedding() != null).findFirst()
        .map(e -> e.embedding().length).orElse(null);
    MemLoop loop = persist ? Session.open(engine, true, firstDim) : inMemory(config, firstDim);
    try (loop; PrintWriter out = writer()) {
      List<float[]> embeddings = embeddings(loop, episodes);
      int successes = 0;
      for (int i = 0; i < episodes.size(); i++) {
        ReplayEpisode e = episodes.get(i);
        String ns = e.namespace() != null ? e.namespace() : engine.namespace;
        Intent intent = Intent.of(e.intent(), embeddings.get(i));
        Retrieval r = loop.retrieve(ns, intent);
        double reward = e.rewardWithin(config.rewardMin(), config.rewardMax());
        RewardResult rewarded = loop.reward(ns, r.id(), reward);
        Memory added = loop.remember(ns, intent, e.experience(), e.outcomeOr(reward));
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
        out.println(Json.write(row));
      }
      spec.commandLine().getErr().printf(Locale.ROOT, "replayed %d episodes (%d with positive reward) under preset %s%n",
          episodes.size(), successes, engine.preset);
    }
    return 0;
  }

  private MemLoop inMemory(MemLoopConfig config, @Nullable Integer firstDim) {
    Embedder embedder = Session.embedder(engine);
    int dim = engine.dimension != null ? engine.dimension
        : firstDim != null ? firstDim
        : embedder != null ? embedder.dimension() : 0;
    if (dim == 0) {
      throw MemLoopException.invalid("--dimension", "is required when --embedder none and no episode has an embedding");
    }
    MemoryStore store = new InMemoryStore(dim);
    boolean fits = embedder != null && embedder.dimension() == dim;
    return MemLoop.builder().store(store).embedder(fits ? embedder : null).config(config).seed(seed).build();
  }

  private List<ReplayEpisode> read() throws IOException {
    List<ReplayEpisode> out = new ArrayList<>();
    try (BufferedReader in = new BufferedReader(reader())) {
      String line;
      int n = 0;
      while ((line = in.readLine()) != null) {
        n++;
        if (line.isBlank()) {
          continue;
        }
        JsonNode node;
        try {
          node = Json.MAPPER.readTree(line);
        } catch (JsonProcessingException e) {
          throw ReplayEpisode.fail(n, "episode", "is not valid JSON: " + e.getOriginalMessage());
        }
        out.add(ReplayEpisode.parse(n, node));
      }
    }
    return out;
  }

  /** Caller-supplied embeddings as given; the rest embedded in batches before the first episode. */
  private static List<float[]> embeddings(MemLoop loop, List<ReplayEpisode> episodes) {
    int dim = loop.store().dimension();
    List<float[]> out = new ArrayList<>(episodes.size());
    List<Integer> missing = new ArrayList<>();
    for (ReplayEpisode e : episodes) {
      if (e.embedding() != null && e.embedding().length != dim) {
        throw ReplayEpisode.fail(e.line(), "embedding", "has " + e.embedding().length + " dimensions but the store holds " + dim + "-d vectors");
      }
      if (e.embedding() == null) {
        missing.add(out.size());
      }
      out.add(e.embedding());
    }
    for (int from = 0; from < missing.size(); from += EMBED_BATCH) {
      List<Integer> batch = missing.subList(from, Math.min(missing.size(), from + EMBED_BATCH));
      List<float[]> vectors = loop.embedAll(batch.stream().map(i -> episodes.get(i).intent()).toList());
      for (int j = 0; j < batch.size(); j++) {
        out.set(batch.get(j), vectors.get(j));
      }
    }
    return out;
  }

  private Reader reader() throws IOException {
    if (input.equals("-")) {
      return new InputStreamReader(System.in, StandardCharsets.UTF_8);
    }
    Path p = Path.of(input);
    if (!Files.isRegularFile(p)) {
      throw MemLoopException.invalid("--input", "no such file: " + p);
    }
    return Files.newBufferedReader(p, StandardCharsets.UTF_8);
  }

  private PrintWriter writer() throws IOException {
    if (output == null) {
      return new PrintWriter(spec.commandLine().getOut(), true) {
        @Override
        public void close() {
          flush(); // never close the command's stdout
        }
      };
    }
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(output), StandardCharsets.UTF_8)));
  }
}
