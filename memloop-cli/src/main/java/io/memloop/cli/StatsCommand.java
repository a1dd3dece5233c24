package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import java.io.PrintWriter;
import java.util.Locale;
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
  @Mixin RemoteOptions remote;

  @Option(names = "--all", description = "Every namespace of the store.")
  boolean all;

  @Override
  public Integer call() {
    try (DataAccess data = DataAccess.open(engine, remote, spec, false, null)) {
      JsonNode o = data.stats(all);
      PrintWriter out = spec.commandLine().getOut();
      if (engine.json) {
        out.println(Json.write(o));
        return 0;
      }
      JsonNode model = o.path("model");
      out.printf(Locale.ROOT, "store %s%s%s%s%n", o.path("store").asText(),
          o.has("dimension") ? " (" + o.path("dimension").asInt() + "-d)" : "",
          model.isMissingNode() ? "" : ", embedding model " + (model.isNull() ? "not recorded" : model.path("id").asText()),
          o.has("vectorFormat") ? ", vectors " + o.path("vectorFormat").asText() : "");
      for (JsonNode s : o.path("namespaces")) {
        out.printf(Locale.ROOT,
            "namespace %s: %d memories in %d intent groups (%d success, %d failure), %d pending retrievals%n"
                + "  Q mean %.4f min %.4f max %.4f, %d rewards applied%n",
            s.path("namespace").asText(), s.path("memories").asLong(), s.path("intents").asLong(),
            s.path("successes").asLong(), s.path("failures").asLong(), s.path("pendingRetrievals").asLong(),
            s.path("meanQ").asDouble(), s.path("minQ").asDouble(), s.path("maxQ").asDouble(), s.path("totalVisits").asLong());
      }
    }
    return 0;
  }
}
