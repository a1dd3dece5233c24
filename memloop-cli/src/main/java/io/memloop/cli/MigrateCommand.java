package io.memloop.cli;

import io.memloop.Checks;
import io.memloop.MemLoopException;
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
        "Every memory is copied exactly (texts, embedding, outcome, Q, visits, creation and update times) with its intent "
        + "grouping, and each namespace's recorded configuration. Not copied: retrievals still waiting for a reward, and "
        + "per-task learning statistics (relearned from new rewards). Stop the agents writing to the source first; a "
        + "namespace that already holds memories in the target is refused."})
final class MigrateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--from", paramLabel = "DIR|solr://...", required = true, description = "The store to copy from (as --store takes it).")
  String from;

  @Option(names = "--to", paramLabel = "DIR|solr://...", required = true,
      description = "The store to copy into (as --store takes it); created with the source's dimension if it does not exist.")
  String to;

  @Option(names = {"-n", "--namespace"}, paramLabel = "NS", description = "A namespace to copy (repeatable).")
  List<String> namespaces = new ArrayList<>();

  @Option(names = "--all", description = "Copy every namespace of the source.")
  boolean all;

  @Option(names = "--json", description = "Print JSON instead of text.")
  boolean json;

  @Override
  public Integer call() {
    if (all == !namespaces.isEmpty()) {
      throw MemLoopException.invalid("--namespace", "name the namespaces to copy (-n NS, repeatable) or give --all, not both");
    }
    namespaces.forEach(Checks::requireNamespace);
    if (location(from, "--from").equals(location(to, "--to"))) {
      throw MemLoopException.invalid("--to", "is the same store as --from");
    }
    PrintWriter out = spec.commandLine().getOut();
    List<StoreCopy.Result> results = new ArrayList<>();
    try (MemoryStore source = open(from, "--from", null)) {
      try (MemoryStore target = open(to, "--to", source::dimension)) {
        List<String> todo = all ? List.copyOf(source.namespaces()) : namespaces;
        for (String ns : todo) {
          StoreCopy.Result r = StoreCopy.copy(source, target, ns, n -> {});
          results.add(r);
          if (!json) {
            out.printf(Locale.ROOT, "copied namespace %s: %d memories in %d intent groups%s%n", ns, r.memories(), r.groups(),
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
        o.put("settings", r.settings());
        rows.add(o);
      }
      out.println(Json.write(Map.of("copied", rows)));
    }
    return 0;
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
