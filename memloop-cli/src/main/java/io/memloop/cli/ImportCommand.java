package io.memloop.cli;

import io.memloop.MemLoop;
import io.memloop.history.EventLogImport;
import io.memloop.server.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "import",
    description = {"Bootstraps a store from an event log (a file or a directory of them; docs/event-log.md): the "
        + "remembered experiences that were not forgotten, grouped by intent, with utilities learned from the logged "
        + "rewards, and each namespace's configuration.",
        "The whole input is validated first. Malformed lines are reported with file, line and reason; by default "
        + "the rest is imported, with --strict nothing is. (Logs in the replay format: 'memloop replay --persist'.)"})
final class ImportCommand implements Callable<Integer> {
  private static final int SHOWN = 10;

  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;

  @Option(names = {"-i", "--input"}, paramLabel = "PATH", required = true, description = "An event log file, or a directory of them.")
  Path input;

  @Option(names = "--strict", description = "Refuse the whole input if any line is malformed.")
  boolean strict;

  @Override
  public Integer call() {
    try (MemLoop loop = Session.open(engine, true, null)) {
      EventLogImport.Result r = EventLogImport.run(input, strict, loop);
      PrintWriter out = spec.commandLine().getOut();
      if (engine.json) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("events", r.events());
        o.put("memories", r.memories());
        o.put("namespaces", r.namespaces());
        o.put("rewardsReplayed", r.rewardsReplayed());
        o.put("rewardsForMemoriesNotInTheLog", r.rewardsForUnknownMemories());
        o.put("forgotten", r.forgotten());
        o.put("skipped", r.skipped().stream().map(io.memloop.history.EventLogImport.Skipped::json).toList());
        out.println(Json.write(o));
      } else {
        out.printf(java.util.Locale.ROOT, "imported %d memories into %d namespace(s) from %d events; %d logged rewards replayed"
                + " (%d for memories not in the log, ignored); %d forgotten memories left out%n",
            r.memories(), r.namespaces(), r.events(), r.rewardsReplayed(), r.rewardsForUnknownMemories(), r.forgotten());
        if (!r.skipped().isEmpty()) {
          out.printf(java.util.Locale.ROOT, "skipped %d malformed line(s):%n", r.skipped().size());
          r.skipped().stream().limit(SHOWN).forEach(s -> out.println("  " + Text.printable(s.toString())));
          if (r.skipped().size() > SHOWN) {
            out.printf(java.util.Locale.ROOT, "  ... and %d more (--json lists them all)%n", r.skipped().size() - SHOWN);
          }
        }
      }
    }
    return 0;
  }
}
