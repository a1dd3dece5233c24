package io.memloop;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@link MemLoop#list}.
 *
 * @param memories the page, in the query's order
 * @param next the cursor to pass as {@link MemoryQuery#after()} for the next page; null on the last page
 * @param total how many memories match the query's filters, over all pages (at the time of this page)
 */
public record MemoryPage(List<Memory> memories, @Nullable String next, long total) {
  public MemoryPage {
    memories = List.copyOf(memories);
    if (total < memories.size()) {
      throw new IllegalArgumentException("total " + total + " < page size " + memories.size());
    }
  }
}
