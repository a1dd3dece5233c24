package io.memloop.cli;

import io.memloop.server.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "forget", description = "Delete a memory (durable; its intent group goes too once empty).")
final class ForgetCommand implements Callable<Integer> {
  @Spec CommandSpec spec;
  @Mixin EngineOptions engine;
  @Mixin RemoteOptions remote;

  @Option(names = "--memory", paramLabel = "ID", required = true, description = "The memory id (as printed by remember or retrieve).")
  String memoryId;

  @Override
  public Integer call() {
    Ids.require(memoryId, "--memory");
    try (DataAccess data = DataAccess.open(engine, remote, spec, false, null)) {
      data.forget(memoryId);
    }
    if (engine.json) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("forgotten", memoryId);
      spec.commandLine().getOut().println(Json.write(o));
    } else {
      spec.commandLine().getOut().println("forgot " + memoryId);
    }
    return 0;
  }
}
