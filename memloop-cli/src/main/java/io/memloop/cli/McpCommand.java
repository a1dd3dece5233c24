package io.memloop.cli;

import io.memloop.MemLoop;
import io.memloop.server.McpStdio;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "mcp",
    description = {"Runs an MCP server on stdin/stdout for one agent (a desktop client, an IDE): tools to retrieve "
        + "experiences, report outcomes, remember experiences and read stats, on the local store.",
        "Tool calls that name no namespace use --namespace. Logs go to stderr. Ends when stdin closes or on SIGTERM, "
        + "closing the store cleanly."})
final class McpCommand implements Callable<Integer> {
  @Mixin EngineOptions engine;

  @Override
  public Integer call() throws InterruptedException {
    engine.learnInBackground = true; // a reward's latency: refits of the learned similarity run after it
    MemLoop loop = Session.open(engine, true, null);
    AtomicBoolean closed = new AtomicBoolean();
    Runnable close = () -> {
      if (closed.compareAndSet(false, true)) {
        loop.close();
      }
    };
    Thread hook = new Thread(close, "memloop-mcp-shutdown"); // clients stop their server with SIGTERM
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      McpStdio.run(loop, engine.namespace, System.in, System.out);
    } finally {
      close.run();
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // already shutting down: the hook runs (and finds the store closed)
      }
    }
    return 0;
  }
}
