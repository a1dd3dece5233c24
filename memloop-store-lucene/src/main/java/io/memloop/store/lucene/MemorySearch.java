package io.memloop.store.lucene;

import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.store.PageCursor;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * {@link io.memloop.store.MemoryStore#search} on this store. Q, visits and updated-at change with every reward and
 * live in RAM ({@link MemoryTable}, never in Lucene), and so do outcome and created-at: filters and sorts on them run
 * over the namespace's primitive columns, never reading a document, keeping the first {@code limit + 1} after the
 * cursor in a bounded heap; the default listing (creation order, no filter) seeks instead. The text filter is a
 * Lucene query on the words indexed with every memory document ({@link IndexView#MEMORY_WORD}), plus the contents
 * in the view's tails (inserted or edited since the last refresh), newest last. Only the page's memories are read
 * from the index.
 *
 * <p>Consistency: the columns are read without the stripe locks, so a memory rewarded during the scan is judged by
 * its utility before or after that reward; the page's memories are then read under their locks as {@code get}
 * reads them. A memory deleted between the scan and the read is left out, and the page scanned again.
 */
final class MemorySearch {
  private final StoreState state;
  private final VectorIndex index;
  private final MemoryReader reader;

  MemorySearch(StoreState state, VectorIndex index, MemoryReader reader) {
    this.state = state;
    this.index = index;
    this.reader = reader;
  }

  MemoryPage search(NamespaceState ns, MemoryQuery query) throws IOException {
    PageCursor.Position from = PageCursor.decode(ns.name, query);
    while (true) {
      long[] total = {0};
      int[] page = candidates(ns, query, from, total);
      List<Memory> memories = reader.memoriesAt(ns, page);
      if (memories.size() == page.length) {
        return PageCursor.page(ns.name, query, memories, total[0]);
      }
      // one was deleted since the scan: scan again rather than answer a short page that claims to be the last
    }
  }

  /** The slots of the first {@code limit + 1} matches after {@code from}, in the query's order; sets the total. */
  private int[] candidates(NamespaceState ns, MemoryQuery q, PageCursor.@Nullable Position from, long[] total) throws IOException {
    MemoryTable t = state.memories;
    int keep = q.limit() + 1;
    if (q.words().isEmpty() && unfiltered(q) && q.sort() == MemoryQuery.Sort.CREATED) {
      ns.lock.readLock().lock();
      try { // the default listing: a seek in the namespace's list, without copying it
        total[0] = ns.memories.size();
        return seek(ns.memories, q.descending(), from, keep);
      } finally {
        ns.lock.readLock().unlock();
      }
    }
    int[] slots;
    IndexView view;
    ns.lock.readLock().lock();
    try {
      slots = ns.memories.toArray(); // ascending slots, hence ascending sequence numbers
      view = index.acquire(); // under the lock: see MemoryReader
    } finally {
      ns.lock.readLock().unlock();
    }
    BitSet text = null;
    try {
      List<String> words = q.words();
      if (!words.isEmpty()) {
        text = textMatches(view, words, t);
      }
    } finally {
      view.release();
    }
    int outcomes = 0;
    for (io.memloop.Outcome o : q.outcomes()) {
      outcomes |= 1 << MemoryContent.code(o);
    }
    // the worst kept on top: for ascending order the greatest position
    boolean desc = q.descending();
    PriorityQueue<long[]> heap = new PriorityQueue<>(keep + 1, (a, b) -> desc ? compare(a, b) : compare(b, a));
    // only the columns a filter or the sort needs are read
    boolean byQ = q.minQ() != Double.NEGATIVE_INFINITY || q.maxQ() != Double.POSITIVE_INFINITY;
    boolean byVisits = q.minVisits() != 0 || q.maxVisits() != Long.MAX_VALUE;
    boolean byCreated = q.createdFrom() != null || q.createdTo() != null;
    boolean byUpdated = q.updatedFrom() != null || q.updatedTo() != null;
    long[] after = from == null ? null : new long[] {from.key(), from.key2(), from.seq()};
    long n = 0;
    for (int slot : slots) {
      if (text != null && !text.get(slot)) {
        continue;
      }
      if (outcomes != 0 && (outcomes & 1 << t.outcome(slot)) == 0) {
        continue;
      }
      if (byQ) {
        double qv = t.q(slot);
        if (qv < q.minQ() || qv > q.maxQ()) {
          continue;
        }
      }
      if (byVisits) {
        long visits = t.visits(slot);
        if (visits < q.minVisits() || visits > q.maxVisits()) {
          continue;
        }
      }
      if (byCreated && !within(t.createdSeconds(slot), t.createdNanos(slot), q.createdFrom(), q.createdTo())) {
        continue;
      }
      if (byUpdated && !within(t.updatedSeconds(slot), t.updatedNanos(slot), q.updatedFrom(), q.updatedTo())) {
        continue;
      }
      n++;
      long k0;
      long k1;
      switch (q.sort()) {
        case UPDATED -> {
          k0 = t.updatedSeconds(slot);
          k1 = t.updatedNanos(slot);
        }
        case Q -> {
          k0 = PageCursor.sortableLong(t.q(slot));
          k1 = 0;
        }
        case VISITS -> {
          k0 = t.visits(slot);
          k1 = 0;
        }
        default -> {
          k0 = 0;
          k1 = 0;
        }
      }
      long seq = t.seq(slot);
      if (after != null) {
        int c = compare(k0, k1, seq, after);
        if (desc ? c >= 0 : c <= 0) {
          continue;
        }
      }
      if (heap.size() < keep) {
        heap.add(new long[] {k0, k1, seq, slot});
      } else {
        int c = compare(k0, k1, seq, heap.peek()); // allocates only for what enters the page
        if (desc ? c > 0 : c < 0) {
          heap.poll();
          heap.add(new long[] {k0, k1, seq, slot});
        }
      }
    }
    total[0] = n;
    long[][] sorted = heap.toArray(new long[0][]);
    java.util.Arrays.sort(sorted, (a, b) -> desc ? compare(b, a) : compare(a, b));
    int[] out = new int[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      out[i] = (int) sorted[i][3];
    }
    return out;
  }

  /** Creation order without filters: a binary search for the cursor in the namespace's (ascending) slots. */
  private int[] seek(IntList slots, boolean desc, PageCursor.@Nullable Position from, int keep) {
    MemoryTable t = state.memories;
    int lo = 0;
    int hi = slots.size();
    long after = from == null ? (desc ? Long.MAX_VALUE : -1) : from.seq();
    while (lo < hi) { // first index whose sequence is above `after`
      int mid = (lo + hi) >>> 1;
      if (t.seq(slots.get(mid)) <= after) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    if (!desc) {
      int n = Math.max(0, Math.min(keep, slots.size() - lo));
      int[] out = new int[n];
      for (int i = 0; i < n; i++) {
        out[i] = slots.get(lo + i);
      }
      return out;
    }
    int end = lo; // indices below lo have sequence ≤ after; the cursor's own is excluded
    if (end > 0 && from != null && t.seq(slots.get(end - 1)) == from.seq()) {
      end--;
    }
    int n = Math.min(keep, end);
    int[] out = new int[n];
    for (int i = 0; i < n; i++) {
      out[i] = slots.get(end - 1 - i);
    }
    return out;
  }

  /** Slots whose current text holds every word: the reader's documents, then the tails' contents, newest last. */
  private static BitSet textMatches(IndexView view, List<String> words, MemoryTable t) throws IOException {
    BitSet out = new BitSet(t.size());
    view.memoriesWithWords(words, seq -> {
      int slot = t.find(seq);
      if (slot >= 0) {
        out.set(slot);
      }
    });
    for (Tail tail : view.tails) {
      tail.memories.forEach((slot, content) -> {
        Set<String> held = new HashSet<>(MemoryQuery.words(content.intentText()));
        held.addAll(MemoryQuery.words(content.experience()));
        out.set(slot, held.containsAll(words));
      });
    }
    return out;
  }

  private static boolean unfiltered(MemoryQuery q) {
    return q.outcomes().isEmpty() && q.minQ() == Double.NEGATIVE_INFINITY && q.maxQ() == Double.POSITIVE_INFINITY
        && q.minVisits() == 0 && q.maxVisits() == Long.MAX_VALUE && q.createdFrom() == null && q.createdTo() == null
        && q.updatedFrom() == null && q.updatedTo() == null;
  }

  /** Whether (seconds, nanos) is in [from, to). */
  private static boolean within(long seconds, int nanos, Instant from, Instant to) {
    if (from != null && (seconds < from.getEpochSecond() || seconds == from.getEpochSecond() && nanos < from.getNano())) {
      return false;
    }
    return to == null || seconds < to.getEpochSecond() || seconds == to.getEpochSecond() && nanos < to.getNano();
  }

  /** Position (k0, k1, seq) against {@code b} (key, key2, seq, ...) in ascending order. */
  private static int compare(long k0, long k1, long seq, long[] b) {
    int c = Long.compare(k0, b[0]);
    if (c == 0) {
      c = Long.compare(k1, b[1]);
    }
    return c != 0 ? c : Long.compare(seq, b[2]);
  }

  /** Positions (key, key2, seq, ...) in ascending order. */
  private static int compare(long[] a, long[] b) {
    int c = Long.compare(a[0], b[0]);
    if (c == 0) {
      c = Long.compare(a[1], b[1]);
    }
    return c != 0 ? c : Long.compare(a[2], b[2]);
  }
}
