package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.cli.CliRun.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experience's line breaks print as line breaks on the terminal (a merged failure note printed as one line of
 * {@code \}{@code u000a} escapes), its lines indented under the memory; a merged note lists its attempts; every other
 * control character stays escaped.
 */
class MultiLineExperienceCliTest {
  @TempDir Path dir;

  private Result run(String... args) {
    String[] all = java.util.Arrays.copyOf(args, args.length + 4);
    all[args.length] = "--store";
    all[args.length + 1] = dir.resolve("s").toString();
    all[args.length + 2] = "--embedder";
    all[args.length + 3] = "hashing";
    return CliRun.run(all);
  }

  @Test
  void aMergedFailureNote_printsItsAttemptsOnLinesOfTheirOwn() {
    run("remember", "--intent", "rotate the api key", "--experience", "edited the wrong vault", "--outcome", "failure");
    run("remember", "--intent", "rotate the api key", "--experience", "step one\r\nstep two \u001b[31mred", "--outcome", "failure");
    Result r = run("retrieve", "--intent", "rotate the api key");
    assertThat(r.code()).as(r.err()).isZero();
    String nl = System.lineSeparator();
    assertThat(r.out()).doesNotContain("\\u000a").doesNotContain("\u001b")
        .contains("] q=0.000 failure: 2 attempts, newest first:" + nl
            + "    1. step one" + nl
            + "       step two \\u001b[31mred" + nl
            + "    2. edited the wrong vault" + nl);
  }

  @Test
  void aPlainMultiLineExperience_continuesIndentedUnderItsMemory() {
    run("remember", "--intent", "restart nginx", "--experience", "sudo systemctl restart nginx\ncurl -f localhost/healthz\r",
        "--outcome", "success");
    Result r = run("retrieve", "--intent", "restart nginx");
    String nl = System.lineSeparator();
    assertThat(r.out()).endsWith("] q=0.000 success: sudo systemctl restart nginx" + nl + "    curl -f localhost/healthz\\u000d" + nl);
  }
}
