package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The MCP server over streamable HTTP, driven by the official Java SDK's client. */
class McpServerTest {
  @TempDir Path dir;
  TestServer s;

  @BeforeEach
  void start() {
    s = new TestServer(dir);
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private McpSyncClient client(String keyName) {
    var transport = HttpClientStreamableHttpTransport.builder(s.server.uri().toString())
        .endpoint("/mcp")
        .jsonMapper(McpTools.JSON)
        .httpRequestCustomizer((builder, method, uri, body, context) -> {
          if (keyName != null) {
            builder.header("Authorization", "Bearer " + s.keys.getOrDefault(keyName, keyName));
          }
        })
        .build();
    return McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
  }

  private static String text(CallToolResult r) {
    return ((TextContent) r.content().getFirst()).text();
  }

  @Test
  void aWholeEpisodeThroughTheTools() {
    try (McpSyncClient c = client("a")) {
      c.initialize();
      List<String> names = c.listTools().tools().stream().map(Tool::name).toList();
      assertThat(names).containsExactlyInAnyOrder(McpTools.RETRIEVE, McpTools.REPORT, McpTools.REMEMBER, McpTools.STATS,
          McpTools.END, McpTools.SEARCH, McpTools.EDIT);
      c.listTools().tools().forEach(t -> assertThat(t.description()).hasSizeGreaterThan(80));

      CallToolResult first = c.callTool(new CallToolRequest(McpTools.RETRIEVE, Map.of("intent", "rotate the TLS certificate of the api")));
      assertThat(first.isError()).isFalse();
      assertThat(text(first)).contains("No stored experience");
      String retrievalId = String.valueOf(((Map<?, ?>) first.structuredContent()).get("retrievalId"));

      CallToolResult reported = c.callTool(new CallToolRequest(McpTools.REPORT, Map.of("retrievalId", retrievalId, "outcome", "success")));
      assertThat(reported.isError()).as(text(reported)).isFalse();

      CallToolResult remembered = c.callTool(new CallToolRequest(McpTools.REMEMBER, Map.of(
          "intent", "rotate the TLS certificate of the api", "experience", "certbot renew --cert-name api; reload nginx",
          "outcome", "success")));
      assertThat(remembered.isError()).as(text(remembered)).isFalse();

      CallToolResult second = c.callTool(new CallToolRequest(McpTools.RETRIEVE, Map.of("intent", "rotate the TLS certificate of the api")));
      assertThat(text(second)).contains("certbot renew --cert-name api");
      String id2 = String.valueOf(((Map<?, ?>) second.structuredContent()).get("retrievalId"));
      CallToolResult failed = c.callTool(new CallToolRequest(McpTools.REPORT, Map.of("retrievalId", id2, "reward", -1)));
      assertThat(failed.isError()).isFalse();
      assertThat(s.loop.stats("team-a").memories()).isEqualTo(1);
      assertThat(s.loop.stats("team-a").totalVisits()).isEqualTo(1);
      CallToolResult stats = c.callTool(new CallToolRequest(McpTools.STATS, Map.of()));
      assertThat(text(stats)).contains("\"memories\":1");
    }
  }

  @Test
  void endEpisode_searchAndEdit_throughTheTools() {
    try (McpSyncClient c = client("a")) {
      c.initialize();
      CallToolResult first = c.callTool(new CallToolRequest(McpTools.RETRIEVE, Map.of("intent", "renew the staging certificate")));
      String retrievalId = String.valueOf(((Map<?, ?>) first.structuredContent()).get("retrievalId"));
      CallToolResult missing = c.callTool(new CallToolRequest(McpTools.END, Map.of("retrievalId", retrievalId,
          "intent", "renew the staging certificate", "experience", "certbot renew")));
      assertThat(missing.isError()).isTrue();
      assertThat(text(missing)).contains("outcome");
      assertThat(s.loop.stats("team-a").memories()).isZero();

      CallToolResult ended = c.callTool(new CallToolRequest(McpTools.END, Map.of("retrievalId", retrievalId, "outcome", "success",
          "intent", "renew the staging certificate", "experience", "certbot renew --cert-name staging")));
      assertThat(ended.isError()).as(text(ended)).isFalse();
      Map<?, ?> memory = (Map<?, ?>) ((Map<?, ?>) ended.structuredContent()).get("memory");
      assertThat(memory.get("outcome")).isEqualTo("success");
      String memoryId = String.valueOf(memory.get("id"));
      assertThat(s.loop.stats("team-a").memories()).isEqualTo(1);
      CallToolResult again = c.callTool(new CallToolRequest(McpTools.END, Map.of("retrievalId", retrievalId, "outcome", "failure",
          "intent", "renew the staging certificate", "experience", "something else")));
      assertThat(again.isError()).isTrue();
      assertThat(s.loop.stats("team-a").memories()).isEqualTo(1);

      CallToolResult found = c.callTool(new CallToolRequest(McpTools.SEARCH, Map.of("text", "CERTBOT staging", "outcome", "success")));
      assertThat(found.isError()).as(text(found)).isFalse();
      assertThat(((Map<?, ?>) found.structuredContent()).get("total")).isEqualTo(1);
      CallToolResult badLimit = c.callTool(new CallToolRequest(McpTools.SEARCH, Map.of("limit", 1000)));
      assertThat(badLimit.isError()).isTrue();
      assertThat(text(badLimit)).contains("limit");

      CallToolResult edited = c.callTool(new CallToolRequest(McpTools.EDIT, Map.of("memoryId", memoryId,
          "experience", "certbot renew --cert-name staging && systemctl reload nginx")));
      assertThat(edited.isError()).as(text(edited)).isFalse();
      assertThat(s.loop.list("team-a", io.memloop.MemoryQuery.all(10)).memories().getFirst().experience())
          .isEqualTo("certbot renew --cert-name staging && systemctl reload nginx");
      assertThat(c.callTool(new CallToolRequest(McpTools.EDIT, Map.of("memoryId", "m_nothing", "experience", "x"))).isError()).isTrue();
    }
  }

  @Test
  void theToolsTakeTheIntent_andRefuseTheOldTaskArgumentByName() {
    try (McpSyncClient c = client("a")) {
      c.initialize();
      for (Tool t : c.listTools().tools()) {
        if (t.name().equals(McpTools.RETRIEVE) || t.name().equals(McpTools.REMEMBER)) {
          assertThat(((Map<?, ?>) t.inputSchema().get("properties")).keySet().stream().map(String::valueOf).toList()).as(t.name()).contains("intent").doesNotContain("task");
          assertThat(String.valueOf(t.inputSchema().get("required"))).as(t.name()).contains("intent");
        }
      }
      CallToolResult old = c.callTool(new CallToolRequest(McpTools.RETRIEVE, Map.of("task", "restart nginx")));
      assertThat(old.isError()).isTrue();
      assertThat(text(old)).contains("task").contains("intent");
    }
    assertThat(s.loop.store().namespaces()).doesNotContain("team-a");
  }

  @Test
  void aMergedFailureNote_comesBackWithItsAttemptsAsParts() {
    try (McpSyncClient c = client("a")) {
      c.initialize();
      c.callTool(new CallToolRequest(McpTools.REMEMBER, Map.of(
          "intent", "rotate the TLS certificate of the api", "experience", "renewed with the wrong name", "outcome", "failure")));
      CallToolResult merged = c.callTool(new CallToolRequest(McpTools.REMEMBER, Map.of(
          "intent", "rotate the TLS certificate of the api", "experience", "forgot to reload nginx", "outcome", "failure")));
      assertThat(merged.isError()).as(text(merged)).isFalse();
      Map<?, ?> memory = (Map<?, ?>) merged.structuredContent();
      assertThat(memory.get("parts")).isEqualTo(List.of("forgot to reload nginx", "renewed with the wrong name"));
      assertThat(List.copyOf(memory.keySet()).subList(4, 7)).isEqualTo(List.of("experience", "parts", "outcome"));
    }
  }

  @Test
  void badArgumentsComeBackAsToolErrorsNamingTheArgument() {
    try (McpSyncClient c = client("a")) {
      c.initialize();
      CallToolResult r = c.callTool(new CallToolRequest(McpTools.REPORT, Map.of("retrievalId", "r404", "outcome", "great")));
      assertThat(r.isError()).isTrue();
      assertThat(text(r)).contains("outcome"); // the SDK checks the input schema first, naming the argument
      r = c.callTool(new CallToolRequest(McpTools.RETRIEVE, Map.of("intent", "x", "limit", 3)));
      assertThat(r.isError()).isTrue();
      assertThat(text(r)).contains("limit");
      r = c.callTool(new CallToolRequest(McpTools.REMEMBER, Map.of("intent", "x", "experience", "y", "outcome", "success", "namespace", "team-b")));
      assertThat(r.isError()).isTrue();
      assertThat(text(r)).contains("no namespace 'team-b'");
      r = c.callTool(new CallToolRequest(McpTools.REPORT, Map.of("retrievalId", "r404", "reward", 1)));
      assertThat(text(r)).startsWith("retrievalId:");
    }
    assertThat(s.loop.store().namespaces()).doesNotContain("team-b");
    assertThat(s.loop.stats("team-a").memories()).isZero();
  }

  @Test
  void noKeyNoSession() {
    McpSyncClient c = client(null);
    assertThatThrownBy(c::initialize).isInstanceOf(RuntimeException.class);
    c.closeGracefully();
    McpSyncClient wrong = client("mlk_wrong");
    assertThatThrownBy(wrong::initialize).isInstanceOf(RuntimeException.class);
    wrong.closeGracefully();
  }
}
