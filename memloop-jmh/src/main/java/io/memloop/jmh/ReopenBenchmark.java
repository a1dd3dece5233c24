package io.memloop.jmh;

import io.memloop.ClusteredVectors;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time to reopen a cleanly closed store and serve: {@link LuceneStore#open(Path)} + the first
 * {@link MemLoop#retrieve} + {@link MemLoop#close()} (which checkpoints). Each iteration opens a fresh
 * copy of the built store, made untimed in the iteration's setup; the copy leaves its files in the
 * page cache, so this is a warm-cache reopen (a process restart on the same host), not a cold disk.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {
    "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g"})
@State(Scope.Benchmark)
public class ReopenBenchmark {
  @Param({"10000", "100000", "1000000"})
  public int size;

  private Path dir;
  private float[] query;
  private int iteration;

  @Setup(Level.Iteration)
  public void copyStore() {
    dir = Stores.scratchCopy(size, Stores.DEFAULT_SEED, "reopen");
    query = new ClusteredVectors(Stores.DEFAULT_SEED, size).query(iteration++);
  }

  @Benchmark
  public Retrieval openRetrieveClose() {
    try (MemLoop loop = MemLoop.builder()
        .store(LuceneStore.open(dir))
        .config(MemLoopConfig.preset(Preset.MEMRL))
        .build()) {
      return loop.retrieve(Stores.NAMESPACE, Intent.ofEmbedding(query));
    }
  }
}
