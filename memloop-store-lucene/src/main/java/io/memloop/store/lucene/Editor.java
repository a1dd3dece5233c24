package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import java.io.IOException;
import java.time.Instant;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * Edits a memory's experience: one {@link WalRecord.Edit} (the whole new content, so replay needs nothing else),
 * the updated-at in the memory table, the new content in the live tail (reads see it at once) and the memory's
 * Lucene document replaced (its words change).
 *
 * <p>Locks, in the store's order, as {@link Deleter}: the namespace's write lock (the memory cannot be deleted or
 * edited meanwhile), the index insert lock (held until the document is replaced, so an index commit holds the edit
 * exactly when its LSN covers the record), then the memory's stripe while the record is appended and the
 * updated-at set (a concurrent reward logs before or after, and the log's order is the table's).
 */
final class Editor {
  /** The edited memory (null if there was none) and the LSN the caller must see durable before answering. */
  record Result(@Nullable Memory memory, long durableLsn) {}

  private final StoreState state;
  private final WriteAheadLog wal;
  private final VectorIndex index;
  private final StoreLifecycle lifecycle;

  Editor(StoreState state, WriteAheadLog wal, VectorIndex index, StoreLifecycle lifecycle) {
    this.state = state;
    this.wal = wal;
    this.index = index;
    this.lifecycle = lifecycle;
  }

  /** Caller holds the lifecycle gate's read side. */
  Result edit(NamespaceState ns, long seq, String experience, Instant now) throws IOException {
    long lsn;
    Memory edited;
    byte[] blob;
    Lock indexing = index.insertLock();
    ns.lock.writeLock().lock();
    try {
      int slot = state.liveSlot(ns, seq);
      if (slot < 0) {
        return new Result(null, 0);
      }
      MemoryContent old;
      IndexView view = index.acquire(); // under the namespace lock, as MemoryReader acquires its views
      try {
        old = view.contents(new int[] {slot}, new long[] {seq})[0];
      } finally {
        view.release();
      }
      MemoryContent content = new MemoryContent(old.intentText(), experience, old.outcome(), old.createdAt(), old.embedding());
      blob = content.encode();
      if (blob.length > WriteAheadLog.MAX_RECORD_BYTES - Inserter.RECORD_OVERHEAD_BYTES) {
        throw MemLoopException.invalid("experience", "memory is " + blob.length + " bytes encoded, the limit is "
            + (WriteAheadLog.MAX_RECORD_BYTES - Inserter.RECORD_OVERHEAD_BYTES));
      }
      long groupSeq = state.groups.get(state.memories.group(slot)).seq;
      indexing.lock(); // held past the namespace lock, until the document is replaced
      try {
        double q;
        long visits;
        ReentrantLock stripe = state.stripes.of(slot);
        stripe.lock();
        try {
          lsn = wal.append(new WalRecord.Edit(seq, ns.name, now, blob)::encode);
          q = state.memories.q(slot);
          visits = state.memories.visits(slot);
          state.memories.setUtility(slot, q, visits, now);
        } finally {
          stripe.unlock();
        }
        index.putInTail(slot, content);
        edited = content.toMemory("m" + seq, ns.name, "i" + groupSeq, q, visits, now);
      } catch (RuntimeException e) {
        indexing.unlock();
        throw lifecycle.fail("logging an edit", e);
      }
    } finally {
      ns.lock.writeLock().unlock();
    }
    try {
      index.update(seq, blob);
    } catch (IOException | RuntimeException e) {
      throw lifecycle.fail("indexing an edit", e); // logged but not indexed: a reopen redoes it
    } finally {
      indexing.unlock();
    }
    return new Result(edited, lsn);
  }
}
