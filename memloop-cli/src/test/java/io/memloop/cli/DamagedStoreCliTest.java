package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A damaged store is refused by every command with exit 5 and one line naming the file. */
class DamagedStoreCliTest {
  @TempDir Path dir;

  private static int run(StringWriter err, String... args) {
    return MemLoopCli.execute(args, new PrintWriter(new StringWriter()), new PrintWriter(err));
  }

  @Test
  void flippedByteInTheIndex_isExit5_oneLine() throws IOException {
    Path store = dir.resolve("store");
    for (int i = 0; i < 5; i++) {
      assertThat(run(new StringWriter(), "remember", "--store", store.toString(), "--embedder", "none",
          "--embedding", "[1," + i + ",0,0]", "--experience", "experience " + i)).isZero();
    }
    Path index;
    try (Stream<Path> files = Files.walk(store.resolve("index"))) {
      // The stored texts of the live segment (merges may leave older, unreferenced segment files beside it).
      index = files.filter(p -> p.getFileName().toString().endsWith(".fdt"))
          .max(java.util.Comparator.comparing(Path::toString)).orElseThrow();
    }
    byte[] b = Files.readAllBytes(index);
    b[b.length / 2] ^= 0x01;
    Files.write(index, b);
    for (String command : List.of("stats", "retrieve")) {
      StringWriter err = new StringWriter();
      int code = command.equals("stats")
          ? run(err, "stats", "--store", store.toString(), "--embedder", "none")
          : run(err, "retrieve", "--store", store.toString(), "--embedder", "none", "--embedding", "[1,0,0,0]");
      assertThat(code).as(err.toString()).isEqualTo(MemLoopCli.STORE);
      assertThat(err.toString().lines()).hasSize(1);
      assertThat(err.toString()).contains(index.getFileName().toString()).doesNotContain("\tat ");
    }
  }
}
