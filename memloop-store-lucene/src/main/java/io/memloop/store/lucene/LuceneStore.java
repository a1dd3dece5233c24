package io.memloop.store.lucene;

import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import io.memloop.MemLoopException;
import io.memloop.store.Annotations;
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
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The durable embedded store. Phase A runs on a Lucene HNSW index of intent vectors (exact
 * similarities recomputed for the gate); every mutation is appended to a write-ahead log, and
 * concurrent writers share each {@code fsync} (group commit). Utilities and retrievals live in RAM as
 * primitives, rebuilt on open from the latest snapshot plus the log; texts and vectors stay on disk in
 * Lucene.
 *
 * <p><b>Durability</b> (what survives {@code kill -9} or a power loss of an fsync-honest disk):
 * <ul>
 *   <li>{@link #insert}, {@link #insertAll}, {@link #applyReward} and {@link #delete} return only once
 *       their log record is on disk.
 *   <li>{@link #saveRetrieval} returns without waiting: its record is durable after the next synced
 *       write (any insert, reward or delete that returns after it, since the log is written in order;
 *       in particular a reward of that retrieval, once acknowledged, proves the retrieval durable too),
 *       or at the latest {@link LuceneStoreOptions#retrievalSyncDelayMillis()} (default 50 ms) plus
 *       one fsync after it, when a background sync runs. A crash before either loses the retrieval;
 *       rewarding it later reports it unknown. Option 0 restores a sync per save.
 *   <li>{@link #durablyTogether} makes all the writes of a unit durable with one fsync; after a crash an
 *       acknowledged unit is there in full, and an unacknowledged one entirely or not at all.
 *   <li>{@link #insertAll} logs its whole batch as one record: after a crash an acknowledged batch is
 *       there in full, and an unacknowledged one entirely or not at all, never in part.
 * </ul>
 *
 * <p>One process at a time: opening takes an OS lock on the directory.
 *
 * <p><b>Thread safety</b> (as the SPI requires): all methods may be called concurrently. Inserts and
 * deletes are serialised per namespace; rewards claim a retrieval once and update each memory under
 * its stripe lock; reads never wait for disk syncs. Lock order, outermost first: commit lock, gate
 * (see {@link StoreLifecycle}), namespace locks (by namespace id when a batch takes several), the
 * index insert lock, a retrieval's monitor, memory stripes, a retrieval book, the log lock.
 * Durability is awaited after all of them are released, so a reader may briefly see a write that is
 * not yet acknowledged; a crash can lose such a write only together with every write logged after
 * it, and ids it exposed are never handed out again (see {@link StoreOpener}). Deleted memories' ids
 * are not reused either.
 */
public final class LuceneStore implements MemoryStore {
  static {
    LuceneNotices.apply();
  }

  private final Path dir;
  private final int dimension;
  private final StoreState state;
  private final StoreLifecycle lifecycle;
  private final Inserter inserter;
  private final MemoryReader reader;
  private final Rewarder rewarder;
  private final Deleter deleter;
  private final Editor editor;
  private final Annotator annotator;
  private final MemorySearch search;
  private final WriteAheadLog wal;
  private final VectorIndex index;
  private final boolean syncEachRetrieval;
  private final SettingsFile settings;

  private LuceneStore(Path dir, LuceneStoreOptions options, StoreOpener.Opened parts,
      DeferredSync.@Nullable Scheduler scheduler) {
    this.dir = dir;
    this.dimension = parts.meta().dimension();
    this.state = parts.state();
    this.wal = parts.wal();
    this.index = parts.index();
    this.syncEachRetrieval = options.retrievalSyncDelayMillis() == 0;
    this.settings = parts.settings();
    this.lifecycle = new StoreLifecycle(dir, options, parts,
        scheduler != null ? scheduler : DeferredSync.thread("memloop-log-sync " + dir));
    this.inserter = new Inserter(dir, dimension, state, wal, parts.index(), lifecycle);
    this.reader = new MemoryReader(state, parts.index());
    this.rewarder = new Rewarder(state, wal);
    this.deleter = new Deleter(state, wal, parts.index(), lifecycle);
    this.editor = new Editor(state, wal, parts.index(), lifecycle);
    this.annotator = new Annotator(state, wal);
    this.search = new MemorySearch(state, parts.index(), reader);
  }

  /** Opens the store in {@code dir}, creating it if absent; an existing store must have {@code dimension}. */
  public static LuceneStore open(Path dir, int dimension) {
    return open(dir, dimension, LuceneStoreOptions.defaults());
  }

  public static LuceneStore open(Path dir, int dimension, LuceneStoreOptions options) {
    if (dimension < 1 || dimension > StoreMeta.MAX_DIMENSION) {
      throw MemLoopException.invalid("dimension", "must be in [1, " + StoreMeta.MAX_DIMENSION + "], got " + dimension);
    }
    return new LuceneStore(dir, options, StoreOpener.open(dir, dimension, options), null);
  }

  /** Test hook: opens with {@code scheduler} running the deferred retrieval syncs. */
  /** Test hook: opens with the index and the log reached through {@code io} (e.g. a simulated full disk). */
  static LuceneStore open(Path dir, int dimension, LuceneStoreOptions options, StoreIo io) {
    return new LuceneStore(dir, options, StoreOpener.open(dir, dimension, options, io), null);
  }

  static LuceneStore open(Path dir, int dimension, LuceneStoreOptions options, DeferredSync.Scheduler scheduler) {
    return new LuceneStore(dir, options, StoreOpener.open(dir, dimension, options), scheduler);
  }

  /** Opens an existing store, whatever its dimension; NOT_FOUND if {@code dir} holds none. */
  public static LuceneStore open(Path dir) {
    return open(dir, LuceneStoreOptions.defaults());
  }

  public static LuceneStore open(Path dir, LuceneStoreOptions options) {
    return new LuceneStore(dir, options, StoreOpener.open(dir, 0, options), null);
  }

  /** Whether {@code dir} holds a MemLoop store (its metadata file exists; it is not validated). */
  public static boolean exists(Path dir) {
    return Files.isRegularFile(dir.resolve(StoreFiles.META));
  }

  /**
   * The vector format recorded in the store at {@code dir} ({@link #vectorFormat()}), read without opening it; empty
   * when there is no store there or its metadata cannot be read (opening it reports why).
   */
  public static Optional<VectorFormat> recordedVectorFormat(Path dir) {
    if (!exists(dir)) {
      return Optional.empty();
    }
    try {
      return Optional.of(StoreMeta.read(dir.resolve(StoreFiles.META)).vectorFormat());
    } catch (IOException | MemLoopException e) {
      return Optional.empty();
    }
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
  public void onDurableSync(java.util.function.LongConsumer listener) {
    wal.onSync(listener);
  }

  /** Joins the caller's nearest intent without a second search (see {@link MemoryStore#insert(NewMemory, double, String)}). */
  @Override
  public Memory insert(NewMemory memory, double mergeThreshold, @Nullable String nearestIntentId) {
    return inserter.insert(memory, mergeThreshold, true, nearestIntentId);
  }

  /**
   * Bulk load: stores {@code memories} in order, as {@link #insert} would one by one (each joins the
   * most similar group with cosine ≥ {@code mergeThreshold}, including groups created earlier in the
   * same batch; above 1 nothing merges and no similarity search runs), but with one log record and
   * one fsync for the whole batch, and its HNSW graphs built by one {@code addDocuments} call per core
   * (a batch of 1,000 memories or more per core is split; each part becomes its own segment, so call
   * {@link #forceMerge forceMerge(1)} after a large load). Returns the stored memories in the same
   * order. Memories may belong to different namespaces.
   *
   * <p>Atomic with respect to crashes: once this returns the whole batch is durable; if the process
   * dies before, the batch is after reopening either entirely there or entirely absent. The batch must
   * fit one log record ({@value WriteAheadLog#MAX_RECORD_BYTES} bytes: about 40,000 memories of 384
   * dimensions with short texts); a larger one is rejected, unchanged, with INVALID_ARGUMENT saying how
   * to split it. Inserts into the batch's namespaces wait while it decides merges, so with a threshold
   * of 1 or less prefer batches of a few thousand.
   *
   * @throws MemLoopException INVALID_ARGUMENT if an embedding has the wrong dimension or the batch is
   *     too large; nothing is stored then
   */
  @Override
  public List<Memory> insertAll(List<NewMemory> memories, double mergeThreshold) {
    return inserter.insertAll(List.copyOf(memories), mergeThreshold);
  }

  /**
   * Merges the Lucene index down to at most {@code maxSegments} segments and makes searches use the
   * result. Every segment costs Phase A its own HNSW search, so after a large bulk load {@code
   * forceMerge(1)} lowers retrieval latency; the merge rebuilds graphs and takes a while (tens of
   * seconds per 100k memories of 384 dimensions), during which the store keeps serving.
   */
  public void forceMerge(int maxSegments) {
    if (maxSegments < 1) {
      throw MemLoopException.invalid("maxSegments", "must be at least 1, got " + maxSegments);
    }
    lifecycle.forceMerge(maxSegments);
  }

  /** How the index's HNSW graph holds vectors: recorded in the store's metadata ({@link LuceneStoreOptions#vectorFormat()}). */
  public VectorFormat vectorFormat() {
    return index.format();
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

  /**
   * Saves the retrieval and returns without waiting for the disk; see the class comment for when it
   * becomes durable.
   */
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
    afterDeferredWrite(lsn);
    return record;
  }

  /**
   * After a write whose durability is deferred (retrieval records, ledger entries): the background
   * sync will cover it, or, with {@code retrievalSyncDelayMillis} = 0, wait for it now.
   */
  private void afterDeferredWrite(long lsn) {
    // a record an open unit holds back is synced when the unit ends: waiting for it here could deadlock
    // with the unit's thread (the engine calls putLedger under its own per-namespace lock)
    if (syncEachRetrieval && !wal.heldBack(lsn)) {
      lifecycle.awaitDurable(lsn);
    } else {
      lifecycle.deferredSync.appended();
    }
    lifecycle.afterWrite(0);
  }

  @Override
  public Optional<RetrievalRecord> retrieval(String namespace, String retrievalId) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    long seq = Ids.parse(retrievalId, 'r');
    RetrievalBook.Pending pending = ns == null || seq < 0 ? null : ns.retrievals.get(seq);
    return pending == null ? Optional.empty() : Optional.of(pending.record);
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
    lifecycle.afterWrite(0);
    return result.outcome();
  }

  /**
   * Runs {@code unit} as one unit of the write-ahead log: its writes are appended as they happen (and
   * visible to readers at once, as single writes are) but reach the disk together, with one fsync when it
   * ends, before this returns. A crash before then leaves all of them on disk or none: while a unit is
   * open, group commits write only what was logged before it opened, so other writers' acknowledgements
   * wait for the unit too (keep units short: a few writes). Checkpoints wait for open units.
   */
  @Override
  public <T> T durablyTogether(java.util.function.Supplier<T> unit) {
    return lifecycle.unit(unit);
  }

  @Override
  public boolean delete(String namespace, String memoryId) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    long seq = Ids.parse(memoryId, 'm');
    if (ns == null || seq < 0) {
      return false;
    }
    Deleter.Result result;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      result = deleter.delete(ns, seq);
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    lifecycle.awaitDurable(result.durableLsn());
    if (result.existed()) {
      lifecycle.afterWrite(0);
    }
    return result.existed();
  }

  /**
   * Logs the whole new content as one record (durable on return, like an insert), updates the memory's updated-at
   * and replaces its Lucene document, so that its new words are searchable at once.
   */
  @Override
  public Optional<Memory> updateExperience(String namespace, String memoryId, String experience, Instant now) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    long seq = Ids.parse(memoryId, 'm');
    if (ns == null || seq < 0) {
      return Optional.empty();
    }
    Editor.Result result;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      result = editor.edit(ns, seq, experience, now);
    } catch (IOException e) {
      throw lifecycle.unavailable("reading memory " + memoryId + " from", e);
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    if (result.memory() == null) {
      return Optional.empty();
    }
    lifecycle.awaitDurable(result.durableLsn());
    lifecycle.afterWrite(1); // a replaced document counts toward the next index commit, as an insert does
    return Optional.of(result.memory());
  }

  /** Added up from the RAM columns (outcome, Q, visits): no memory is read. */
  @Override
  public io.memloop.store.MemorySummary summary(String namespace) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      return io.memloop.store.MemorySummary.EMPTY;
    }
    int[] slots;
    ns.lock.readLock().lock();
    try {
      slots = ns.memories.toArray(); // ascending slots: oldest first, as forEachMemory visits them
    } finally {
      ns.lock.readLock().unlock();
    }
    MemoryTable t = state.memories;
    io.memloop.store.MemorySummary.Adder sum = new io.memloop.store.MemorySummary.Adder();
    try {
      for (int slot : slots) {
        sum.add(MemoryContent.outcome(t.outcome(slot)), t.q(slot), t.visits(slot));
      }
    } catch (ByteReader.Malformed e) {
      throw new IllegalStateException("a memory of namespace " + namespace + " has an unknown outcome code", e);
    }
    return sum.result();
  }

  /**
   * Filters and sorts on the RAM columns (Q, visits, updated-at, outcome, created-at), matches text with the
   * index's word terms and reads only the page's memories; see {@code MemorySearch}.
   */
  @Override
  public io.memloop.MemoryPage search(String namespace, io.memloop.MemoryQuery query) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      io.memloop.store.PageCursor.decode(namespace, query); // a bad cursor is refused in an empty namespace too
      return new io.memloop.MemoryPage(List.of(), null, 0);
    }
    try {
      return search.search(ns, query);
    } catch (IOException e) {
      throw lifecycle.unavailable("searching namespace " + namespace + " of", e);
    }
  }

  /** From the live slots kept in RAM: no index read. */
  @Override
  public Set<String> existing(String namespace, Collection<String> memoryIds) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      return Set.of();
    }
    Set<String> out = new java.util.HashSet<>();
    ns.lock.readLock().lock();
    try {
      for (String id : memoryIds) {
        long seq = Ids.parse(id, 'm');
        if (seq >= 0 && state.liveSlot(ns, seq) >= 0) {
          out.add(id);
        }
      }
    } finally {
      ns.lock.readLock().unlock();
    }
    return out;
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

  /** Seeks in the namespace's sorted memory list: O(log n + limit), only the page's documents are read. */
  @Override
  public List<Memory> page(String namespace, @Nullable String afterId, int limit) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null || limit <= 0) {
      return List.of();
    }
    try {
      return reader.page(ns, afterId == null ? -1 : MemoryStore.sequenceOf(afterId), limit);
    } catch (IOException e) {
      throw lifecycle.unavailable("paging namespace " + namespace + " of", e);
    }
  }

  /**
   * {@link io.memloop.policy.Eviction}'s rule by a scan of the in-RAM utility table (no document is read):
   * O(memories of the namespace). Q is read
   * without the memory's lock, so a reward landing meanwhile may or may not be seen.
   */
  @Override
  public Optional<String> evictionCandidate(String namespace, String keepId) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    if (ns == null) {
      return Optional.empty();
    }
    long keep = Ids.parse(keepId, 'm');
    MemoryTable t = state.memories;
    int best = -1;
    double bestQ = 0;
    long bestVisits = 0;
    long bestSeq = 0;
    ns.lock.readLock().lock();
    try {
      for (int i = 0; i < ns.memories.size(); i++) { // slot order is insertion order: oldest first
        int slot = ns.memories.get(i);
        long seq = t.seq(slot);
        if (seq == keep) {
          continue;
        }
        double q = t.q(slot);
        long visits = t.visits(slot);
        if (best < 0 || io.memloop.policy.Eviction.compare(q, visits, seq, bestQ, bestVisits, bestSeq) < 0) {
          best = slot;
          bestQ = q;
          bestVisits = visits;
          bestSeq = seq;
        }
      }
      return best < 0 ? Optional.empty() : Optional.of("m" + t.seq(best));
    } finally {
      ns.lock.readLock().unlock();
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
  public Optional<EmbeddingModel> model() {
    lifecycle.ensureUsable();
    return Optional.ofNullable(settings.model());
  }

  /** Records the model in {@code memloop.meta} (rewritten atomically, in the current format). */
  @Override
  public EmbeddingModel recordModel(EmbeddingModel model) {
    lifecycle.ensureUsable();
    model.requireFits(dimension);
    try {
      return settings.recordModel(model);
    } catch (IOException e) {
      throw StoreFiles.unavailable(dir.resolve(StoreFiles.META), "writing", e);
    }
  }

  @Override
  public Optional<Map<String, String>> settings(String namespace) {
    lifecycle.ensureUsable();
    return Optional.ofNullable(settings.get(namespace));
  }

  @Override
  public void saveSettings(String namespace, Map<String, String> values) {
    lifecycle.ensureUsable();
    try {
      settings.save(namespace, values);
    } catch (IOException e) {
      throw StoreFiles.unavailable(dir.resolve(SettingsFile.NAME), "writing", e);
    }
  }

  @Override
  public Map<String, double[]> ledger(String namespace, Collection<String> keys) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    Map<String, double[]> out = new HashMap<>();
    if (ns != null) {
      for (String k : keys) {
        double[] v = ns.ledger.get(k);
        if (v != null) {
          out.put(k, v.clone());
        }
      }
    }
    return out;
  }

  /**
   * Logs the values and applies them, returning without waiting for the disk, like
   * {@link #saveRetrieval}: the record is durable with the next synced write or within
   * {@code retrievalSyncDelayMillis}, so a reward costs one fsync, not two.
   */
  @Override
  public void putLedger(String namespace, Map<String, double[]> values) {
    Map<String, double[]> copy = new java.util.LinkedHashMap<>();
    values.forEach((k, v) -> {
      MemoryStore.requireLedgerValue(k, v); // what the log and the snapshot read back
      for (double d : v) {
        if (!Double.isFinite(d)) {
          throw new IllegalArgumentException("ledger values must be finite: " + k);
        }
      }
      copy.put(k, v.clone());
    });
    long lsn;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      NamespaceState ns = state.namespaces.getOrCreate(namespace);
      synchronized (ns.ledger) { // the log orders a namespace's puts as they are applied
        lsn = wal.append(new WalRecord.LedgerPut(namespace, copy)::encode);
        ns.ledger.putAll(copy);
      }
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    afterDeferredWrite(lsn);
  }

  /** A copy of the keys {@code namespace}'s ledger holds now; empty for a namespace the store does not know. */
  @Override
  public Set<String> ledgerKeys(String namespace) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    return ns == null ? Set.of() : Set.copyOf(ns.ledger.keySet());
  }

  /**
   * Logs the removal of the listed keys the namespace's ledger holds and applies it, returning without waiting for
   * the disk, like {@link #putLedger}. Holding none of them (or not knowing the namespace) it does nothing: it
   * logs no record and creates no namespace.
   */
  @Override
  public void deleteLedger(String namespace, Collection<String> keys) {
    Set<String> wanted = new java.util.LinkedHashSet<>(keys);
    long lsn = -1;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      NamespaceState ns = state.namespaces.get(namespace);
      if (ns != null) {
        synchronized (ns.ledger) { // the log orders a namespace's puts and deletes as they are applied
          List<String> held = new java.util.ArrayList<>(wanted.size());
          for (String k : wanted) {
            if (ns.ledger.containsKey(k)) {
              held.add(k);
            }
          }
          if (!held.isEmpty()) {
            lsn = wal.append(new WalRecord.LedgerDelete(namespace, List.copyOf(held))::encode);
            for (String k : held) {
              ns.ledger.remove(k);
            }
          }
        }
      }
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    if (lsn >= 0) {
      afterDeferredWrite(lsn);
    }
  }

  @Override
  public Map<String, Annotations> annotations(String namespace, Collection<String> memoryIds) {
    lifecycle.ensureUsable();
    NamespaceState ns = state.namespaces.get(namespace);
    return ns == null ? Map.of() : Annotator.read(ns, memoryIds);
  }

  /** Logs and applies the annotations; durability as {@link #putLedger} ({@link Annotator}). */
  @Override
  public void annotate(String namespace, Map<String, Annotations> byMemoryId) {
    long lsn;
    lifecycle.gate.readLock().lock();
    try {
      lifecycle.ensureUsable();
      NamespaceState ns = state.namespaces.get(namespace);
      lsn = ns == null ? -1 : annotator.annotate(ns, byMemoryId);
    } finally {
      lifecycle.gate.readLock().unlock();
    }
    if (lsn >= 0) {
      afterDeferredWrite(lsn);
    }
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

  /** Test hook: waits for the index's background merges to finish. */
  void awaitMergesForTesting() {
    index.awaitMerges();
  }

  /**
   * Test hook: what an insert throws when, while it indexes, Lucene's writer closes after a failure on
   * another thread and the merge thread has not recorded that failure yet; {@code seen} is what
   * Lucene threw to the insert.
   */
  MemLoopException indexingFailedForTesting(Throwable seen) {
    index.takeMergeFailure(); // not recorded yet
    return lifecycle.fail("indexing a memory", seen);
  }

  /** Test hook: the store-wide bound on saved retrievals, with what it holds. */
  RetrievalBook.Budget retrievalBudgetForTesting() {
    return state.namespaces.retrievalBudget;
  }

  /** Test hook: bytes appended to the log but not yet on disk. */
  long unsyncedLogBytesForTesting() {
    return wal.appendedLsn() - wal.durableLsn();
  }

  /** Test hook: segments of the index the searcher uses. */
  int segmentCountForTesting() {
    return index.segmentCount();
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
