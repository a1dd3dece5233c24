package io.memloop.cli;

import io.memloop.MemLoop;
import io.memloop.server.McpStdio;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "mcp",
    description = {"Runs an MCP server on stdin/stdout for one agent (a desktop client, an IDE): tools to retrieve "
        + "experiences, report outcomes, remember experiences and read stats, on the local store.",
        "Tool calls that name no namespace use --namespace. Logs go to stderr."})
final class McpCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Override
  public Integer call() throws InterruptedException {
    try (MemLoop loop = Session.open(engine, true, null)) {
      McpStdio.run(loop, engine.namespace, System.in, System.out);
    }
    return 0;
  }
}
