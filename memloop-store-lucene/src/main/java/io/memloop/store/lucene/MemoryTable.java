package io.memloop.store.lucene;

import java.time.Instant;
import java.util.Arrays;

/**
 * Every memory's mutable state as primitives, by slot (0, 1, ... in insertion order): its sequence
 * number (the {@code N} of id {@code "mN"}), namespace, intent group, Q, visits, updated-at and
 * whether it was deleted; and, for listing and filtering without reading Lucene, its outcome and
 * created-at. About 58 bytes a memory; texts and vectors stay on disk in Lucene. A deleted
 * memory keeps its slot (slots never move) until the store is reopened from a snapshot, which leaves
 * deleted memories out.
 *
 * <p>Storage is paged so that growing never copies the data, only the page table.
 *
 * <p>Thread safety and invariants:
 * <ul>
 *   <li>{@link #reserve} is called by one thread at a time (under the log lock, or during replay), so
 *       slots are handed out in log order and {@code seq} increases with the slot; {@link #find} is
 *       therefore a binary search.
 *   <li>{@code size} is volatile and written after the slot's seq and namespace, so any reader that
 *       sees a slot below {@code size} sees its seq and namespace. Group and utility fields become
 *       visible through the namespace lock the inserting thread holds until it has written them.
 *   <li>Q, visits and updated-at of published slots are read and written under the slot's stripe
 *       lock ({@link Stripes}).
 *   <li>The deleted flag is set once, under both the namespace's write lock and the slot's stripe
 *       lock, so it may be read under either.
 * </ul>
 */
final class MemoryTable {
  static final int PAGE_SHIFT = 12;
  static final int PAGE_SIZE = 1 << PAGE_SHIFT;
  private static final int MASK = PAGE_SIZE - 1;

  private static final class Page {
    final long[] seq = new long[PAGE_SIZE];
    final int[] namespace = new int[PAGE_SIZE];
    final int[] group = new int[PAGE_SIZE];
    final double[] q = new double[PAGE_SIZE];
    final long[] visits = new long[PAGE_SIZE];
    final long[] updatedSeconds = new long[PAGE_SIZE];
    final int[] updatedNanos = new int[PAGE_SIZE];
    final boolean[] deleted = new boolean[PAGE_SIZE];
    final long[] createdSeconds = new long[PAGE_SIZE];
    final int[] createdNanos = new int[PAGE_SIZE];
    /** {@link MemoryContent} outcome code; {@link #UNKNOWN_YET} until read (a store opened from an older snapshot). */
    final byte[] outcome = new byte[PAGE_SIZE];
  }

  /** The outcome code of a slot whose outcome and created-at are not loaded yet. */
  static final byte UNKNOWN_YET = -1;

  private volatile Page[] pages = new Page[0];
  private volatile int size;

  int size() {
    return size;
  }

  /** Appends a slot for memory {@code seq} of namespace {@code namespaceId}; single writer. */
  int reserve(long seq, int namespaceId) {
    int slot = size;
    assert slot == 0 || seq > seq(slot - 1) : "seq " + seq + " after " + seq(slot - 1);
    Page[] p = pages;
    if ((slot >>> PAGE_SHIFT) == p.length) {
      p = Arrays.copyOf(p, p.length + 1);
      p[p.length - 1] = new Page();
      pages = p;
    }
    Page page = p[slot >>> PAGE_SHIFT];
    page.seq[slot & MASK] = seq;
    page.namespace[slot & MASK] = namespaceId;
    page.outcome[slot & MASK] = UNKNOWN_YET;
    size = slot + 1;
    return slot;
  }

  /** Slot of memory {@code seq}, or -1. */
  int find(long seq) {
    int lo = 0;
    int hi = size - 1;
    Page[] p = pages;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      long s = p[mid >>> PAGE_SHIFT].seq[mid & MASK];
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

  private Page page(int slot) {
    return pages[slot >>> PAGE_SHIFT];
  }

  long seq(int slot) {
    return page(slot).seq[slot & MASK];
  }

  int namespace(int slot) {
    return page(slot).namespace[slot & MASK];
  }

  int group(int slot) {
    return page(slot).group[slot & MASK];
  }

  void setGroup(int slot, int group) {
    page(slot).group[slot & MASK] = group;
  }

  boolean isDeleted(int slot) {
    return page(slot).deleted[slot & MASK];
  }

  void markDeleted(int slot) {
    page(slot).deleted[slot & MASK] = true;
  }

  double q(int slot) {
    return page(slot).q[slot & MASK];
  }

  long visits(int slot) {
    return page(slot).visits[slot & MASK];
  }

  Instant updatedAt(int slot) {
    Page p = page(slot);
    return Instant.ofEpochSecond(p.updatedSeconds[slot & MASK], p.updatedNanos[slot & MASK]);
  }

  long updatedSeconds(int slot) {
    return page(slot).updatedSeconds[slot & MASK];
  }

  int updatedNanos(int slot) {
    return page(slot).updatedNanos[slot & MASK];
  }

  void setUtility(int slot, double q, long visits, long updatedSeconds, int updatedNanos) {
    Page p = page(slot);
    p.q[slot & MASK] = q;
    p.visits[slot & MASK] = visits;
    p.updatedSeconds[slot & MASK] = updatedSeconds;
    p.updatedNanos[slot & MASK] = updatedNanos;
  }

  void setUtility(int slot, double q, long visits, Instant updatedAt) {
    setUtility(slot, q, visits, updatedAt.getEpochSecond(), updatedAt.getNano());
  }

  /** Sets the immutable columns; before the slot is published (or while filling them after an open). */
  void setContent(int slot, int outcomeCode, long createdSeconds, int createdNanos) {
    Page p = page(slot);
    p.createdSeconds[slot & MASK] = createdSeconds;
    p.createdNanos[slot & MASK] = createdNanos;
    p.outcome[slot & MASK] = (byte) outcomeCode;
  }

  long createdSeconds(int slot) {
    return page(slot).createdSeconds[slot & MASK];
  }

  int createdNanos(int slot) {
    return page(slot).createdNanos[slot & MASK];
  }

  /** {@link MemoryContent#code} of the outcome, or {@link #UNKNOWN_YET}. */
  int outcome(int slot) {
    return page(slot).outcome[slot & MASK];
  }

  /** Approximate heap held by the table. */
  long ramBytesUsed() {
    return (long) pages.length * PAGE_SIZE * (8 + 4 + 4 + 8 + 8 + 8 + 4 + 1 + 8 + 4 + 1);
  }
}
