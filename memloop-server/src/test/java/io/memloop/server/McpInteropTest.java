package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP endpoint driven by clients nobody here wrote (Node.js, installed by the build from
 * interop/mcp-ts/package-lock.json): the official TypeScript SDK client runs a whole episode, and the
 * MCP conformance suite runs every server scenario; the scenarios that need the suite's own fixture
 * server are listed, with the reason, in conformance-baseline.yml, and the suite fails on any other
 * failure and on any listed scenario that passes.
 */
class McpInteropTest {
  private static final Path INTEROP = Path.of("..", "interop", "mcp-ts").toAbsolutePath().normalize();
  @TempDir Path dir;

  @Test
  void theTypeScriptSdkClientRunsAnEpisode() throws Exception {
    try (TestServer s = new TestServer(dir)) {
      Result r = node(List.of("episode.mjs", s.server.uri() + "/mcp", s.keys.get("a")));
      assertThat(r.exit()).as(r.output()).isZero();
      assertThat(r.output()).contains("episode ok");
    }
    try (TestServer s = new TestServer(dir.resolve("second"))) {
      Result r = node(List.of("episode.mjs", s.server.uri() + "/mcp", "mlk_not-a-key"));
      assertThat(r.exit()).as("a wrong key is refused: " + r.output()).isNotZero();
    }
  }

  @Test
  void theConformanceSuitePassesEveryProtocolScenario() throws Exception {
    try (TestServer s = new TestServer(dir, ServerOptions.defaults().withPort(0).withOpenNamespace("conformance"))) {
      Result r = node(List.of("node_modules/@modelcontextprotocol/conformance/dist/index.js", "server",
          "--url", "http://localhost:" + s.server.port() + "/mcp", "--suite", "all",
          "--expected-failures", "conformance-baseline.yml"));
      assertThat(r.exit()).as(r.output()).isZero();
      assertThat(r.output()).contains("server-initialize: 1 passed, 0 failed").contains("tools-list: 1 passed, 0 failed")
          .contains("dns-rebinding-protection: 2 passed, 0 failed");
    }
  }

  record Result(int exit, String output) {}

  private Result node(List<String> args) throws IOException, InterruptedException {
    assertThat(INTEROP.resolve("node_modules/@modelcontextprotocol/sdk")).as("npm ci ran in the build (process-test-resources)").exists();
    List<String> command = new java.util.ArrayList<>(List.of("node"));
    command.addAll(args);
    Path log = dir.resolve("node-" + System.nanoTime() + ".log");
    Process p = new ProcessBuilder(command).directory(INTEROP.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("node finished").isTrue();
    return new Result(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
