package io.memloop.store.lucene;

import io.memloop.Memory;
import io.memloop.MemLoopException;
import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import io.memloop.store.StoreCounts;
import io.memloop.store.UtilityUpdate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The durable embedded store. Phase A runs on a Lucene HNSW index of intent vectors (exact
 * similarities recomputed for the gate); every mutation is appended to a write-ahead log and forced
 * to disk before the call returns, with concurrent writers sharing each {@code fsync} (group commit).
 * Utilities and retrievals live in RAM as primitives, rebuilt on open from the latest snapshot plus
 * the log; texts and vectors stay on disk in Lucene.
 *
 * <p>One process at a time: opening takes an OS lock on the directory.
 *
 * <p><b>Thread safety</b> (as the SPI requires): all methods may be called concurrently. Inserts are
 * serialised per namespace; rewards claim a retrieval once and update each memory under its stripe
 * lock; reads never wait for disk syncs. Lock order, outermost first: commit lock, gate (see {@link
 * StoreLifecycle}), a namespace lock, the index insert lock, a retrieval's monitor, memory stripes, a
 * retrieval book, the log lock. Durability is awaited after all of them are released, so a reader may
 * briefly see a write that is not yet acknowledged; a crash can lose such a write only together with
 * every write logged after it, and ids it exposed are never handed out again (see {@link StoreOpener}).
 */
public final class LuceneStore implements MemoryStore {
  private final Path dir;
  private final int dimension;
  private final StoreState state;
  private final StoreLifecycle lifecycle;
  private final Inserter inserter;
  private final MemoryReader reader;
  private final Rewarder rewarder;
  private final WriteAheadLog wal;

  private LuceneStore(Path dir, LuceneStoreOptions options, StoreOpener.Opened parts) {
    this.dir = dir;
    this.dimension = parts.meta().dimension();
    this.state = parts.state();
    this.wal = parts.wal();
    this.lifecycle = new StoreLifecycle(dir, options, parts);
    this.inserter = new Inserter(dir, dimension, state, wal, parts.index(), lifecycle);
    this.reader = new MemoryReader(state, parts.index());
    this.rewarder = new Rewarder(state, wal);
  }

  /** Opens the store in {@code dir}, creating it if absent; an existing store must have {@code dimension}. */
  public static LuceneStore open(Path dir, int dimension) {
    return open(dir, dimension, LuceneStoreOptions.defaults());
  }

  public static LuceneStore open(Path dir, int dimension, LuceneStoreOptions options) {
    if (dimension < 1 || dimension > StoreMeta.MAX_DIMENSION) {
      throw MemLoopException.invalid("dimension", "must be in [1, " + StoreMeta.MAX_DIMENSION + "], got " + dimension);
    }
    return new LuceneStore(dir, options, StoreOpener.open(dir, dimension, options));
  }

  /** Opens an existing store, whatever its dimension; NOT_FOUND if {@code dir} holds none. */
  public static LuceneStore open(Path dir) {
    return open(dir, LuceneStoreOptions.defaults());
  }

  public static LuceneStore open(Path dir, LuceneStoreOptions options) {
    return new LuceneStore(dir, options, StoreOpener.open(dir, 0, options));
  }

  /** Whether {@code dir} holds a MemLoop store (its metadata file exists; it is not validated). */
  public static boolean exists(Path dir) {
    return Files.isRegularFile(dir.resolve(StoreFiles.META));
  }

  public Path directory() {
    return dir;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public boolean isDurable() {
    return true;
  }

  @Override
  public Memory insert(NewMemory memory, double mergeThreshold) {
    return inserter.insert(memory, mergeThreshold);
  }

  @Override
  public List<IntentMatch> recall(String namespace, float[] query, int k, double minSimilarity) {
    lifecycle.ensureUsable();
    if (query.length != dimension) {
      throw MemLoopException.invalid("query", "has " + query.length + " components, the store at " + dir
          + " has dimension " + dimension);
    }
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null || k < 1) {
      return List.of();
    }
    try {
      return reader.recall(ns, query, k, minSimilarity);
    } catch (IOException e) {
      throw lifecycle.unavailable("recalling from", e);
    }
  }

  @Override
  public Optional<Memory> get(String namespace, String memoryId) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      return Optional.empty();
    }
    try {
      return reader.get(ns, memoryId);
    } catch (IOException e) {
      throw lifecycle.unavailable("reading memory " + memoryId + " from", e);
    }
  }

  @Override
  public RetrievalRecord saveRetrieval(RetrievalRecordDraft draft) {
    long lsn;
    RetrievalRecord record;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      NamespaceState ns = state.namespaces.getOrCreate(draft.namespace());
      long seq = state.sequence.incrementAndGet();
      record = draft.withId("r" + seq);
      WalRecord.RetrievalSaved logged = new WalRecord.RetrievalSaved(seq, record);
      lsn = ns.retrievals.save(new RetrievalBook.Pending(seq, record), () -> wal.append(logged::encode));
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    lifecycle.awaitDurable(lsn);
    lifecycle.afterWrite(false);
    return record;
  }

  @Override
  public RewardOutcome applyReward(String namespace, String retrievalId, Instant now, UtilityUpdate update) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    long seq = Ids.parse(retrievalId, 'r');
    RetrievalBook.Pending pending = ns == null || seq < 0 ? null : ns.retrievals.get(seq);
    if (pending == null) {
      return new RewardOutcome.Unknown();
    }
    Rewarder.Result result;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      result = rewarder.apply(ns, pending, now, update);
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    lifecycle.awaitDurable(result.durableLsn());
    lifecycle.afterWrite(false);
    return result.outcome();
  }

  @Override
  public void forEachMemory(String namespace, Consumer<Memory> visitor) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      return;
    }
    try {
      reader.forEach(ns, visitor);
    } catch (IOException e) {
      throw lifecycle.unavailable("scanning namespace " + namespace + " of", e);
    }
  }

  @Override
  public StoreCounts counts(String namespace, Instant now) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      return new StoreCounts(0, 0, 0);
    }
    long memories;
    long groups;
    ns.lock.readLock().lock();
    try {
      memories = ns.memories.size();
      groups = ns.groups.size();
    } finally {
      ns.lock.readLock().unlock();
    }
    return new StoreCounts(memories, groups, ns.retrievals.countPending(now));
  }

  @Override
  public Set<String> namespaces() {
    lifecycle.ensureUsable();
    Set<String> out = new TreeSet<>();
    for (NamespaceState ns : state.namespaces.all()) {
      ns.lock.readLock().lock();
      try {
        if (ns.memories.size() > 0 || !ns.retrievals.isEmpty()) {
          out.add(ns.name);
        }
      } finally {
        ns.lock.readLock().unlock();
      }
    }
    return out;
  }

  /**
   * Checkpoints now: commits the index, snapshots utilities and retrievals, and deletes the log
   * segments the snapshot replaces. Also runs on its own every {@link
   * LuceneStoreOptions#checkpointEveryBytes()} of log, and on close.
   */
  public void checkpoint() {
    lifecycle.checkpoint();
  }

  /** Checkpoints, then releases files and the directory lock; later calls fail, closing again does nothing. */
  @Override
  public void close() {
    lifecycle.close();
  }

  /** Test hook: stops as {@code kill -9} would, writing nothing that was not yet acknowledged. */
  void crashForTesting() {
    lifecycle.crash();
  }

  /** Test hook: makes every insert so far searchable through Lucene rather than the tail. */
  void refreshForTesting() {
    try {
      reader.refresh();
    } catch (IOException e) {
      throw lifecycle.unavailable("refreshing", e);
    }
  }

  @Override
  public String toString() {
    return "LuceneStore[" + dir + ", dimension=" + dimension + ", memories=" + state.memories.size() + "]";
  }
}
