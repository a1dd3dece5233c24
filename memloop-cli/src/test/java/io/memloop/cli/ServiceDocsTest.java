package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's service example, run as printed by bash in a fresh directory: {@code ./memloop} is this
 * build's CLI, {@code examples/} the repository's, {@code curl} and {@code python3} the machine's. Only
 * the port changes (a free one instead of 7070, which something else may hold).
 */
class ServiceDocsTest {
  private static final Pattern BASH = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);
  @TempDir Path work;

  @Test
  void theServiceExampleRunsAsPrinted() throws Exception {
    Path root = Path.of("..").toAbsolutePath().normalize();
    String readme = Files.readString(root.resolve("README.md"), StandardCharsets.UTF_8);
    String block = null;
    Matcher m = BASH.matcher(readme);
    while (m.find()) {
      if (m.group(1).contains("./memloop serve")) {
        block = m.group(1);
      }
    }
    assertThat(block).as("README has a bash block with ./memloop serve").isNotNull();
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    // a step that fails ends the script: the trap stops the server it started in the background, which would
    // otherwise outlive the script (and, holding its output open, keep the test waiting forever)
    String script = "set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" + block.replace("7070", Integer.toString(port))
        .replace("./memloop serve", "./memloop serve --port " + port);
    Path memloop = work.resolve("memloop");
    String java = ProcessHandle.current().info().command().orElse("java");
    Files.writeString(memloop, "#!/bin/sh\nexec '" + java + "' -cp '" + System.getProperty("java.class.path") + "' "
        + MemLoopCli.class.getName() + " \"$@\"\n");
    Files.setPosixFilePermissions(memloop, PosixFilePermissions.fromString("rwx------"));
    Files.createDirectories(work.resolve("examples"));
    Files.copy(root.resolve("examples/agent_loop.py"), work.resolve("examples/agent_loop.py"));
    Path client = Path.of("clients", "python", "src", "memloop"); // the example's client, found next to it as in a checkout
    Files.createDirectories(work.resolve(client));
    try (var files = Files.list(root.resolve(client))) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        Files.copy(f, work.resolve(client).resolve(f.getFileName().toString()));
      }
    }
    Files.writeString(work.resolve("service.sh"), script);
    Path log = work.resolve("service.log");
    Process p = new ProcessBuilder("bash", "service.sh").directory(work.toFile()).redirectErrorStream(true)
        .redirectOutput(log.toFile()).start();
    boolean ended = p.waitFor(300, TimeUnit.SECONDS);
    if (!ended) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    assertThat(ended).as(out).isTrue();
    assertThat(p.exitValue()).as(out).isZero();
    assertThat(out).contains("\"status\":\"ready\"");
    // ids are opaque tokens (r_..., m_...), read from the previous answer as the README shows
    assertThat(out).containsPattern("\"retrievalId\":\"r_[A-Za-z0-9_-]{22}\"").containsPattern("\"updated\":\\[\\{\"id\":\"m_[A-Za-z0-9_-]{22}\"");
    assertThat(out).contains("round 1:").contains("round 5:");
    assertThat(out).as("the CLI through the server").containsPattern("store http://localhost:" + port + " \\(384-d\\), embedding model all-minilm-l6-v2-q\\R"
        + "namespace team-a: \\d+ memories");
    assertThat(out).doesNotContain("\"error\"");
    assertThat(Files.exists(work.resolve("memloop-keys.json"))).isTrue();
    assertThat(Files.readString(work.resolve("memloop-keys.json"))).doesNotContain("mlk_");
  }

}
