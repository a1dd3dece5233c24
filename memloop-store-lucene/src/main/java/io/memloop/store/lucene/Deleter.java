package io.memloop.store.lucene;

import java.io.IOException;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Deletes a memory: log record, RAM tables and Lucene documents as one step per namespace.
 *
 * <p>Locks, in the store's order: the namespace's write lock (the lists change), the index insert lock
 * (so an index commit holds the Lucene delete exactly when its LSN covers the log record, as for
 * inserts), then the memory's stripe while the flag is set and the record appended (so a concurrent
 * reward either logs before the delete or sees the flag and skips the memory). Durability is awaited
 * by the caller after every lock is released (group commit).
 *
 * <p>The memory's id, like every id, is never handed out again. Retrievals that selected it keep
 * their candidate lists; rewarding them updates only their other memories.
 */
final class Deleter {
  /** What happened, and the LSN the caller must see durable before answering. */
  record Result(boolean existed, long durableLsn) {}

  private final StoreState state;
  private final WriteAheadLog wal;
  private final VectorIndex index;
  private final StoreLifecycle lifecycle;

  Deleter(StoreState state, WriteAheadLog wal, VectorIndex index, StoreLifecycle lifecycle) {
    this.state = state;
    this.wal = wal;
    this.index = index;
    this.lifecycle = lifecycle;
  }

  /** Caller holds the lifecycle gate's read side. */
  Result delete(NamespaceState ns, long seq) {
    long lsn;
    long memorySeq;
    long emptiedGroup;
    Lock indexing = index.insertLock();
    ns.lock.writeLock().lock();
    try {
      int slot = seq < 0 ? -1 : state.memories.find(seq);
      if (slot < 0 || state.memories.namespace(slot) != ns.id) {
        return new Result(false, 0);
      }
      if (state.memories.isDeleted(slot)) {
        // a delete was logged: answer "gone" only once that is durable (it is logged before now)
        return new Result(false, wal.appendedLsn());
      }
      GroupTable.Group group = state.groups.get(state.memories.group(slot));
      boolean emptied = group.members.size() == 1;
      memorySeq = state.memories.seq(slot);
      emptiedGroup = emptied ? group.seq : -1;
      indexing.lock(); // held past the namespace lock, until the documents are deleted
      try {
        ReentrantLock stripe = state.stripes.of(slot);
        stripe.lock();
        try {
          lsn = wal.append(new WalRecord.Delete(memorySeq, group.seq, emptied, ns.name)::encode);
          boolean groupWent = state.unpublish(ns, slot);
          assert groupWent == emptied : "group i" + group.seq;
        } finally {
          stripe.unlock();
        }
      } catch (RuntimeException e) {
        indexing.unlock();
        throw lifecycle.fail("logging a delete", e);
      }
    } finally {
      ns.lock.writeLock().unlock();
    }
    try {
      index.delete(memorySeq, emptiedGroup);
    } catch (IOException | RuntimeException e) {
      throw lifecycle.fail("deleting from the index", e); // logged but still indexed: a reopen redoes it
    } finally {
      indexing.unlock();
    }
    return new Result(true, lsn);
  }
}
