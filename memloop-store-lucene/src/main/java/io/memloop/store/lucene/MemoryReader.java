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
 * <p>Views and lists agree: every path reads the namespace's lists while holding the namespace's read
 * lock and acquires its index view under that same lock (or after it), never before it. Inserts and
 * deletes change a namespace's lists under its write lock, and an insert is in the live tail before
 * it releases that lock; a view acquired after the insert holds that tail (or a reader opened after
 * the tail was sealed, which holds its documents). So every memory a path lists is in its view, and a
 * memory it finds live was deleted, if at all, after the view was acquired: the reader (or a tail,
 * which keeps deleted contents) still holds its content. A view acquired <em>before</em> the lock
 * could miss a memory inserted after a refresh sealed the view's tail (issue 23: "memory mN is in the
 * log but not in the index" from a recall racing inserts).
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
    IndexView view;
    List<IndexView.GroupHit> hits;
    int[][] members;
    ns.lock.readLock().lock();
    try {
      view = index.acquire(); // under the lock: see the class comment
      try {
        boolean filter = ns.groups.size() < state.groups.live();
        hits = view.searchGroups(ns, filter, query, k, minSimilarity, state.groups,
            index.groupDeletes() - view.groupDeletesBefore);
        members = new int[hits.size()][];
        for (int i = 0; i < hits.size(); i++) {
          members[i] = state.groups.get(hits.get(i).index()).members.toArray();
        }
      } catch (IOException | RuntimeException e) {
        view.release();
        throw e;
      }
    } finally {
      ns.lock.readLock().unlock();
    }
    try {
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
    IndexView view;
    int slot;
    ns.lock.readLock().lock();
    try {
      slot = state.liveSlot(ns, seq);
      view = index.acquire(); // under the lock: see the class comment
    } finally {
      ns.lock.readLock().unlock();
    }
    try {
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

  /** The memories at {@code slots} of {@code ns}, in that order, leaving out any deleted since the caller chose them. */
  List<Memory> memoriesAt(NamespaceState ns, int[] slots) throws IOException {
    int[] wanted = slots.clone();
    IndexView view;
    int live = 0;
    ns.lock.readLock().lock();
    try {
      view = index.acquire(); // under the lock: see the class comment
      for (int slot : wanted) {
        if (!state.memories.isDeleted(slot)) {
          wanted[live++] = slot;
        }
      }
    } finally {
      ns.lock.readLock().unlock();
    }
    try {
      return List.of(load(view, ns, java.util.Arrays.copyOf(wanted, live)));
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
