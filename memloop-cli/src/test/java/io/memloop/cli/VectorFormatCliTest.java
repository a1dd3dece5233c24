package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.cli.CliRun.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --vector-format}: a new store is made in it, {@code stats} shows it, another one converts, a bad one is refused. */
class VectorFormatCliTest {
  @TempDir Path dir;

  private static Result ok(String... args) {
    Result r = CliRun.run(args);
    assertThat(r.code()).as(r.err()).isZero();
    return r;
  }

  @Test
  void newStoreInAFormat_keepsIt_andConvertsWhenAskedForAnother() {
    String store = dir.resolve("s").toString();
    ok("remember", "--store", store, "--embedder", "hashing", "--vector-format", "int4", "--intent", "restart the web server",
        "--experience", "systemctl restart nginx", "--outcome", "success");
    Result same = ok("stats", "--store", store, "--embedder", "hashing", "--vector-format", "int4");
    assertThat(same.out()).contains(", vectors int4\n");
    assertThat(same.err()).doesNotContain("rewriting");
    Result converted = ok("stats", "--store", store, "--embedder", "hashing", "--vector-format", "float32");
    assertThat(converted.out()).contains(", vectors float32\n");
    assertThat(converted.err()).startsWith("memloop: rewriting the index of ").contains("from int4 to float32 vectors");
    assertThat(ok("stats", "--store", store, "--embedder", "hashing").out()).contains(", vectors float32\n");
    Result r = ok("retrieve", "--store", store, "--embedder", "hashing", "--intent", "restart the web server", "--json");
    assertThat(r.out()).contains("systemctl restart nginx");
  }

  @Test
  void unknownFormat_isOneReadableLine() {
    Result r = CliRun.run("stats", "--store", dir.resolve("t").toString(), "--embedder", "hashing", "--vector-format", "int3");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err().lines()).hasSize(1);
    assertThat(r.err()).startsWith("memloop: ").contains("--vector-format", "'int3'", "float32").doesNotContain("Exception");
  }
}
