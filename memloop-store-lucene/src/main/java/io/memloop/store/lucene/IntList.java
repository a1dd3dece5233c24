package io.memloop.store.lucene;

import java.util.Arrays;

/**
 * A growable list of ints: the compact form of "which memories / groups belong here".
 *
 * <p>Not thread-safe; owners guard it (a namespace's lock).
 */
final class IntList {
  private int[] values;
  private int size;

  IntList(int capacity) {
    values = new int[Math.max(1, capacity)];
  }

  void add(int v) {
    if (size == values.length) {
      values = Arrays.copyOf(values, values.length + Math.max(1, values.length >> 1));
    }
    values[size++] = v;
  }

  int get(int i) {
    assert i >= 0 && i < size : "i=" + i + " size=" + size;
    return values[i];
  }

  int size() {
    return size;
  }

  int[] toArray() {
    return Arrays.copyOf(values, size);
  }
}
