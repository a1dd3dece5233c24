package io.memloop.cli;

import io.memloop.server.Json;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "remember", description = "Store an experience under an intent.")
final class RememberCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @ArgGroup(exclusive = false, multiplicity = "1") IntentOptions intent;

  @Option(names = "--experience", paramLabel = "TEXT", required = true, description = "The experience text to show agents later.")
  String experience;

  @Option(names = "--outcome", paramLabel = "OUTCOME", defaultValue = "unknown",
      description = "How the episode ended: success, failure or unknown (default: ${DEFAULT-VALUE}).")
  String outcome;

  @Option(names = "--retrieval", paramLabel = "ID",
      description = "The retrieval of the episode this experience came from (recorded in the event log, which export reads).")
  String retrieval;

  @Option(names = "--id-only", description = "Print only the memory's id, for scripts: M=$(memloop remember ... --id-only).")
  boolean idOnly;

  @Override
  public Integer call() {
    Outcome o = parseOutcome(outcome);
    Intent i = intent.intent();
    if (experience.isBlank()) {
      throw MemLoopException.invalid("--experience", "must not be empty");
    }
    if (retrieval != null) {
      Ids.require(retrieval, "--retrieval");
    }
    // An episode's retrieval lives in an existing store: with --retrieval, a missing store is not created.
    try (MemLoop loop = Session.open(engine, retrieval == null, i)) {
      if (retrieval != null && loop.store().retrieval(engine.namespace, retrieval).isEmpty()) {
        throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, "--retrieval",
            "--retrieval: no retrieval '" + retrieval + "' in namespace '" + engine.namespace + "'");
      }
      Memory m = loop.remember(engine.namespace, i, experience, o, retrieval);
      var out = spec.commandLine().getOut();
      if (idOnly) {
        out.println(m.id());
      } else if (engine.json) {
        out.println(Json.write(Json.memory(m)));
      } else {
        out.printf(Locale.ROOT, "remembered %s (intent group %s, q=%.3f)%n", m.id(), m.intentId(), m.q());
      }
    }
    return 0;
  }

  static Outcome parseOutcome(String s) {
    try {
      return Outcome.valueOf(s.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw MemLoopException.invalid("--outcome", "expected success, failure or unknown, got '" + s + "'");
    }
  }
}
