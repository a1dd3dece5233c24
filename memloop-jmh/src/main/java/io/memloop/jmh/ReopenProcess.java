package io.memloop.jmh;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.ClusteredVectors;
import io.memloop.store.lucene.LuceneStore;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Reopen as a user meets it: the wall time of a new JVM that opens a cleanly closed store, retrieves
 * once and closes (what every CLI call does), from process start to exit. Each run opens a fresh copy
 * of the built store, made untimed before the run (so its files are in the page cache: a restart on
 * the same host, not a cold disk). The same JVM started with {@code --jvm-only} (loads the class,
 * opens nothing) is measured as the start-up baseline and reported beside it.
 *
 * <pre>
 * scripts/jmh --main io.memloop.jmh.ReopenProcess SIZE [RUNS]
 * </pre>
 */
public final class ReopenProcess {
  private ReopenProcess() {}

  public static void main(String[] args) throws IOException, InterruptedException {
    if (args.length >= 1 && args[0].equals("--child")) {
      child(args);
      return;
    }
    int size = Integer.parseInt(args[0]);
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 10;
    double[] jvm = new double[runs];
    double[] open = new double[runs];
    for (int i = 0; i < runs; i++) {
      jvm[i] = time(List.of("--child", "--jvm-only"));
      Path dir = Stores.scratchCopy(size, Stores.DEFAULT_SEED, "reopen-process");
      try {
        open[i] = time(List.of("--child", dir.toString(), Integer.toString(size), Integer.toString(i)));
      } finally {
        Stores.delete(dir);
      }
    }
    System.out.printf(Locale.ROOT, "size=%d runs=%d new-process open+retrieve+close: %s; bare JVM start: %s (ms)%n",
        size, runs, summary(open), summary(jvm));
  }

  private static void child(String[] args) {
    if (args[1].equals("--jvm-only")) {
      return;
    }
    int size = Integer.parseInt(args[2]);
    float[] query = new ClusteredVectors(Stores.DEFAULT_SEED, size).query(Integer.parseInt(args[3]));
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(Path.of(args[1]))).build()) {
      loop.retrieve(Stores.NAMESPACE, Intent.ofEmbedding(query));
    }
  }

  /** Milliseconds from starting the child JVM to its exit (it must succeed). */
  private static double time(List<String> childArgs) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED", "-Xmx4g",
        "-cp", System.getProperty("java.class.path"), ReopenProcess.class.getName()));
    command.addAll(childArgs);
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    int code = p.waitFor();
    double ms = (System.nanoTime() - t0) / 1e6;
    if (code != 0) {
      throw new IllegalStateException("child " + childArgs + " exited " + code);
    }
    return ms;
  }

  private static String summary(double[] ms) {
    double[] s = ms.clone();
    Arrays.sort(s);
    return String.format(Locale.ROOT, "p50 %.0f, min %.0f, max %.0f", s[s.length / 2], s[0], s[s.length - 1]);
  }
}
