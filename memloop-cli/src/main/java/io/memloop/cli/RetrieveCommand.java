package io.memloop.cli;

import io.memloop.server.Json;
import io.memloop.Candidate;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.Memory;
import io.memloop.Retrieval;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "retrieve", description = "Two-phase retrieval of experiences for a task; prints a retrieval id to reward later.")
final class RetrieveCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @ArgGroup(exclusive = false, multiplicity = "1") IntentOptions intent;

  @picocli.CommandLine.Option(names = "--id-only",
      description = "Print only the retrieval id, for scripts: R=$(memloop retrieve --intent ... --id-only).")
  boolean idOnly;

  @Override
  public Integer call() {
    Intent i = intent.intent();
    try (MemLoop loop = Session.open(engine, false, i)) {
      Retrieval r = loop.retrieve(engine.namespace, i);
      PrintWriter out = spec.commandLine().getOut();
      if (idOnly) {
        out.println(r.id());
      } else if (engine.json) {
        out.println(Json.write(Json.retrieval(r)));
      } else {
        print(r, out);
      }
    }
    return 0;
  }

  private static void print(Retrieval r, PrintWriter out) {
    out.printf(Locale.ROOT, "retrieval %s: %d of %d candidates selected%n", r.id(), r.selected().size(), r.candidates().size());
    if (!r.candidates().isEmpty()) {
      out.printf(Locale.ROOT, "  %-3s %-10s %10s %8s %8s %6s%n", "sel", "memory", "similarity", "q", "score", "p");
      for (Candidate c : r.candidates()) {
        out.printf(Locale.ROOT, "  %-3s %-10s %10.4f %8.3f %8.3f %6.2f%n",
            c.selected() ? "*" : "", c.memoryId(), c.similarity(), c.q(), c.score(), c.probability());
      }
    }
    for (Memory m : r.selected()) {
      out.printf(Locale.ROOT, "[%s] q=%.3f %s: %s%n", m.id(), m.q(), m.outcome().name().toLowerCase(Locale.ROOT),
          Text.printable(m.experience()));
    }
  }
}
