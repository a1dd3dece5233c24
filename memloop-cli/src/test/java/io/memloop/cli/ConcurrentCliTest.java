package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Parallel commands on one store take turns (each waits for the store's lock) instead of failing. */
class ConcurrentCliTest {
  @TempDir Path dir;

  private Result run(String... args) {
    return CliRun.run(args);
  }

  @Test
  void threeParallelRemembers_allSucceed() throws Exception {
    String store = dir.resolve("store").toString();
    assertThat(run("remember", "--store", store, "--embedder", "none", "--embedding", "[1,0,0,0]", "--experience", "first").code()).isZero();
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<Result>> calls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String experience = "parallel " + i;
      calls.add(CompletableFuture.supplyAsync(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        return run("remember", "--store", store, "--embedder", "none", "--embedding", "[0,1,0,0]", "--experience", experience);
      }));
    }
    go.countDown();
    for (CompletableFuture<Result> c : calls) {
      Result r = c.get();
      assertThat(r.code()).as(r.err()).isZero();
    }
    StringWriter out = new StringWriter();
    MemLoopCli.execute(new String[] {"stats", "--store", store, "--embedder", "none"}, new PrintWriter(out), new PrintWriter(new StringWriter()));
    assertThat(out.toString()).contains("4 memories");
  }

  @Test
  void lockTimeout_isValidated() {
    Result r = run("stats", "--store", dir.resolve("s").toString(), "--lock-timeout", "-1");
    assertThat(r.code()).isEqualTo(MemLoopCli.USAGE);
    assertThat(r.err()).startsWith("memloop: --lock-timeout:");
  }
}
