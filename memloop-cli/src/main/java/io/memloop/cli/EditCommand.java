package io.memloop.cli;

import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.Memory;
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
    Memory m;
    try (MemLoop loop = Session.open(engine, false, null)) {
      m = loop.edit(engine.namespace, memoryId, experience);
    }
    var out = spec.commandLine().getOut();
    if (engine.json) {
      out.println(Json.write(Json.memory(m)));
    } else {
      out.printf(Locale.ROOT, "edited %s (q=%.3f, visits %d kept)%n", m.id(), m.q(), m.visits());
    }
    return 0;
  }
}
