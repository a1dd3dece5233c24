package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** Standard help and version on every command; a bare {@code memloop} is a usage error. */
class CliHelpTest {
  static Result run(String... args) {
    return CliRun.run(args);
  }

  /** Every subcommand registered on {@code memloop}, by its name. */
  static List<String> commands() {
    return java.util.Arrays.stream(MemLoopCli.class.getAnnotation(picocli.CommandLine.Command.class).subcommands())
        .map(c -> c.getAnnotation(picocli.CommandLine.Command.class).name())
        .toList();
  }

  @ParameterizedTest
  @MethodSource("commands")
  void everyCommand_printsItsHelp_withLongAndShortFlag_exit0(String command) {
    for (String flag : List.of("--help", "-h")) {
      // picocli reports a description it cannot format (a bare '%') on System.err, not through the command's writer
      java.io.PrintStream original = System.err;
      java.io.ByteArrayOutputStream stray = new java.io.ByteArrayOutputStream();
      Result r;
      try {
        System.setErr(new java.io.PrintStream(stray, true, java.nio.charset.StandardCharsets.UTF_8));
        r = run(command, flag);
      } finally {
        System.setErr(original);
      }
      assertThat(r.code()).as("%s %s: %s", command, flag, r.err()).isZero();
      assertThat(r.out()).as("%s %s", command, flag).contains("Usage: memloop " + command);
      assertThat(r.err()).isEmpty();
      assertThat(stray.toString(java.nio.charset.StandardCharsets.UTF_8)).as("%s %s on System.err", command, flag).isEmpty();
    }
  }

  @Test
  void aMistypedCommandOrOption_suggestsTheNearest_inOneLine() {
    Result command = run("retreive");
    assertThat(command.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(command.err()).contains("did you mean 'retrieve'?").contains("(see 'memloop --help')");
    assertThat(command.err().lines().count()).isOne();
    Result option = run("retrieve", "--intnet", "x");
    assertThat(option.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(option.err()).contains("did you mean '--intent'?").contains("(see 'memloop retrieve --help')");
    assertThat(option.err().lines().count()).isOne();
  }

  @Test
  void aSubcommandsError_pointsAtItsOwnHelp_byItsFullName() {
    Result r = run("keys", "add", "--name", "x");
    assertThat(r.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(r.err()).contains("--namespace").endsWith("(see 'memloop keys add --help')" + System.lineSeparator());
  }

  @Test
  void helpWins_overMissingRequiredOptions() {
    Result r = run("reward", "--help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("--retrieval=ID", "--reward=R");
  }

  @Test
  void bareMemloop_printsUsageToStderr_exit2() {
    Result r = run();
    assertThat(r.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("Usage: memloop").contains("remember", "retrieve", "reward", "bench");
  }

  @Test
  void version_isTheBuildsVersion_onEveryCommand() throws Exception {
    java.util.Properties pom = new java.util.Properties();
    try (var in = MemLoopCli.class.getResourceAsStream("version.properties")) {
      pom.load(in);
    }
    String version = pom.getProperty("version");
    assertThat(version).as("filtered by Maven").matches("\\d+\\.\\d+\\.\\d+.*");
    for (String[] args : List.of(new String[] {"--version"}, new String[] {"-V"}, new String[] {"stats", "--version"})) {
      Result r = run(args);
      assertThat(r.code()).isZero();
      assertThat(r.out().strip()).isEqualTo("memloop " + version);
    }
  }
}
