package io.memloop.store.solr;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The intent groups this process created, kept until searches are sure to see them (two soft commits and two
 * seconds), so that memories inserted in quick succession still join the same group. With
 * {@link SolrStoreOptions.Visibility#IMMEDIATE} searches see a group at once and nothing is kept. Thread-safe.
 */
final class RecentIntents {
  /** An intent group this process created, kept until searches are sure to see it. */
  record RecentIntent(String intentId, long seq, float[] embedding, long createdNanos) {}

  private final Map<String, List<RecentIntent>> recentIntents = new ConcurrentHashMap<>();
  private final boolean immediate;
  private final long recentIntentNanos;

  RecentIntents(boolean immediate, long softCommitMillis) {
    this.immediate = immediate;
    this.recentIntentNanos = TimeUnit.MILLISECONDS.toNanos(2 * softCommitMillis + 2_000);
  }

  void remember(String ns, RecentIntent r) {
    if (immediate) {
      return; // searches already see it
    }
    List<RecentIntent> list = recentIntents.computeIfAbsent(ns, x -> new ArrayList<>());
    synchronized (list) {
      list.add(r);
    }
  }

  List<RecentIntent> recent(String ns) {
    List<RecentIntent> list = recentIntents.get(ns);
    if (list == null) {
      return List.of();
    }
    long now = System.nanoTime();
    synchronized (list) {
      list.removeIf(r -> now - r.createdNanos() > recentIntentNanos);
      return List.copyOf(list);
    }
  }

  void forget(String ns, String intentId) {
    List<RecentIntent> list = recentIntents.get(ns);
    if (list != null) {
      synchronized (list) {
        list.removeIf(r -> r.intentId().equals(intentId));
      }
    }
  }
}
