package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.server.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** Runs the {@code memloop} command in-process, as the tests of the command do, and keeps what it printed. */
final class CliRun {
  private CliRun() {}

  /** The exit code and what the command printed on stdout and stderr. */
  record Result(int code, String out, String err) {
    /** The standard output read as JSON (for {@code --json} commands). */
    JsonNode json() {
      try {
        return Json.MAPPER.readTree(out);
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + out, e);
      }
    }
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = MemLoopCli.execute(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, out.toString(), err.toString());
  }

  static Result run(List<String> args) {
    return run(args.toArray(String[]::new));
  }
}
