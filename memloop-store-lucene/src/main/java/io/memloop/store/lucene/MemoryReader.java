package io.memloop.store.lucene;

import io.memloop.Memory;
import io.memloop.store.IntentMatch;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The read paths: Phase A recall, point lookups and full scans. Each assembles {@link Memory}
 * values from the immutable content (index view) and the current utility (memory table, read under
 * the memory's stripe lock).
 *
 * <p>Thread safety: stateless apart from the shared structures it reads; safe for concurrent use.
 * Namespace locks are held (read side) only while walking a namespace's lists, never while calling
 * the caller's visitor.
 *
 * <p>Deletes: every path acquires its index view <em>before</em> it reads the namespace's lists, so a
 * memory it finds live was deleted, if at all, after the view's reader was opened, and the reader (or
 * a tail, which keeps deleted contents) still holds its content.
 */
final class MemoryReader {
  private static final int BATCH = 512;

  private final StoreState state;
  private final VectorIndex index;

  MemoryReader(StoreState state, VectorIndex index) {
    this.state = state;
    this.index = index;
  }

  List<IntentMatch> recall(NamespaceState ns, float[] query, int k, double minSimilarity) throws IOException {
    IndexView view = index.acquire();
    try {
      List<IndexView.GroupHit> hits;
      int[][] members;
      ns.lock.readLock().lock();
      try {
        boolean filter = ns.groups.size() < state.groups.live();
        hits = view.searchGroups(ns, filter, query, k, minSimilarity, state.groups,
            index.groupDeletes() - view.groupDeletesBefore);
        members = new int[hits.size()][];
        for (int i = 0; i < hits.size(); i++) {
          members[i] = state.groups.get(hits.get(i).index()).members.toArray();
        }
      } finally {
        ns.lock.readLock().unlock();
      }
      int total = 0;
      for (int[] m : members) {
        total += m.length;
      }
      int[] slots = new int[total];
      int at = 0;
      for (int[] m : members) {
        System.arraycopy(m, 0, slots, at, m.length);
        at += m.length;
      }
      Memory[] all = load(view, ns, slots);
      List<IntentMatch> out = new ArrayList<>(hits.size());
      at = 0;
      for (int i = 0; i < hits.size(); i++) {
        IndexView.GroupHit h = hits.get(i);
        out.add(new IntentMatch("i" + h.seq(), h.similarity(), List.of(all).subList(at, at + members[i].length)));
        at += members[i].length;
      }
      return out;
    } finally {
      view.release();
    }
  }

  Optional<Memory> get(NamespaceState ns, String memoryId) throws IOException {
    long seq = Ids.parse(memoryId, 'm');
    if (seq < 0) {
      return Optional.empty();
    }
    IndexView view = index.acquire();
    try {
      int slot;
      ns.lock.readLock().lock();
      try {
        slot = state.liveSlot(ns, seq);
      } finally {
        ns.lock.readLock().unlock();
      }
      return slot < 0 ? Optional.empty() : Optional.of(load(view, ns, new int[] {slot})[0]);
    } finally {
      view.release();
    }
  }

  void forEach(NamespaceState ns, Consumer<Memory> visitor) throws IOException {
    int[] slots;
    ns.lock.readLock().lock();
    try {
      slots = ns.memories.toArray();
    } finally {
      ns.lock.readLock().unlock();
    }
    for (int from = 0; from < slots.length; from += BATCH) {
      int[] batch = java.util.Arrays.copyOfRange(slots, from, Math.min(slots.length, from + BATCH));
      Memory[] memories;
      IndexView view = index.acquire();
      try {
        int live = 0;
        ns.lock.readLock().lock();
        try {
          for (int slot : batch) {
            if (!state.memories.isDeleted(slot)) { // deleted since the list was copied
              batch[live++] = slot;
            }
          }
        } finally {
          ns.lock.readLock().unlock();
        }
        memories = load(view, ns, java.util.Arrays.copyOf(batch, live));
      } finally {
        view.release();
      }
      for (Memory m : memories) {
        visitor.accept(m);
      }
    }
  }

  /** Up to {@code limit} live memories of {@code ns} with sequence above {@code afterSeq}, oldest first. */
  List<Memory> page(NamespaceState ns, long afterSeq, int limit) throws IOException {
    int[] slots;
    ns.lock.readLock().lock();
    try {
      IntList all = ns.memories; // ascending slots, and slots ascend with sequence numbers
      int lo = 0;
      int hi = all.size();
      while (lo < hi) { // first slot whose memory is newer than afterSeq
        int mid = (lo + hi) >>> 1;
        if (state.memories.seq(all.get(mid)) <= afterSeq) {
          lo = mid + 1;
        } else {
          hi = mid;
        }
      }
      int n = Math.max(0, Math.min(limit, all.size() - lo));
      slots = new int[n];
      for (int i = 0; i < n; i++) {
        slots[i] = all.get(lo + i);
      }
    } finally {
      ns.lock.readLock().unlock();
    }
    IndexView view = index.acquire();
    try {
      int live = 0;
      ns.lock.readLock().lock();
      try {
        for (int slot : slots) {
          if (!state.memories.isDeleted(slot)) {
            slots[live++] = slot;
          }
        }
      } finally {
        ns.lock.readLock().unlock();
      }
      return List.of(load(view, ns, java.util.Arrays.copyOf(slots, live)));
    } finally {
      view.release();
    }
  }

  /** Opens a new searcher over everything indexed so far (tests). */
  void refresh() throws IOException {
    index.refresh(true);
  }

  /** Published slots of {@code ns} to memories, in the same order. */
  private Memory[] load(IndexView view, NamespaceState ns, int[] slots) throws IOException {
    MemoryTable t = state.memories;
    long[] seqs = new long[slots.length];
    for (int i = 0; i < slots.length; i++) {
      seqs[i] = t.seq(slots[i]);
    }
    MemoryContent[] contents = view.contents(slots, seqs);
    Memory[] out = new Memory[slots.length];
    for (int i = 0; i < slots.length; i++) {
      int slot = slots[i];
      double q;
      long visits;
      Instant updatedAt;
      ReentrantLock lock = state.stripes.of(slot);
      lock.lock();
      try {
        q = t.q(slot);
        visits = t.visits(slot);
        updatedAt = t.updatedAt(slot);
      } finally {
        lock.unlock();
      }
      long groupSeq = state.groups.get(t.group(slot)).seq;
      out[i] = contents[i].toMemory("m" + seqs[i], ns.name, "i" + groupSeq, q, visits, updatedAt);
    }
    return out;
  }
}
