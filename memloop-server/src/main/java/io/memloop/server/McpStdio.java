package io.memloop.server;

import io.memloop.MemLoop;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * MCP over stdin/stdout for one local client (a desktop app or IDE that starts {@code memloop mcp}). The
 * local user owns the store, so every namespace is open; calls that name none use the default namespace.
 */
public final class McpStdio {
  private McpStdio() {}

  /** Serves until {@code in} ends (the client closed the pipe), then closes the MCP session. */
  public static void run(MemLoop loop, String defaultNamespace, InputStream in, OutputStream out) throws InterruptedException {
    CountDownLatch ended = new CountDownLatch(1);
    InputStream watched = new FilterInputStream(in) {
      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b < 0) {
          ended.countDown();
        }
        return b;
      }

      @Override
      public int read(byte[] buf, int off, int len) throws IOException {
        int n = super.read(buf, off, len);
        if (n < 0) {
          ended.countDown();
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        ended.countDown();
        super.close();
      }
    };
    ServerOptions options = ServerOptions.defaults();
    try (Metrics metrics = new Metrics(loop.store(), null, false)) {
      Service service = new Service(loop, options, metrics, null);
      ApiKeys.Grant local = new ApiKeys.Grant("stdio", Set.of(ApiKeys.ALL));
      McpTools tools = new McpTools(service, metrics, exchange -> local, defaultNamespace);
      McpSyncServer server = McpServer.sync(new StdioServerTransportProvider(McpTools.JSON, watched, out))
          .serverInfo("memloop", MemLoopServer.VERSION)
          .instructions(MemLoopServer.MCP_INSTRUCTIONS)
          .capabilities(ServerCapabilities.builder().tools(false).build())
          .tools(tools.tools())
          .build();
      try {
        ended.await();
      } finally {
        server.closeGracefully();
      }
    }
  }
}
