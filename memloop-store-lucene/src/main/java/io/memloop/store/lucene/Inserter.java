package io.memloop.store.lucene;

import io.memloop.Memory;
import io.memloop.MemLoopException;
import io.memloop.store.NewMemory;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.locks.Lock;
import org.jspecify.annotations.Nullable;

/**
 * Stores a memory: merge decision, log append, indexing and publication as one step per namespace.
 *
 * <p>Under the namespace's write lock: find the nearest group (HNSW plus the tail); then, also under
 * the index insert lock, append the log record (ids and table slots are assigned inside the log lock,
 * so they increase in log order), add the tail entries and publish the memory in its group and
 * namespace. The Lucene documents (and the HNSW insertion they cost) are added after the namespace
 * lock is released, still under the index insert lock. Durability is awaited after every lock is
 * released.
 */
final class Inserter {
  /**
   * Above any cosine of two unit float vectors: rounding can take a dot product past 1, but by far
   * less than this for any dimension the store accepts (about dimension × 2^-24).
   */
  private static final double MAX_COSINE = 1.001;

  /** Bytes reserved in a log record for everything but the memory content. */
  private static final int RECORD_OVERHEAD_BYTES = 4096;

  private final Path dir;
  private final int dimension;
  private final StoreState state;
  private final WriteAheadLog wal;
  private final VectorIndex index;
  private final StoreLifecycle lifecycle;

  Inserter(Path dir, int dimension, StoreState state, WriteAheadLog wal, VectorIndex index, StoreLifecycle lifecycle) {
    this.dir = dir;
    this.dimension = dimension;
    this.state = state;
    this.wal = wal;
    this.index = index;
    this.lifecycle = lifecycle;
  }

  Memory insert(NewMemory m, double mergeThreshold) {
    if (m.intentEmbedding().length != dimension) {
      throw MemLoopException.invalid("intentEmbedding", "has " + m.intentEmbedding().length
          + " components, the store at " + dir + " has dimension " + dimension);
    }
    MemoryContent content =
        new MemoryContent(m.intentText(), m.experience(), m.outcome(), m.createdAt(), m.intentEmbedding().clone());
    byte[] blob = content.encode();
    if (blob.length > WriteAheadLog.MAX_RECORD_BYTES - RECORD_OVERHEAD_BYTES) {
      throw MemLoopException.invalid("experience", "memory is " + blob.length + " bytes encoded, the limit is "
          + (WriteAheadLog.MAX_RECORD_BYTES - RECORD_OVERHEAD_BYTES));
    }
    long[] ids = new long[3]; // end LSN, memory seq, group seq
    NamespaceState ns;
    boolean fresh;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      ns = state.namespaces.getOrCreate(m.namespace());
      Lock indexing = index.insertLock();
      ns.lock.writeLock().lock();
      try {
        IndexView.GroupHit join = nearestGroup(ns, content.embedding(), mergeThreshold);
        fresh = join == null;
        indexing.lock(); // held past the namespace lock, until the documents are added
        try {
          int[] at = new int[2]; // slot, group index
          ids[0] = wal.append(out -> {
            ids[2] = fresh ? state.sequence.incrementAndGet() : join.seq();
            at[1] = fresh ? state.groups.reserve(ids[2], ns.id) : join.index();
            ids[1] = state.sequence.incrementAndGet();
            at[0] = state.memories.reserve(ids[1], ns.id);
            new WalRecord.Insert(ids[1], ids[2], fresh, ns.name, m.initialQ(), blob).encode(out);
          });
          index.addToTail(ns, at[0], content, fresh ? content.embedding() : null, at[1], ids[2]);
          state.publish(ns, at[0], at[1], fresh, m.initialQ(), m.createdAt());
        } catch (RuntimeException e) {
          indexing.unlock();
          throw lifecycle.fail("logging a memory", e); // ids may be reserved: only a reopen reconciles
        }
      } finally {
        ns.lock.writeLock().unlock();
      }
      // The namespace is free for the next insert (which sees this one in the tail) while Lucene
      // builds this memory's graph node.
      try {
        index.addDocuments(ns.name, ids[1], blob, fresh ? content.embedding() : null, ids[2]);
      } catch (IOException | RuntimeException e) {
        throw lifecycle.fail("indexing a memory", e); // logged but not indexed: a reopen re-indexes it
      } finally {
        indexing.unlock();
      }
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    lifecycle.awaitDurable(ids[0]);
    lifecycle.afterWrite(true);
    return content.toMemory("m" + ids[1], ns.name, "i" + ids[2], m.initialQ(), 0, m.createdAt());
  }

  /** The most similar group of {@code ns} at or above the threshold; caller holds the namespace lock. */
  private IndexView.@Nullable GroupHit nearestGroup(NamespaceState ns, float[] embedding, double threshold) {
    if (threshold > MAX_COSINE) {
      return null; // nothing can match: skip the search
    }
    IndexView view = index.acquire();
    try {
      boolean filter = ns.groups.size() < state.groups.size();
      List<IndexView.GroupHit> best = view.searchGroups(ns, filter, embedding, 1, threshold, state.groups);
      return best.isEmpty() ? null : best.get(0);
    } catch (IOException e) {
      throw lifecycle.unavailable("searching intents", e);
    } finally {
      try {
        view.release();
      } catch (IOException e) {
        throw lifecycle.fail("releasing a reader", e);
      }
    }
  }
}
