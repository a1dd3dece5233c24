package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import io.memloop.Intent;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "retrieve", description = "Two-phase retrieval of experiences for a task; prints a retrieval id to reward later.",
    footer = {"",
        "Columns: sel = selected (*); similarity = cosine of the query to the memory's intent; q = the memory's learned"
            + " utility Q; score = the Phase B score (1-lambda)*z(similarity) + lambda*z(q), each z-scored over this"
            + " retrieval's candidates (clipped to +/-3; a spread of 0 gives 0); p = the probability the policy had of"
            + " selecting it.",
        "Under the default and similarity presets lambda is 0: score is only the similarity's standing among the"
            + " candidates, 0.000 for a lone candidate or for equally similar ones, and does not move with q; there Q acts"
            + " through per-task learning (memories proven for the task come first, failed ones last) and qMin. Under"
            + " memrl (lambda 0.5) score mixes both."})
final class RetrieveCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @Mixin RemoteOptions remote;
  @ArgGroup(exclusive = false, multiplicity = "1") IntentOptions intent;

  @picocli.CommandLine.Option(names = "--id-only",
      description = "Print only the retrieval id, for scripts: R=$(memloop retrieve --intent ... --id-only).")
  boolean idOnly;

  @Override
  public Integer call() {
    Intent i = intent.intent();
    try (DataAccess data = DataAccess.open(engine, remote, spec, false, i)) {
      JsonNode r = data.retrieve(i);
      PrintWriter out = spec.commandLine().getOut();
      if (idOnly) {
        out.println(r.path("retrievalId").asText());
      } else if (engine.json) {
        out.println(Json.write(r));
      } else {
        print(r, out);
      }
    }
    return 0;
  }

  private static void print(JsonNode r, PrintWriter out) {
    JsonNode candidates = r.path("candidates");
    out.printf(Locale.ROOT, "retrieval %s: %d of %d candidates selected%n", r.path("retrievalId").asText(),
        r.path("selected").size(), candidates.size());
    if (!candidates.isEmpty()) {
      int width = 10; // a server's opaque ids (m_ and 22 characters) widen the column
      for (JsonNode c : candidates) {
        width = Math.max(width, c.path("id").asText().length());
      }
      out.printf(Locale.ROOT, "  %-3s %-" + width + "s %10s %8s %8s %6s%n", "sel", "memory", "similarity", "q", "score", "p");
      for (JsonNode c : candidates) {
        out.printf(Locale.ROOT, "  %-3s %-" + width + "s %10.4f %8.3f %8.3f %6.2f%n", c.path("selected").asBoolean() ? "*" : "",
            c.path("id").asText(), c.path("similarity").asDouble(), c.path("q").asDouble(), c.path("score").asDouble(),
            c.path("probability").asDouble());
      }
    }
    for (JsonNode m : r.path("selected")) {
      MemoryLines.print(out, m);
    }
  }
}
