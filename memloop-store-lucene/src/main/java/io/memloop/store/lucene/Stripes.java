package io.memloop.store.lucene;

import java.util.Arrays;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Striped per-memory locks guarding each memory's Q, visits and updated-at. A reward locks the
 * stripes of all the memories it updates in ascending stripe order, so two rewards can never wait on
 * each other in a cycle.
 */
final class Stripes {
  private static final int COUNT = 1024;
  private final ReentrantLock[] locks = new ReentrantLock[COUNT];

  Stripes() {
    for (int i = 0; i < COUNT; i++) {
      locks[i] = new ReentrantLock();
    }
  }

  ReentrantLock of(int slot) {
    return locks[stripe(slot)];
  }

  private static int stripe(int slot) {
    return (slot * 0x9E3779B9 >>> 22) & (COUNT - 1);
  }

  /** Locks the stripes of {@code slots} in order; returns what to pass to {@link #unlockAll}. */
  int[] lockAll(int[] slots) {
    int[] stripes = new int[slots.length];
    for (int i = 0; i < slots.length; i++) {
      stripes[i] = stripe(slots[i]);
    }
    Arrays.sort(stripes);
    int n = 0;
    for (int i = 0; i < stripes.length; i++) {
      if (i == 0 || stripes[i] != stripes[i - 1]) {
        stripes[n++] = stripes[i];
      }
    }
    stripes = Arrays.copyOf(stripes, n);
    for (int s : stripes) {
      locks[s].lock();
    }
    return stripes;
  }

  void unlockAll(int[] stripes) {
    for (int i = stripes.length - 1; i >= 0; i--) {
      locks[stripes[i]].unlock();
    }
  }
}
