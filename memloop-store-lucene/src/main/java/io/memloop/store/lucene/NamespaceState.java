package io.memloop.store.lucene;

import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * One tenant's memories, intent groups and pending retrievals.
 *
 * <p>Thread safety: {@code lock} is held for writing by an insert from its merge decision to the
 * publication of the new memory (the SPI's "insert is atomic per namespace"), and for reading by
 * everything that walks the lists below. Retrievals have their own lock ({@link RetrievalBook}).
 */
final class NamespaceState {
  final int id;
  final String name;
  final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  /** Memory slots, oldest first; guarded by {@code lock}. */
  final IntList memories = new IntList(16);
  /** Group indices, oldest first; guarded by {@code lock}. */
  final IntList groups = new IntList(16);
  final RetrievalBook retrievals;
  /**
   * Per-task learning statistics by key ({@link io.memloop.store.MemoryStore#ledger}); a key's array is
   * replaced, never mutated, so readers may copy it without a lock. Keys are put and removed under this map's
   * monitor, which also orders their log records.
   */
  final java.util.concurrent.ConcurrentHashMap<String, double[]> ledger = new java.util.concurrent.ConcurrentHashMap<>();
  /**
   * Live memories' annotations by memory sequence, only non-empty ones ({@link io.memloop.store.MemoryStore#annotate});
   * written by {@link Annotator} under the read side of {@code lock} and this map's monitor, dropped by a delete under
   * the write side.
   */
  final java.util.concurrent.ConcurrentHashMap<Long, io.memloop.store.Annotations> annotations =
      new java.util.concurrent.ConcurrentHashMap<>();

  NamespaceState(int id, String name, RetrievalBook.Limits limits, RetrievalBook.Budget budget) {
    this.id = id;
    this.name = name;
    this.retrievals = new RetrievalBook(limits, budget);
  }
}
