package io.memloop.cli;

import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.history.EventLogImport;
import io.memloop.history.RlExport;
import io.memloop.server.Json;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "export",
    description = {"Exports an event log (docs/event-log.md) as a dataset for weight-level RL or fine-tuning "
        + "(docs/export.md): rollouts (task, experiences shown, what the agent did, reward, group advantage), sft, kto, "
        + "dpo or grpo, in the JSON Lines layouts TRL's trainers read.",
        "Malformed lines are reported with file, line and reason; with --strict nothing is written."})
final class ExportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"-i", "--input"}, paramLabel = "PATH", required = true, description = "An event log file, or a directory of them.")
  Path input;

  @Option(names = {"-f", "--format"}, paramLabel = "FORMAT", defaultValue = "rollouts",
      description = "rollouts, sft, kto, dpo or grpo (default: ${DEFAULT-VALUE}).")
  String format;

  @Option(names = {"-o", "--output"}, paramLabel = "FILE", required = true, description = "The JSON Lines file to write (replaced).")
  Path output;

  @Option(names = "--strict", description = "Refuse to export if any line of the log is malformed.")
  boolean strict;

  @Option(names = "--json", description = "Print the summary as JSON.")
  boolean json;

  @Override
  public Integer call() {
    RlExport.Format f = RlExport.Format.parse(format);
    CliOutput.requireOutputIsNotInput(output, input.toString());
    RlExport.Result r = RlExport.run(input, f, output, strict, MemLoopConfig.preset(Preset.DEFAULT));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("format", f.name().toLowerCase(Locale.ROOT));
      o.put("rewardedRetrievals", r.rewardedRetrievals());
      o.put("rollouts", r.rollouts());
      o.put("groups", r.groups());
      o.put("records", r.records());
      o.put("leftOut", r.leftOut());
      o.put("skipped", r.skipped().stream().map(EventLogImport.Skipped::json).toList());
      out.println(Json.write(o));
      return 0;
    }
    out.printf(Locale.ROOT, "wrote %d %s record(s) to %s from %d rollout(s) in %d task group(s) (%d rewarded retrievals)%n",
        r.records(), f.name().toLowerCase(Locale.ROOT), output, r.rollouts(), r.groups(), r.rewardedRetrievals());
    r.leftOut().forEach((why, n) -> out.printf(Locale.ROOT, "left out %d: %s%n", n, why));
    CliOutput.printSkipped(out, r.skipped(), "line(s)");
    return 0;
  }
}
