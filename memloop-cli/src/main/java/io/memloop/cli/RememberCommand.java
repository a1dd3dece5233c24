package io.memloop.cli;

import io.memloop.server.Json;
import io.memloop.Intent;
import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
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
  @Mixin RemoteOptions remote;
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
    try (DataAccess data = DataAccess.open(engine, remote, spec, retrieval == null, i)) {
      JsonNode m = data.remember(i, experience, o, retrieval);
      var out = spec.commandLine().getOut();
      if (idOnly) {
        out.println(m.path("id").asText());
      } else if (engine.json) {
        out.println(Json.write(m));
      } else {
        out.printf(Locale.ROOT, "remembered %s (intent group %s, q=%.3f)%n", m.path("id").asText(), m.path("intentId").asText(),
            m.path("q").asDouble());
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
