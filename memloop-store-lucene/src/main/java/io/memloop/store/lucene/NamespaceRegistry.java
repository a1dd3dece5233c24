package io.memloop.store.lucene;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Namespace names to their state and to small int ids (used in {@link MemoryTable}). Ids are local
 * to one process: the snapshot stores the table of names, the log stores names.
 *
 * <p>Thread safety: lookups are lock-free; creation is synchronized and publishes the new state in
 * both maps before returning it.
 */
final class NamespaceRegistry {
  private final ConcurrentHashMap<String, NamespaceState> byName = new ConcurrentHashMap<>();
  private volatile NamespaceState[] byId = new NamespaceState[0];
  private final RetrievalBook.Limits limits;
  /** Shared by every namespace: the store-wide bound on saved retrievals. */
  final RetrievalBook.Budget retrievalBudget;

  NamespaceRegistry(RetrievalBook.Limits limits, RetrievalBook.Limits storeLimits) {
    this.limits = limits;
    this.retrievalBudget = new RetrievalBook.Budget(storeLimits);
  }

  @Nullable NamespaceState get(String name) {
    return byName.get(name);
  }

  NamespaceState getOrCreate(String name) {
    NamespaceState ns = byName.get(name);
    return ns != null ? ns : create(name);
  }

  private synchronized NamespaceState create(String name) {
    NamespaceState ns = byName.get(name);
    if (ns == null) {
      NamespaceState[] ids = byId;
      ns = new NamespaceState(ids.length, name, limits, retrievalBudget);
      NamespaceState[] grown = Arrays.copyOf(ids, ids.length + 1);
      grown[ids.length] = ns;
      byId = grown;
      byName.put(name, ns);
    }
    return ns;
  }

  NamespaceState byId(int id) {
    return byId[id];
  }

  /** Every namespace, by id. */
  List<NamespaceState> all() {
    return List.of(byId);
  }
}
