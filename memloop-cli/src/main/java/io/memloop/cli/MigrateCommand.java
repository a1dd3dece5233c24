package io.memloop.cli;

import io.memloop.Checks;
import io.memloop.EmbeddingModel;
import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import io.memloop.server.Json;
import io.memloop.store.MemoryStore;
import io.memloop.store.StoreCopy;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.solr.SolrStoreOptions;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.IntSupplier;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "migrate",
    description = {"Copies namespaces from one store to another: the embedded store to a SolrCloud collection when a "
        + "tenant outgrows one machine (or back, or between collections).",
        "Every memory is copied exactly (texts, embedding, outcome, Q, visits, creation and update times, annotations) with "
        + "its intent grouping, each namespace's per-task learning statistics and its recorded configuration. Not copied: retrievals "
        + "still waiting for a reward (and, with --re-embed, what was learned of the old model's similarity). Stop the agents writing to the source first; a "
        + "namespace that already holds memories in the target is refused.",
        "Vectors are copied only between stores of the same embedding model; between models give --re-embed and the "
        + "target's --embedder: every memory's intent text is embedded again (memories stored with an embedding only "
        + "have no text to embed, and are refused before anything is copied)."})
final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--from", paramLabel = "DIR|solr://...", required = true, description = "The store to copy from (as --store takes it).")
  String from;

  @Option(names = "--to", paramLabel = "DIR|solr://...", required = true,
      description = "The store to copy into (as --store takes it); created if it does not exist, with the source's dimension "
          + "(with --re-embed, the model's).")
  String to;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "A namespace to copy (repeatable).")
  List<String> namespaces = new ArrayList<>();

  @Option(names = "--all", description = "Copy every namespace of the source.")
  boolean all;

  @Option(names = "--json", description = "Print JSON instead of text.")
  boolean json;

  @Option(names = "--re-embed",
      description = "Embed every memory's intent text again with --embedder (the target's model) instead of copying vectors.")
  boolean reEmbed;

  @Option(names = "--embedder", paramLabel = "MODEL",
      description = "With --re-embed: the target's embedding model, minilm, openai or hashing (as the other commands take it).")
  @Nullable String embedder;

  @Option(names = "--openai-base-url", paramLabel = "URL", description = "With --embedder openai: the server's base URL.")
  @Nullable String openAiBaseUrl;

  @Option(names = "--openai-model", paramLabel = "NAME", description = "With --embedder openai: the embedding model name.")
  @Nullable String openAiModel;

  @Option(names = "--openai-dimension", paramLabel = "N", description = "With --embedder openai: its vectors' dimension.")
  @Nullable Integer openAiDimension;

  @Override
  public Integer call() {
    if (all == !namespaces.isEmpty()) {
      throw MemLoopException.invalid("--namespace", "name the namespaces to copy (-n NS, repeatable) or give --all, not both");
    }
    namespaces.forEach(Checks::requireNamespace);
    if (location(from, "--from").equals(location(to, "--to"))) {
      throw MemLoopException.invalid("--to", "is the same store as --from");
    }
    Embedder model = targetModel();
    PrintWriter out = spec.commandLine().getOut();
    List<StoreCopy.Result> results = new ArrayList<>();
    try (Embedder closing = model; MemoryStore source = open(from, "--from", null)) {
      List<String> todo = all ? List.copyOf(source.namespaces()) : namespaces;
      if (model != null) {
        requireIntentTexts(source, todo);
      }
      try (MemoryStore target = open(to, "--to", model != null ? model::dimension : source::dimension)) {
        // every check before the first namespace is written
        if (model != null) {
          StoreCopy.requireReEmbeddable(target, EmbeddingModel.of(model));
        } else {
          StoreCopy.requireCopyable(source, target);
        }
        for (String ns : todo) {
          StoreCopy.Result r = model != null ? StoreCopy.reEmbed(source, target, ns, model, n -> {})
              : StoreCopy.copy(source, target, ns, n -> {});
          results.add(r);
          if (!json) {
            out.printf(Locale.ROOT, "copied namespace %s: %d memories in %d intent groups%s%s%n", ns, r.memories(), r.groups(),
                r.ledgerEntries() > 0 ? ", " + r.ledgerEntries() + " per-task learning entries" : "",
                r.settings() ? ", and its configuration" : "");
            out.flush();
          }
        }
      }
    }
    if (json) {
      List<Map<String, Object>> rows = new ArrayList<>();
      for (StoreCopy.Result r : results) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("namespace", r.namespace());
        o.put("memories", r.memories());
        o.put("groups", r.groups());
        o.put("ledgerEntries", r.ledgerEntries());
        o.put("settings", r.settings());
        rows.add(o);
      }
      out.println(Json.write(Map.of("copied", rows)));
    }
    return 0;
  }

  /** The target's model with {@code --re-embed}, null without; {@code --embedder} only goes with it. */
  private @Nullable Embedder targetModel() {
    if (!reEmbed) {
      if (embedder != null) {
        throw MemLoopException.invalid("--embedder", "only goes with --re-embed (a plain copy keeps the vectors it copies)");
      }
      return null;
    }
    if (embedder == null || embedder.equalsIgnoreCase("none")) {
      throw MemLoopException.invalid("--re-embed", "needs --embedder: the target's model, which embeds the intent texts");
    }
    EngineOptions o = new EngineOptions();
    o.embedder = embedder;
    o.openAiBaseUrl = openAiBaseUrl;
    o.openAiModel = openAiModel;
    o.openAiDimension = openAiDimension;
    return Session.embedder(o);
  }

  /** {@code --re-embed} refuses, before anything is written, namespaces with memories that have no intent text. */
  private static void requireIntentTexts(MemoryStore source, List<String> namespaces) {
    List<String> counts = new ArrayList<>();
    long total = 0;
    for (String ns : namespaces) {
      long n = StoreCopy.withoutIntentText(source, ns);
      if (n > 0) {
        counts.add(ns + ": " + n);
        total += n;
      }
    }
    if (total > 0) {
      throw MemLoopException.invalid("--re-embed", total + " memories have no intent text (" + String.join(", ", counts)
          + "): they were stored with an embedding only, so there is no text to embed again; nothing was copied "
          + "(forget them, or copy between stores of one model without --re-embed)");
    }
  }

  /** A canonical name of a store location, to tell whether --from and --to are the same store; checks it first. */
  private static String location(String store, String field) {
    if (store.isBlank()) {
      throw MemLoopException.invalid(field, "must not be empty");
    }
    if (SolrStoreOptions.isSolrLocation(store)) {
      return SolrStoreOptions.parse(store, field).location();
    }
    Path dir = Path.of(store);
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw MemLoopException.invalid(field, dir + " is not a directory");
    }
    return dir.toAbsolutePath().normalize().toString();
  }

  /** Opens an existing store, or (with a dimension) creates it; problems name {@code field}. */
  private static MemoryStore open(String store, String field, @Nullable IntSupplier dimensionForNew) {
    try {
      return Session.openStore(store, field, LuceneStoreOptions.builder().build(), dimensionForNew);
    } catch (MemLoopException e) {
      throw withField(e, field);
    }
  }

  /** The store reports problems as --store's; here they belong to --from or --to. */
  private static MemLoopException withField(MemLoopException e, String field) {
    String message = e.getMessage();
    if (message == null || !message.startsWith("--store: ")) {
      return e;
    }
    return new MemLoopException(e.reason(), field, field + ": " + message.substring("--store: ".length()), e);
  }
}
