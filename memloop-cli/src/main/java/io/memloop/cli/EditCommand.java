package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import io.memloop.server.Json;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "edit", description = "Replace a memory's experience text in place: its utility, visits and history stay.")
final class EditCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @Mixin RemoteOptions remote;

  @Option(names = "--memory", paramLabel = "ID", required = true, description = "The memory id (as printed by remember, retrieve or list).")
  String memoryId;

  @Option(names = "--experience", paramLabel = "TEXT", required = true, description = "The new experience text.")
  String experience;

  @Override
  public Integer call() {
    Ids.require(memoryId, "--memory");
    if (experience.isBlank()) {
      throw MemLoopException.invalid("--experience", "must not be empty");
    }
    JsonNode m;
    try (DataAccess data = DataAccess.open(engine, remote, spec, false, null)) {
      m = data.edit(memoryId, experience);
    }
    var out = spec.commandLine().getOut();
    if (engine.json) {
      out.println(Json.write(m));
    } else {
      out.printf(Locale.ROOT, "edited %s (q=%.3f and %d visits kept)%n", m.path("id").asText(), m.path("q").asDouble(),
          m.path("visits").asLong());
    }
    return 0;
  }
}
