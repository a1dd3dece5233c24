package io.memloop.store;

import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import io.memloop.MemLoopException;
import io.memloop.Utility;
import io.memloop.UtilityChange;
import io.memloop.Vectors;
import io.memloop.policy.Grouping;
import io.memloop.policy.Recall;
import org.jspecify.annotations.Nullable;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The reference store: everything on the heap, exact (brute-force) Phase A, nothing survives the
 * process. Used by tests, by benchmarks that must not measure I/O, and as the model the durable store
 * is checked against.
 *
 * <p>Thread safety: one read-write lock per namespace; writes (insert, reward, retrieval records)
 * are serialised per namespace, reads run in parallel.
 */
public final class InMemoryStore implements MemoryStore {
  private final int dimension;
  private final AtomicLong sequence = new AtomicLong();
  private final Map<String, Namespace> namespaces = new ConcurrentHashMap<>();
  private final Map<String, Map<String, String>> settings = new ConcurrentHashMap<>();
  private final Map<String, Map<String, double[]>> ledgers = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicReference<@Nullable EmbeddingModel> model =
      new java.util.concurrent.atomic.AtomicReference<>();
  private volatile boolean closed;

  public InMemoryStore(int dimension) {
    if (dimension < 1) {
      throw MemLoopException.invalid("dimension", "must be at least 1, got " + dimension);
    }
    this.dimension = dimension;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public boolean isDurable() {
    return false;
  }

  @Override
  public Optional<EmbeddingModel> model() {
    return Optional.ofNullable(model.get());
  }

  @Override
  public EmbeddingModel recordModel(EmbeddingModel m) {
    if (closed) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "store is closed");
    }
    m.requireFits(dimension);
    return model.updateAndGet(old -> old != null ? old : m);
  }

  @Override
  public Memory insert(NewMemory m, double mergeThreshold) {
    return insert(m, mergeThreshold, null, false);
  }

  @Override
  public Memory insert(NewMemory m, double mergeThreshold, @Nullable String nearestIntentId) {
    return insert(m, mergeThreshold, nearestIntentId, true);
  }

  private Memory insert(NewMemory m, double mergeThreshold, @Nullable String nearestIntentId, boolean placed) {
    Namespace ns = namespace(m.namespace());
    ns.lock.writeLock().lock();
    try {
      // the caller's own search placed it (null: a new group), unless that intent has gone since
      IntentGroup group = placed && nearestIntentId != null ? ns.groups.get(nearestIntentId) : null;
      boolean scan = !placed || (nearestIntentId != null && group == null);
      double best = Double.NEGATIVE_INFINITY;
      for (IntentGroup g : scan ? ns.groups.values() : List.<IntentGroup>of()) {
        double sim = Vectors.dot(g.embedding, m.intentEmbedding());
        if (Grouping.qualifies(sim, mergeThreshold) && (group == null || Grouping.prefers(sim, g.seq, best, group.seq))) {
          best = sim;
          group = g;
        }
      }
      if (group == null) {
        group = new IntentGroup(sequence.incrementAndGet(), m.intentEmbedding().clone());
        ns.groups.put(group.id, group);
      }
      Memory memory =
          new Memory(
              "m" + sequence.incrementAndGet(), m.namespace(), group.id, m.intentText(),
              m.intentEmbedding().clone(), m.experience(), m.outcome(), m.initialQ(), 0, m.createdAt(),
              m.createdAt());
      group.memoryIds.add(memory.id());
      ns.memories.put(memory.id(), memory);
      return memory;
    } finally {
      ns.lock.writeLock().unlock();
    }
  }

  @Override
  public List<IntentMatch> recall(String namespace, float[] query, int k, double minSimilarity) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return List.of();
    }
    ns.lock.readLock().lock();
    try {
      record Hit(IntentGroup group, double sim) {}
      List<Hit> hits = new ArrayList<>();
      for (IntentGroup g : ns.groups.values()) {
        double sim = Vectors.dot(g.embedding, query);
        if (sim >= minSimilarity) {
          hits.add(new Hit(g, sim));
        }
      }
      hits.sort((a, b) -> Recall.compare(a.sim, a.group.seq, b.sim, b.group.seq));
      List<IntentMatch> out = new ArrayList<>(Math.min(k, hits.size()));
      for (Hit h : hits.subList(0, Math.min(k, hits.size()))) {
        out.add(new IntentMatch(h.group.id, h.sim, h.group.memoryIds.stream().map(ns.memories::get).toList()));
      }
      return out;
    } finally {
      ns.lock.readLock().unlock();
    }
  }

  @Override
  public Optional<Memory> get(String namespace, String memoryId) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return Optional.empty();
    }
    ns.lock.readLock().lock();
    try {
      return Optional.ofNullable(ns.memories.get(memoryId));
    } finally {
      ns.lock.readLock().unlock();
    }
  }

  @Override
  public RetrievalRecord saveRetrieval(RetrievalRecordDraft draft) {
    Namespace ns = namespace(draft.namespace());
    RetrievalRecord record = draft.withId("r" + sequence.incrementAndGet());
    ns.lock.writeLock().lock();
    try {
      purgeExpired(ns, draft.createdAt());
      ns.retrievals.put(record.id(), new PendingRetrieval(record));
      return record;
    } finally {
      ns.lock.writeLock().unlock();
    }
  }

  @Override
  public Optional<RetrievalRecord> retrieval(String namespace, String retrievalId) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return Optional.empty();
    }
    ns.lock.readLock().lock();
    try {
      return Optional.ofNullable(ns.retrievals.get(retrievalId)).map(p -> p.record);
    } finally {
      ns.lock.readLock().unlock();
    }
  }

  @Override
  public RewardOutcome applyReward(String namespace, String retrievalId, Instant now, UtilityUpdate update) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return new RewardOutcome.Unknown();
    }
    ns.lock.writeLock().lock();
    try {
      PendingRetrieval pending = ns.retrievals.get(retrievalId);
      if (pending == null) {
        return new RewardOutcome.Unknown();
      }
      if (pending.rewardedAt != null) {
        return new RewardOutcome.AlreadyRewarded(pending.rewardedAt);
      }
      if (now.isAfter(pending.record.expiresAt())) {
        return new RewardOutcome.Expired(pending.record.expiresAt());
      }
      update.check(pending.record);
      // Compute every new utility before changing anything: all or nothing if the rule throws.
      Map<String, Memory> updated = new LinkedHashMap<>();
      List<UtilityChange> changes = new ArrayList<>();
      for (String id : pending.record.selectedIds()) {
        Memory before = ns.memories.get(id);
        if (before == null || updated.containsKey(id)) {
          continue;
        }
        Utility after = update.apply(id, before.utility());
        updated.put(id, before.withUtility(after, now));
        changes.add(new UtilityChange(id, before.q(), after.q(), after.visits()));
      }
      ns.memories.putAll(updated);
      pending.rewardedAt = now;
      return new RewardOutcome.Applied(pending.record, changes);
    } finally {
      ns.lock.writeLock().unlock();
    }
  }

  @Override
  public boolean delete(String namespace, String memoryId) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return false;
    }
    ns.lock.writeLock().lock();
    try {
      Memory removed = ns.memories.remove(memoryId);
      if (removed == null) {
        return false;
      }
      ns.annotations.remove(memoryId);
      IntentGroup group = ns.groups.get(removed.intentId());
      group.memoryIds.remove(memoryId);
      if (group.memoryIds.isEmpty()) {
        ns.groups.remove(group.id);
      }
      return true;
    } finally {
      ns.lock.writeLock().unlock();
    }
  }

  @Override
  public Optional<Memory> updateExperience(String namespace, String memoryId, String experience, Instant now) {
    if (closed) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "store is closed");
    }
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return Optional.empty();
    }
    ns.lock.writeLock().lock();
    try {
      Memory before = ns.memories.get(memoryId);
      if (before == null) {
        return Optional.empty();
      }
      Memory after = new Memory(before.id(), before.namespace(), before.intentId(), before.intentText(),
          before.intentEmbedding(), experience, before.outcome(), before.q(), before.visits(), before.createdAt(), now);
      ns.memories.put(memoryId, after); // replacing keeps the map's (creation) order
      return Optional.of(after);
    } finally {
      ns.lock.writeLock().unlock();
    }
  }

  @Override
  public void forEachMemory(String namespace, Consumer<Memory> visitor) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return;
    }
    List<Memory> snapshot;
    ns.lock.readLock().lock();
    try {
      snapshot = new ArrayList<>(ns.memories.values());
    } finally {
      ns.lock.readLock().unlock();
    }
    snapshot.forEach(visitor);
  }

  @Override
  public StoreCounts counts(String namespace, Instant now) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return new StoreCounts(0, 0, 0);
    }
    ns.lock.readLock().lock();
    try {
      long pending =
          ns.retrievals.values().stream()
              .filter(p -> p.rewardedAt == null && !now.isAfter(p.record.expiresAt()))
              .count();
      return new StoreCounts(ns.memories.size(), ns.groups.size(), pending);
    } finally {
      ns.lock.readLock().unlock();
    }
  }

  @Override
  public Optional<Map<String, String>> settings(String namespace) {
    return Optional.ofNullable(settings.get(namespace));
  }

  @Override
  public void saveSettings(String namespace, Map<String, String> values) {
    settings.put(namespace, Map.copyOf(values));
  }

  @Override
  public Map<String, double[]> ledger(String namespace, Collection<String> keys) {
    Map<String, double[]> entries = ledgers.getOrDefault(namespace, Map.of());
    Map<String, double[]> out = new HashMap<>();
    for (String k : keys) {
      double[] v = entries.get(k);
      if (v != null) {
        out.put(k, v.clone());
      }
    }
    return out;
  }

  @Override
  public void putLedger(String namespace, Map<String, double[]> values) {
    Map<String, double[]> copy = new HashMap<>();
    values.forEach((k, v) -> {
      MemoryStore.requireLedgerValue(k, v);
      copy.put(k, v.clone());
    });
    ledgers.computeIfAbsent(namespace, n -> new ConcurrentHashMap<>()).putAll(copy);
  }

  @Override
  public Set<String> ledgerKeys(String namespace) {
    return Set.copyOf(ledgers.getOrDefault(namespace, Map.of()).keySet());
  }

  @Override
  public void deleteLedger(String namespace, Collection<String> keys) {
    Map<String, double[]> entries = ledgers.get(namespace);
    if (entries != null) {
      entries.keySet().removeAll(List.copyOf(keys));
    }
  }

  @Override
  public Map<String, Annotations> annotations(String namespace, Collection<String> memoryIds) {
    Namespace ns = namespaces.get(namespace);
    if (ns == null) {
      return Map.of();
    }
    ns.lock.readLock().lock();
    try {
      Map<String, Annotations> out = new HashMap<>();
      for (String id : memoryIds) {
        Annotations a = ns.annotations.get(id);
        if (a != null) {
          out.put(id, a);
        }
      }
      return out;
    } finally {
      ns.lock.readLock().unlock();
    }
  }

  @Override
  public void annotate(String namespace, Map<String, Annotations> byMemoryId) {
    byMemoryId.forEach((id, a) -> java.util.Objects.requireNonNull(a, () -> "annotations of '" + id + "'"));
    Namespace ns = namespace(namespace);
    ns.lock.writeLock().lock();
    try {
      byMemoryId.forEach((id, a) -> {
        if (!ns.memories.containsKey(id)) {
          return; // no such memory (or deleted meanwhile): its annotations would outlive it
        }
        if (a.isEmpty()) {
          ns.annotations.remove(id);
        } else {
          ns.annotations.put(id, a);
        }
      });
    } finally {
      ns.lock.writeLock().unlock();
    }
  }

  @Override
  public Set<String> namespaces() {
    Set<String> out = new TreeSet<>();
    namespaces.forEach((name, ns) -> {
      if (!ns.memories.isEmpty() || !ns.retrievals.isEmpty()) {
        out.add(name);
      }
    });
    return out;
  }

  @Override
  public void close() {
    closed = true;
  }

  private Namespace namespace(String name) {
    if (closed) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "store is closed");
    }
    return namespaces.computeIfAbsent(name, n -> new Namespace());
  }

  /**
   * Forgets retrieval records (rewarded or not) once they have been expired for as long as they
   * were valid: until then a late reward gets "expired" or "already rewarded" rather than "unknown".
   */
  private static void purgeExpired(Namespace ns, Instant now) {
    ns.retrievals.values().removeIf(p -> {
      Instant expires = p.record.expiresAt();
      Instant forgetAt = expires.plus(java.time.Duration.between(p.record.createdAt(), expires));
      return now.isAfter(forgetAt);
    });
  }

  private static final class Namespace {
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final Map<String, IntentGroup> groups = new LinkedHashMap<>();
    final Map<String, Memory> memories = new LinkedHashMap<>();
    final Map<String, PendingRetrieval> retrievals = new HashMap<>();
    /** Per-memory annotations, only for live memories with non-empty ones. */
    final Map<String, Annotations> annotations = new HashMap<>();
  }

  private static final class IntentGroup {
    final long seq;
    final String id;
    final float[] embedding;
    final List<String> memoryIds = new ArrayList<>();

    IntentGroup(long seq, float[] embedding) {
      this.seq = seq;
      this.id = "i" + seq;
      this.embedding = embedding;
    }
  }

  private static final class PendingRetrieval {
    final RetrievalRecord record;
    @Nullable Instant rewardedAt;

    PendingRetrieval(RetrievalRecord record) {
      this.record = record;
    }
  }
}
