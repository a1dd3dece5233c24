package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import io.memloop.store.Annotations;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Memories' annotations ({@link io.memloop.store.MemoryStore#annotate}): one {@link WalRecord.Annotate} per call
 * (absolute values, so replay needs nothing else) and the namespace's map of memory sequence to annotations. The
 * store keeps the bytes and never looks inside them.
 *
 * <p>Locks: the namespace's read lock (a delete, which takes the write lock and drops the memory's annotations
 * when it unpublishes it, cannot run between the liveness check and the write), then the namespace's annotation
 * map's monitor, so the log orders a namespace's annotate calls as they are applied. Durability is deferred as for
 * ledger entries; the caller waits, or not, after releasing the locks.
 */
final class Annotator {
  private final StoreState state;
  private final WriteAheadLog wal;

  Annotator(StoreState state, WriteAheadLog wal) {
    this.state = state;
    this.wal = wal;
  }

  /** The non-empty annotations of the listed live memories of {@code ns}. */
  static Map<String, Annotations> read(NamespaceState ns, Collection<String> memoryIds) {
    Map<String, Annotations> out = new HashMap<>();
    for (String id : memoryIds) {
      long seq = Ids.parse(id, 'm');
      Annotations a = seq < 0 ? null : ns.annotations.get(seq);
      if (a != null) {
        out.put(id, a);
      }
    }
    return out;
  }

  /**
   * Logs and applies the annotations of the live memories among {@code byMemoryId}; returns the record's end LSN,
   * or -1 if no listed memory is live (nothing is logged). Caller holds the lifecycle gate's read side.
   */
  long annotate(NamespaceState ns, Map<String, Annotations> byMemoryId) {
    List<Long> seqs = new ArrayList<>(byMemoryId.size());
    List<Annotations> values = new ArrayList<>(byMemoryId.size());
    long bytes = 0;
    ns.lock.readLock().lock();
    try {
      for (Map.Entry<String, Annotations> e : byMemoryId.entrySet()) {
        Annotations a = Objects.requireNonNull(e.getValue(), () -> "annotations of '" + e.getKey() + "'");
        long seq = Ids.parse(e.getKey(), 'm');
        if (state.liveSlot(ns, seq) < 0) {
          continue; // no such memory, or deleted: its annotations would outlive it
        }
        seqs.add(seq);
        values.add(a);
        bytes += 12 + a.encodedBytes();
      }
      if (seqs.isEmpty()) {
        return -1;
      }
      if (bytes > WriteAheadLog.MAX_RECORD_BYTES - Inserter.RECORD_OVERHEAD_BYTES) {
        throw MemLoopException.invalid("annotations", "one call's annotations are " + bytes
            + " bytes encoded, the limit is " + (WriteAheadLog.MAX_RECORD_BYTES - Inserter.RECORD_OVERHEAD_BYTES)
            + "; annotate fewer memories per call");
      }
      long[] memorySeqs = seqs.stream().mapToLong(Long::longValue).toArray();
      Annotations[] annotations = values.toArray(Annotations[]::new);
      synchronized (ns.annotations) { // the log orders a namespace's annotate calls as they are applied
        long lsn = wal.append(new WalRecord.Annotate(ns.name, memorySeqs, annotations)::encode);
        state.annotate(ns, memorySeqs, annotations);
        return lsn;
      }
    } finally {
      ns.lock.readLock().unlock();
    }
  }
}
