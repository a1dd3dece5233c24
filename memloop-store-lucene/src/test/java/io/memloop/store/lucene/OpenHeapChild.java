package io.memloop.store.lucene;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

/**
 * The process {@link RetrievalBoundsTest} runs with a small heap: opens the store at {@code args[0]}
 * with the default options, then prints one line {@code open heapUsedBytes retrievals estimatedBytes}
 * (heap after a full GC) and closes it (which checkpoints, so the next open restores the snapshot).
 */
public final class OpenHeapChild {
  private OpenHeapChild() {}

  public static void main(String[] args) {
    try (LuceneStore store = LuceneStore.open(Path.of(args[0]), LuceneStoreOptions.defaults())) {
      RetrievalBook.Budget budget = store.retrievalBudgetForTesting();
      System.gc();
      long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      System.out.println("open " + used + " " + budget.count() + " " + budget.bytes());
    }
  }
}
