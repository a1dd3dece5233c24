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

  /** A command standing in for one whose store fails: it throws what it is given. */
  @picocli.CommandLine.Command(name = "explode")
  static final class Explode implements java.util.concurrent.Callable<Integer> {
    private final Throwable failure;

    Explode(Throwable failure) {
      this.failure = failure;
    }

    @Override
    public Integer call() throws Exception {
      if (failure instanceof Exception e) {
        throw e;
      }
      throw (Error) failure;
    }
  }

  private static CliRun.Result explode(Throwable failure) {
    picocli.CommandLine cli = MemLoopCli.commandLine();
    cli.addSubcommand("explode", new Explode(failure));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = MemLoopCli.execute(cli, new String[] {"explode"}, new PrintWriter(out), new PrintWriter(err));
    return new CliRun.Result(code, out.toString(), err.toString());
  }

  /** What a full disk throws from the store's Lucene index, as the JDK and Lucene raise it. */
  @Test
  void fullDisk_whateverCarriesIt_isExit5_oneLine_noStackTrace() {
    java.io.IOException enospc = new java.io.IOException(Failures.DISK_FULL);
    List<Throwable> failures = List.of(
        new java.io.UncheckedIOException(enospc),
        new java.nio.file.FileSystemException(dir.resolve("store/index/_3.cfs").toString(), null, Failures.DISK_FULL),
        new org.apache.lucene.store.AlreadyClosedException("this IndexWriter is closed", enospc),
        new org.apache.lucene.index.MergePolicy.MergeException(enospc),
        new IllegalStateException("commit failed", new java.io.UncheckedIOException(enospc)),
        new io.memloop.MemLoopException(io.memloop.MemLoopException.Reason.STORE_UNAVAILABLE, "store",
            "store: the disk is full", enospc));
    for (Throwable failure : failures) {
      CliRun.Result r = explode(failure);
      assertThat(r.code()).as(failure + ": " + r.err()).isEqualTo(MemLoopCli.STORE);
      assertThat(r.err().lines()).as(r.err()).hasSize(1);
      assertThat(r.err()).startsWith("memloop: ").contains("disk is full").doesNotContain("\tat ", "Exception");
    }
  }

  @Test
  void otherEscapingFailures_areOneLine_withTheirExitCode() {
    CliRun.Result io = explode(new java.io.UncheckedIOException(new java.nio.file.NoSuchFileException("/gone/segments_2")));
    assertThat(io.code()).isEqualTo(MemLoopCli.STORE);
    assertThat(io.err()).isEqualTo("memloop: I/O error: no such file: /gone/segments_2" + System.lineSeparator());

    CliRun.Result lucene = explode(new org.apache.lucene.store.AlreadyClosedException("this IndexWriter is closed"));
    assertThat(lucene.code()).isEqualTo(MemLoopCli.STORE);
    assertThat(lucene.err().lines()).hasSize(1);

    CliRun.Result oom = explode(new OutOfMemoryError("Java heap space"));
    assertThat(oom.code()).isEqualTo(MemLoopCli.INTERNAL);
    assertThat(oom.err()).isEqualTo("memloop: out of memory (Java heap space): give the JVM more heap, e.g. "
        + "MEMLOOP_JAVA_OPTS=-Xmx2g" + System.lineSeparator());

    CliRun.Result bug = explode(new StackOverflowError());
    assertThat(bug.code()).isEqualTo(MemLoopCli.INTERNAL);
    assertThat(bug.err().lines()).hasSize(1);
    assertThat(bug.err()).startsWith("memloop: internal error: ").doesNotContain("\tat ");
  }

  /** Lucene's merge threads die with an uncaught exception: no stack trace, and one line after the command. */
  @Test
  void backgroundThreadFailure_printsNoTrace_andOneLineAfterTheCommand() throws Exception {
    Path store = dir.resolve("store");
    assertThat(run(new StringWriter(), "remember", "--store", store.toString(), "--embedder", "none",
        "--embedding", "[1,0,0,0]", "--experience", "x")).isZero();
    Thread merge = new Thread(() -> {
      throw new org.apache.lucene.index.MergePolicy.MergeException(new java.io.IOException(Failures.DISK_FULL));
    }, "Lucene Merge Thread #0");
    merge.setUncaughtExceptionHandler(Failures.backgroundHandler(false));
    java.io.PrintStream systemErr = System.err;
    java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
    try {
      merge.start();
      merge.join();
    } finally {
      System.setErr(systemErr);
    }
    assertThat(printed.toString(java.nio.charset.StandardCharsets.UTF_8)).isEmpty();
    StringWriter err = new StringWriter();
    assertThat(run(err, "stats", "--store", store.toString(), "--embedder", "none")).isZero();
    assertThat(err.toString()).isEqualTo("memloop: warning: background thread Lucene Merge Thread #0 failed: the disk is full ("
        + Failures.DISK_FULL + "): free some space and run the command again (the store keeps every write it acknowledged)"
        + System.lineSeparator());
    assertThat(Failures.takeBackground()).isNull();
  }

  /** A real full disk: /dev/full answers every write with ENOSPC. */
  @Test
  void replayOutputOnAFullDisk_isExit5_notASilentSuccess() throws IOException {
    Path devFull = Path.of("/dev/full");
    org.junit.jupiter.api.Assumptions.assumeTrue(Files.isWritable(devFull), "no /dev/full here");
    Path episodes = dir.resolve("episodes.jsonl");
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      lines.append("{\"embedding\": [1, ").append(i).append(", 0, 0], \"success\": true, \"experience\": \"e")
          .append(i).append("\"}\n");
    }
    Files.writeString(episodes, lines);
    StringWriter err = new StringWriter();
    int code = run(err, "replay", "--input", episodes.toString(), "--embedder", "none", "--output", devFull.toString());
    assertThat(code).as(err.toString()).isEqualTo(MemLoopCli.STORE);
    assertThat(err.toString().lines()).hasSize(1);
    assertThat(err.toString()).startsWith("memloop: the disk is full").doesNotContain("\tat ");
  }
}
