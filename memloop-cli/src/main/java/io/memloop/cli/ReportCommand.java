package io.memloop.cli;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.history.report.DecisionReport;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "report",
    description = {"The decision report of an event log (docs/event-log.md): what the current policy achieves, what each "
        + "MemLoop configuration is estimated to achieve (off-policy, with 95 %% intervals), how many more episodes would "
        + "narrow each interval, and what each costs per episode. Writes report.md and report.html with charts."})
final class ReportCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"-i", "--input"}, paramLabel = "PATH", required = true, description = "An event log file, or a directory of them.")
  Path input;

  @Option(names = {"-c", "--candidate"}, paramLabel = "SPEC",
      description = "A configuration to include (repeatable): PRESET or PRESET:knob=value,... (default: memrl, similarity, "
          + "default, memrl:k2=1, memrl:lambda=1).")
  List<String> candidates;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "decision-report",
      description = "Directory for report.md, report.html and the charts (default: ${DEFAULT-VALUE}).")
  Path out;

  @Override
  public Integer call() {
    Map<String, MemLoopConfig> configs = new LinkedHashMap<>();
    if (candidates == null) {
      configs.putAll(DecisionReport.defaultCandidates());
    } else {
      for (String c : candidates) {
        configs.put(c, EvaluateCommand.parse(c));
      }
    }
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(input, configs, MemLoopConfig.preset(Preset.DEFAULT));
    Path html;
    try {
      html = DecisionReport.write(r, input.toString(), out);
    } catch (UncheckedIOException e) {
      throw MemLoopException.invalid("--out", e.getMessage());
    }
    spec.commandLine().getOut().printf(Locale.ROOT, "%d decisions; the current policy's success %.1f %%; report: %s%n",
        r.decisions(), 100 * r.loggedSuccess().value(), html.toAbsolutePath().normalize());
    return 0;
  }
}
