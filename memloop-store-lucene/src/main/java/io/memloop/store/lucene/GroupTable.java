package io.memloop.store.lucene;

import java.util.Arrays;

/**
 * Intent groups by index (creation order): each group's sequence number (id {@code "iN"}), namespace
 * and member slots, oldest first. The representative vector is not here: it lives in Lucene (or in the
 * index tail until the next refresh).
 *
 * <p>A group whose last memory is deleted is flagged {@code deleted} and keeps its index (indices never
 * move) until the store is reopened from a snapshot, which leaves it out.
 *
 * <p>Thread safety: as {@link MemoryTable}, {@link #reserve} has a single writer at a time and
 * publishes through the volatile {@code size}; a group's member list and deleted flag are guarded by
 * its namespace's lock.
 */
final class GroupTable {
  private static final int PAGE_SHIFT = 12;
  private static final int PAGE_SIZE = 1 << PAGE_SHIFT;

  static final class Group {
    final long seq;
    final int namespace;
    /** Member slots, ascending; guarded by the namespace lock. */
    final IntList members = new IntList(1);
    /** Set when its last member is deleted; guarded by the namespace lock. */
    boolean deleted;

    Group(long seq, int namespace) {
      this.seq = seq;
      this.namespace = namespace;
    }
  }

  private volatile Group[][] pages = new Group[0][];
  private volatile int size;
  /** Groups not flagged deleted, over every namespace. */
  private final java.util.concurrent.atomic.AtomicInteger live = new java.util.concurrent.atomic.AtomicInteger();

  /** Groups ever reserved since the store was opened, deleted ones included (indices never move). */
  int size() {
    return size;
  }

  /**
   * Groups not deleted, over every namespace: a namespace that holds this many owns every live group, so
   * its searches need no namespace filter (deleted groups are dropped from results anyway).
   */
  int live() {
    return live.get();
  }

  /** Flags {@code g} deleted (once). Caller holds its namespace's lock. */
  void markDeleted(Group g) {
    if (!g.deleted) {
      g.deleted = true;
      live.decrementAndGet();
    }
  }

  int reserve(long seq, int namespaceId) {
    int index = size;
    assert index == 0 || seq > get(index - 1).seq : "seq " + seq + " after " + get(index - 1).seq;
    Group[][] p = pages;
    if ((index >>> PAGE_SHIFT) == p.length) {
      p = Arrays.copyOf(p, p.length + 1);
      p[p.length - 1] = new Group[PAGE_SIZE];
      pages = p;
    }
    p[index >>> PAGE_SHIFT][index & (PAGE_SIZE - 1)] = new Group(seq, namespaceId);
    live.incrementAndGet();
    size = index + 1;
    return index;
  }

  Group get(int index) {
    return pages[index >>> PAGE_SHIFT][index & (PAGE_SIZE - 1)];
  }

  /** Index of group {@code seq}, or -1. */
  int find(long seq) {
    int lo = 0;
    int hi = size - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long s = get(mid).seq;
      if (s < seq) {
        lo = mid + 1;
      } else if (s > seq) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    return -1;
  }
}
