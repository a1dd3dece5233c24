package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command's logging, in a fresh JVM each (logging is configured once per process): quiet by
 * default, library logs visible when asked for, a bad level refused in one line.
 */
class LoggingTest {
  @TempDir Path dir;

  record Run(int code, String out, String err) {}

  private Run cli(Map<String, String> env, String... args) throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command = new java.util.ArrayList<>(List.of(
        java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
        MemLoopCli.class.getName())); // as ./memloop starts it
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().remove(Logging.ENV);
    pb.environment().putAll(env);
    Process p = pb.start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    byte[] err = p.getErrorStream().readAllBytes();
    assertThat(p.waitFor(2, TimeUnit.MINUTES)).as("the command ends").isTrue();
    return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
  }

  private String[] remember() {
    return new String[] {"remember", "--store", dir.resolve("store").toString(), "--embedder", "none",
        "--embedding", "[1,0,0,0]", "--experience", "use sorted()", "--outcome", "success"};
  }

  @Test
  void byDefault_aCommandPrintsNoLibraryLogs() throws Exception {
    Run r = cli(Map.of(), remember());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).as("stderr of a successful command").isEmpty();
  }

  @Test
  void aLowerLevel_showsLibraryLogs_throughTheSameBinding() throws Exception {
    // Lucene (java.util.logging) warns that the Vector API is not enabled when the store opens; quiet by
    // default, at debug it is printed through the SLF4J simple binding: JUL is bridged to it.
    Run r = cli(Map.of(Logging.ENV, "debug"), remember());
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.err()).contains("[WARN] VectorizationProvider - Java vector incubator module")
        .doesNotContain("SLF4J: No SLF4J providers", "Runtime.exit");
  }

  @Test
  void anUnknownLevel_isOneLine_exit2() throws Exception {
    Run r = cli(Map.of(Logging.ENV, "loud"), "stats", "--store", dir.resolve("none").toString());
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().lines()).containsExactly(
        "memloop: MEMLOOP_LOG_LEVEL: 'loud' is not a level; use one of trace, debug, info, warn, error, off");
  }

  @Test
  void configure_rejectsUnknownLevels_namingTheVariable() {
    assertThatThrownBy(() -> Logging.configure("verbose"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("MEMLOOP_LOG_LEVEL: 'verbose'");
  }
}
