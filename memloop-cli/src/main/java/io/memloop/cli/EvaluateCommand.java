package io.memloop.cli;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.server.Json;
import java.io.PrintWriter;
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

@Command(name = "evaluate",
    description = {"Off-policy evaluation from an event log (docs/event-log.md): how each candidate configuration would "
        + "have done on the logged retrievals, estimated from the rewards the logging policy got (IPS, doubly robust, "
        + "direct method), with 95 %% intervals and effective sample size.",
        "A candidate is a preset, optionally with knobs: memrl, similarity, 'memrl:lambda=0.8,k2=5'. It is evaluated greedy; "
        + "one that learns per task (default) has its ledger replayed along the log, fed the logged rewards. A candidate "
        + "the log cannot show is flagged: its warnings instead of numbers."})
final class EvaluateCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = {"-i", "--input"}, paramLabel = "PATH", required = true, description = "An event log file, or a directory of them.")
  Path input;

  @Option(names = {"-c", "--candidate"}, paramLabel = "SPEC", required = true,
      description = "A configuration to evaluate (repeatable): PRESET or PRESET:knob=value,knob=value.")
  List<String> candidates;

  @Option(names = "--json", description = "Print JSON.")
  boolean json;

  @Override
  public Integer call() {
    Map<String, MemLoopConfig> configs = new LinkedHashMap<>();
    for (String spec : candidates) {
      configs.put(spec, parse(spec));
    }
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(input, configs, MemLoopConfig.preset(Preset.DEFAULT));
    PrintWriter out = spec.commandLine().getOut();
    if (json) {
      out.println(Json.write(json(r)));
      return 0;
    }
    out.printf(Locale.ROOT, "%d logged decisions (retrieval + reward); the logging policy got mean reward %.3f, success %.3f%n",
        r.decisions(), r.loggedReward(), r.loggedSuccess().value());
    out.printf(Locale.ROOT, "%-28s %7s %8s %22s %22s %22s %22s %8s%n", "candidate", "agree", "support", "success (IPS)",
        "success (SNIPS)", "success (DR)", "reward (DR)", "ESS");
    for (OffPolicyEvaluation.Report rep : r.reports()) {
      if (rep.warnings().isEmpty()) {
        out.printf(Locale.ROOT, "%-28s %7d %7.0f%% %22s %22s %22s %22s %8.0f%n", Text.printable(rep.candidate()), rep.agreeing(),
            100.0 * rep.supported() / rep.decisions(), fmt(rep.ipsSuccess()), fmt(rep.snipsSuccess()), fmt(rep.drSuccess()),
            fmt(rep.drReward()), rep.effectiveSampleSize());
      } else { // flagged: the reasons instead of numbers that would look precise (--json keeps them)
        out.printf(Locale.ROOT, "%-28s %7d %7.0f%%   not evaluable from this log (flagged):%n", Text.printable(rep.candidate()),
            rep.agreeing(), 100.0 * rep.supported() / rep.decisions());
      }
      rep.warnings().forEach(w -> out.println("  warning: " + w));
      if (!rep.replayed().isEmpty()) {
        out.println("  replayed: " + rep.replayed());
      }
    }
    out.println("Each estimate is this rule on our memory as it was (the logged memories and rewards), not a deployment.");
    if (!r.skipped().isEmpty()) {
      out.printf(Locale.ROOT, "skipped %d malformed line(s); first: %s%n", r.skipped().size(), Text.printable(r.skipped().getFirst().toString()));
    }
    return 0;
  }

  /** The evaluation as JSON ({@code --json}, and the server's decision report route). */
  static Map<String, Object> json(OffPolicyEvaluation.Result r) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("decisions", r.decisions());
    o.put("loggedReward", r.loggedReward());
    o.put("loggedSuccess", r.loggedSuccess());
    o.put("candidates", r.reports());
    o.put("skipped", r.skipped().stream().map(io.memloop.history.EventLogImport.Skipped::json).toList());
    return o;
  }

  private static String fmt(OffPolicyEvaluation.Estimate e) {
    return String.format(Locale.ROOT, "%.3f [%.3f, %.3f]", e.value(), e.low(), e.high());
  }

  static MemLoopConfig parse(String spec) {
    int colon = spec.indexOf(':');
    String preset = colon < 0 ? spec : spec.substring(0, colon);
    MemLoopConfig.Builder b;
    try {
      b = MemLoopConfig.preset(Preset.parse(preset)).toBuilder();
    } catch (MemLoopException e) {
      throw MemLoopException.invalid("--candidate", "'" + spec + "': " + e.getMessage());
    }
    if (colon >= 0) {
      for (String kv : spec.substring(colon + 1).split(",")) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw MemLoopException.invalid("--candidate", "'" + spec + "': expected knob=value, got '" + kv + "'");
        }
        try {
          b.set(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
        } catch (MemLoopException e) {
          throw MemLoopException.invalid("--candidate", "'" + spec + "': " + e.getMessage());
        }
      }
    }
    try {
      return b.build();
    } catch (MemLoopException e) {
      throw MemLoopException.invalid("--candidate", "'" + spec + "': " + e.getMessage());
    }
  }
}
