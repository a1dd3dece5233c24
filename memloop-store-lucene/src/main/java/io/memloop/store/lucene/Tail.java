package io.memloop.store.lucene;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What was inserted since the searcher was last refreshed: new group vectors (searched exactly) and
 * new memory contents, so reads see every acknowledged insert without a Lucene refresh per insert.
 * Bounded by {@link LuceneStoreOptions#refreshEveryInserts()}.
 *
 * <p>Thread safety: {@code memories} is concurrent; each namespace's group list is guarded by that
 * namespace's lock (appended under the write lock, scanned under the read lock).
 */
final class Tail {
  record TailGroup(int index, long seq, float[] vector) {}

  final ConcurrentHashMap<Integer, MemoryContent> memories = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Integer, List<TailGroup>> groups = new ConcurrentHashMap<>();
  final AtomicInteger inserts = new AtomicInteger();

  /** Caller holds the write lock of namespace {@code namespaceId}. */
  void addGroup(int namespaceId, TailGroup g) {
    groups.computeIfAbsent(namespaceId, k -> new ArrayList<>()).add(g);
  }

  /** Caller holds the lock of namespace {@code namespaceId}. */
  List<TailGroup> groups(int namespaceId) {
    return groups.getOrDefault(namespaceId, List.of());
  }
}
