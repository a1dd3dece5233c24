package io.memloop.policy;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Values kept across retrievals for their cost alone (each is a function of its key), bounded: past {@code bound}
 * entries the map is emptied and fills again with the keys in use. What {@link TextChannel#intentVector} and
 * {@link Directions#transformKept} share. Thread-safe; two callers missing the same key may both make its value.
 */
final class Kept<K, V> {
  private final int bound;
  private final ConcurrentHashMap<K, V> map = new ConcurrentHashMap<>();

  Kept(int bound) {
    if (bound < 1) {
      throw new IllegalArgumentException("bound must be >= 1, got " + bound);
    }
    this.bound = bound;
  }

  /**
   * The value kept for {@code probe}, else {@code make(probe)}, kept under {@code keep(probe)} (a copy, where the
   * caller may change the probe afterwards).
   */
  V get(K probe, UnaryOperator<K> keep, Function<? super K, ? extends V> make) {
    V v = map.get(probe);
    if (v == null) {
      v = make.apply(probe);
      if (map.size() >= bound) {
        map.clear();
      }
      map.put(keep.apply(probe), v);
    }
    return v;
  }

  /** How many values are kept now. */
  int size() {
    return map.size();
  }
}
