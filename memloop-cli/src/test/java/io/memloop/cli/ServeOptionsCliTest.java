package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code memloop serve} refuses bad options in one line naming the flag, before touching the disk. */
class ServeOptionsCliTest {
  @TempDir Path dir;

  private String refused(String... args) {
    StringWriter err = new StringWriter();
    int code = MemLoopCli.execute(args, new PrintWriter(new StringWriter()), new PrintWriter(err));
    assertThat(code).as(err.toString()).isEqualTo(2);
    assertThat(err.toString()).hasLineCount(1).doesNotContain("Exception");
    assertThat(dir.resolve("store")).doesNotExist();
    return err.toString();
  }

  @Test
  void badOptionsNameTheirFlag() {
    String store = dir.resolve("store").toString();
    assertThat(refused("serve", "--store", store, "--port", "70000")).startsWith("memloop: --port:");
    assertThat(refused("serve", "--store", store, "--max-body-bytes", "10")).startsWith("memloop: --max-body-bytes:");
    assertThat(refused("serve", "--store", store, "--drain-timeout", "-1")).startsWith("memloop: --drain-timeout:");
    assertThat(refused("serve", "--store", store, "--host", "0.0.0.0", "--open-namespace", "me")).startsWith("memloop: --open-namespace:");
    assertThat(refused("serve", "--store", store, "--keys", dir.resolve("none.json").toString())).startsWith("memloop: --keys:");
    assertThat(refused("serve", "--store", store, "--config", dir.resolve("missing.properties").toString())).startsWith("memloop: --config:");
    assertThat(refused("serve", "--store", store, "--allow-origin", "evil.example/path")).startsWith("memloop: --allow-origin:");
  }
}
