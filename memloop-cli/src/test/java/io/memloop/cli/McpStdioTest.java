package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoop;
import io.memloop.store.lucene.LuceneStore;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.memloop.server.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memloop mcp} as a desktop client starts it: a child process speaking MCP on stdin/stdout. */
class McpStdioTest {
  @TempDir Path dir;

  @Test
  void anEpisodeOverStdio() {
    String java = ProcessHandle.current().info().command().orElse("java");
    Path store = dir.resolve("store");
    ServerParameters params = ServerParameters.builder(java)
        .args("-cp", System.getProperty("java.class.path"), MemLoopCli.class.getName(), "mcp", "--store", store.toString(),
            "--embedder", "hashing", "--namespace", "desk")
        .build();
    McpSyncClient c = McpClient.sync(new StdioClientTransport(params, new JacksonMcpJsonMapper(Json.MAPPER)))
        .requestTimeout(Duration.ofSeconds(60)).build();
    try {
      c.initialize();
      assertThat(c.listTools().tools()).hasSize(7);
      CallToolResult remembered = c.callTool(new CallToolRequest("remember_experience",
          Map.of("intent", "clear the build cache", "experience", "rm -rf ~/.cache/bazel", "outcome", "success")));
      assertThat(remembered.isError()).isFalse();
      CallToolResult r = c.callTool(new CallToolRequest("retrieve_experiences", Map.of("intent", "clear the build cache")));
      assertThat(((TextContent) r.content().getFirst()).text()).contains("rm -rf ~/.cache/bazel");
      String id = String.valueOf(((Map<?, ?>) r.structuredContent()).get("retrievalId"));
      CallToolResult reported = c.callTool(new CallToolRequest("report_outcome", Map.of("retrievalId", id, "outcome", "success")));
      assertThat(reported.isError()).as(((TextContent) reported.content().getFirst()).text()).isFalse();
    } finally {
      assertThat(c.closeGracefully()).as("the child exits on SIGTERM").isTrue(); // waits for the process to exit
    }
    // the child closed the store cleanly when its stdin closed: it opens, with what the client wrote
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(store)).build()) {
      assertThat(loop.stats("desk").memories()).isEqualTo(1);
      assertThat(loop.stats("desk").totalVisits()).isEqualTo(1);
    }
  }
}
