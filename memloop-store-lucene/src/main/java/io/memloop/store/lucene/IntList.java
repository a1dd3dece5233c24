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

  /**
   * Removes {@code v} from a list kept in ascending order (binary search, then one shift of the rest:
   * O(size), fine for deletions, which are rare next to reads); returns whether it was there.
   */
  boolean removeSorted(int v) {
    int at = Arrays.binarySearch(values, 0, size, v);
    if (at < 0) {
      return false;
    }
    System.arraycopy(values, at + 1, values, at, size - at - 1);
    size--;
    return true;
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
