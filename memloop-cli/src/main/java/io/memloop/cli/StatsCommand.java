package io.memloop.cli;

import io.memloop.server.Json;
import io.memloop.MemLoop;
import io.memloop.Stats;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "stats", description = "Counts and utility distribution of a namespace (or of all with --all).")
final class StatsCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;

  @Option(names = "--all", description = "Every namespace of the store.")
  boolean all;

  @Override
  public Integer call() {
    try (MemLoop loop = Session.open(engine, false, null)) {
      List<String> namespaces = all ? List.copyOf(loop.store().namespaces()) : List.of(engine.namespace);
      PrintWriter out = spec.commandLine().getOut();
      if (engine.json) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("store", engine.storeLabel());
        o.put("dimension", loop.store().dimension());
        o.put("model", Json.model(loop.store().model().orElse(null)));
        o.put("config", loop.config().asMap());
        o.put("namespaces", namespaces.stream().map(ns -> {
          Map<String, Object> n = Json.stats(loop.stats(ns));
          var recorded = loop.recordedConfig(ns);
          // The configuration the namespace runs under: the recorded one, or what its first use would record.
          n.put("config", recorded.orElse(loop.config()).asMap());
          n.put("configRecorded", recorded.isPresent());
          return n;
        }).toList());
        out.println(Json.write(o));
        return 0;
      }
      out.printf(Locale.ROOT, "store %s (%d-d), embedding model %s%n", engine.storeLabel(), loop.store().dimension(),
          loop.store().model().map(m -> m.id()).orElse("not recorded"));
      for (String ns : namespaces) {
        Stats s = loop.stats(ns);
        out.printf(Locale.ROOT,
            "namespace %s: %d memories in %d intent groups (%d success, %d failure), %d pending retrievals%n"
                + "  Q mean %.4f min %.4f max %.4f, %d rewards applied%n",
            s.namespace(), s.memories(), s.intents(), s.successes(), s.failures(), s.pendingRetrievals(),
            s.meanQ(), s.minQ(), s.maxQ(), s.totalVisits());
      }
    }
    return 0;
  }
}
