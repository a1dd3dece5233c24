package io.memloop.jmh;

import io.memloop.store.lucene.VectorFormat;
import io.memloop.ClusteredVectors;
import io.memloop.store.lucene.LuceneStore;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Resident memory of an open store, per memory. Two views, each as (with store open) − (before open):
 * <ul>
 *   <li>Java heap used after a full GC ({@code MemoryMXBean}): what the store keeps on the heap
 *       (utilities, id tables, group lists, Lucene reader state);
 *   <li>{@code VmRSS} and {@code RssAnon} from {@code /proc/self/status}: the process as the OS sees it.
 *       VmRSS also counts touched pages of memory-mapped index files ({@code RssFile}), which the
 *       kernel can drop under pressure; RssAnon also counts heap the JVM committed and has not
 *       returned, so both overstate the store's own need.
 * </ul>
 * {@code QUERIES} recalls (default 1,000) run first so the index pages a search touches are mapped in; with
 * {@code FORMAT}, the store built in that {@link VectorFormat} (its searches touch the quantized copy, and the float
 * vectors only of the candidates they rescore).
 *
 * <pre>
 * java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Xmx4g \
 *   -cp memloop-jmh/target/benchmarks.jar io.memloop.jmh.MemoryFootprint SIZE [SEED] [FORMAT] [QUERIES]
 * </pre>
 */
public final class MemoryFootprint {
  private MemoryFootprint() {}

  public static void main(String[] args) throws IOException {
    int size = Integer.parseInt(args[0]);
    long seed = args.length > 1 ? Long.parseLong(args[1]) : Stores.DEFAULT_SEED;
    VectorFormat format = args.length > 2 ? VectorFormat.parse("FORMAT", args[2]) : VectorFormat.FLOAT32;
    int n = args.length > 3 ? Integer.parseInt(args[3]) : 1000;
    ClusteredVectors vectors = new ClusteredVectors(seed, size);
    float[][] queries = new float[n][];
    for (int i = 0; i < queries.length; i++) {
      queries[i] = vectors.query(i);
    }
    Path dir = Stores.scratchCopy(size, seed, format, "footprint");
    Snapshot before = Snapshot.take();
    Snapshot open;
    try (LuceneStore store = LuceneStore.open(dir)) {
      for (float[] q : queries) {
        store.recall(Stores.NAMESPACE, q, 5, 0.5);
      }
      open = Snapshot.take();
      System.out.println(store);
    } finally {
      Stores.delete(dir);
    }
    System.out.printf(Locale.ROOT, "before open: %s%nstore open:  %s%n", before, open);
    System.out.printf(Locale.ROOT, "format %s, %d recalls%n", format.id(), n);
    System.out.printf(Locale.ROOT,
        "per memory (n=%d): heap used after GC %.0f B, VmRSS %.0f B, RssAnon %.0f B, RssFile %.0f B%n", size,
        (open.heapUsed - before.heapUsed) / (double) size, (open.rss - before.rss) / (double) size,
        (open.rssAnon - before.rssAnon) / (double) size, (open.rssFile - before.rssFile) / (double) size);
  }

  private record Snapshot(long heapUsed, long heapCommitted, long rss, long rssAnon, long rssFile) {
    static Snapshot take() throws IOException {
      for (int i = 0; i < 3; i++) {
        System.gc();
      }
      var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
      String status = Files.readString(Path.of("/proc/self/status"));
      return new Snapshot(heap.getUsed(), heap.getCommitted(), kib(status, "VmRSS:"), kib(status, "RssAnon:"),
          kib(status, "RssFile:"));
    }

    /** A "Name:   123 kB" line of /proc/self/status, in bytes. */
    private static long kib(String status, String name) {
      int at = status.indexOf(name);
      String line = status.substring(at + name.length(), status.indexOf('\n', at)).trim();
      return Long.parseLong(line.substring(0, line.indexOf(' '))) * 1024;
    }

    @Override
    public String toString() {
      return String.format(Locale.ROOT, "heap used %,d KiB (committed %,d KiB), VmRSS %,d KiB, RssAnon %,d KiB,"
          + " RssFile %,d KiB", heapUsed >> 10, heapCommitted >> 10, rss >> 10, rssAnon >> 10, rssFile >> 10);
    }
  }
}
