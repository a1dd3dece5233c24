package io.memloop.store.solr;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One monitor per namespace: inserts and deletes of a namespace take it, so that this process's group decisions and
 * member counts do not race each other (other processes are kept apart by versions). Thread-safe.
 */
final class NamespaceLocks {
  private final Map<String, Object> locks = new ConcurrentHashMap<>();

  Object of(String ns) {
    return locks.computeIfAbsent(ns, x -> new Object());
  }
}
