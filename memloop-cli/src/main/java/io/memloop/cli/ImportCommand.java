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
        + "the rest is imported, with --strict nothing is. (Logs in the replay format: 'memloop replay --persist'; agent "
        + "traces as OpenTelemetry GenAI spans: --format otlp.)"})
final class ImportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;

  @Option(names = {"-i", "--input"}, paramLabel = "PATH", required = true, description = "An event log file, or a directory of them.")
  Path input;

  @Option(names = "--strict", description = "Refuse the whole input if any line is malformed.")
  boolean strict;

  @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "events",
      description = "events (MemLoop's event log) or otlp (OpenTelemetry GenAI traces as OTLP JSON, e.g. the Collector's "
          + "file exporter; runs go to --namespace) (default: ${DEFAULT-VALUE}).")
  String format;

  @Override
  public Integer call() {
    boolean otlp = switch (format) {
      case "events" -> false;
      case "otlp" -> true;
      default -> throw io.memloop.MemLoopException.invalid("--format", "must be events or otlp, got '" + Text.printable(format) + "'");
    };
    try (MemLoop loop = Session.open(engine, true, null)) {
      EventLogImport.Result r = otlp ? EventLogImport.runOtlp(input, strict, loop, engine.namespace)
          : EventLogImport.run(input, strict, loop);
      PrintWriter out = spec.commandLine().getOut();
      if (engine.json) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("events", r.events());
        o.put("memories", r.memories());
        o.put("namespaces", r.namespaces());
        o.put("rewardsReplayed", r.rewardsReplayed());
        o.put("rewardsForMemoriesNotInTheLog", r.rewardsForUnknownMemories());
        o.put("forgotten", r.forgotten());
        Map<String, Object> byKind = new LinkedHashMap<>();
        r.skippedByKind().forEach((k, n) -> byKind.put(k.label(), n));
        o.put("skippedByReason", byKind);
        o.put("skipped", r.skipped().stream().map(io.memloop.history.EventLogImport.Skipped::json).toList());
        out.println(Json.write(o));
      } else {
        if (otlp) {
          out.printf(java.util.Locale.ROOT, "imported %d memories into namespace %s from %d agent runs%n", r.memories(),
              engine.namespace, r.events());
        } else {
          out.printf(java.util.Locale.ROOT, "imported %d memories into %d namespace(s) from %d events; %d logged rewards replayed"
                  + " (%d for memories not in the log, ignored); %d forgotten memories left out%n",
              r.memories(), r.namespaces(), r.events(), r.rewardsReplayed(), r.rewardsForUnknownMemories(), r.forgotten());
        }
        CliOutput.printSkipped(out, r.skipped(), otlp ? "record(s) or run(s)" : "line(s)");
        if (engine.eventLog != null) {
          out.printf(java.util.Locale.ROOT, "logged a remember event per imported memory to %s%n", engine.eventLog);
        }
      }
    }
    return 0;
  }
}
