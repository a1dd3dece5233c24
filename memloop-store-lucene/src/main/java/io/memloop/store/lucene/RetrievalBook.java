package io.memloop.store.lucene;

import io.memloop.store.RetrievalRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A namespace's saved retrievals, until they are forgotten: a retrieval (rewarded or not) is kept
 * until it has been expired for as long as it was valid, so that a late reward gets "expired" or
 * "already rewarded" rather than "unknown" (same rule as the in-memory store). Forgetting happens on
 * save, via heaps ordered by forget time, so a save costs O(log n) rather than a scan.
 *
 * <p><b>Bounded, per namespace and store-wide:</b> a book holds at most {@code maxCount} retrievals
 * and about {@code maxBytes} of them (estimated from their candidate lists and annotations); and all the books of a
 * store together hold at most their {@link Budget}'s limits. Past any of them, the retrieval soonest
 * to be forgotten (with one TTL, the oldest) of the namespace, or of the whole store, is evicted
 * first, and a reward of it gets "unknown". The same rule applies while the log is replayed and a
 * snapshot restored, so memory stays bounded however many retrievals the log holds and however many
 * namespaces there are, and the books after a reopen are the books before it.
 *
 * <p>Thread safety: the map is concurrent for lookups; saving and forgetting are synchronized on the
 * store's {@link Budget} (one monitor for every book, since a save may evict from another
 * namespace). A {@link Pending}'s claim is guarded by its own monitor.
 */
final class RetrievalBook {
  /** A saved retrieval and whether it has been rewarded. */
  static final class Pending {
    final long seq;
    final RetrievalRecord record;
    final Instant forgetAt;
    /** When it was rewarded; written under this object's monitor. */
    volatile @Nullable Instant rewardedAt;
    /** End LSN of the reward record; "already rewarded" answers wait for it to be durable. */
    long rewardLsn;
    /** Its book once saved or restored; guarded by the budget's monitor. */
    @Nullable RetrievalBook book;
    /** Set (under the budget's monitor) when it leaves its book; its queue entries are then stale. */
    boolean dropped;

    Pending(long seq, RetrievalRecord record) {
      this.seq = seq;
      this.record = record;
      Instant expires = record.expiresAt();
      this.forgetAt = expires.plus(Duration.between(record.createdAt(), expires));
    }
  }

  /** How many retrievals, and about how many bytes of them, a book (or the whole store) keeps. */
  record Limits(int maxCount, long maxBytes) {}

  /** Rough heap bytes of a retrieval: the record, its candidates and its annotations. */
  static long bytesOf(RetrievalRecord r) {
    return 200 + 96L * r.candidates().size() + r.annotations().encodedBytes();
  }

  /** Forget order: forget time, then id (ids are store-wide, so the order is total). */
  private static final Comparator<Pending> BY_FORGET_AT =
      Comparator.comparing((Pending p) -> p.forgetAt).thenComparingLong(p -> p.seq);

  /**
   * A heap in forget order whose dropped entries are removed lazily: each retrieval is in two queues
   * (its book's and the store's) and leaves one of them when evicted from the other. Stale entries are
   * skipped when they reach the top, and purged once they are over half the heap, so a queue never
   * holds more than about twice its live retrievals.
   */
  private static final class ForgetQueue {
    private final PriorityQueue<Pending> heap = new PriorityQueue<>(BY_FORGET_AT);
    private int stale;

    void add(Pending p) {
      heap.add(p);
    }

    /** The first retrieval not dropped (nulls only when empty). */
    @Nullable Pending peek() {
      while (!heap.isEmpty() && heap.peek().dropped) {
        heap.poll();
        stale--;
      }
      return heap.peek();
    }

    void staled() {
      if (++stale > 64 && stale > heap.size() / 2) {
        heap.removeIf(p -> p.dropped);
        stale = 0;
      }
    }
  }

  /** The store-wide bound shared by every namespace's book, and the monitor they all save under. */
  static final class Budget {
    private final Limits limits;
    private final ForgetQueue byForgetAt = new ForgetQueue();
    private long count;
    private long bytes;

    Budget(Limits limits) {
      this.limits = limits;
    }

    synchronized long count() {
      return count;
    }

    synchronized long bytes() {
      return bytes;
    }
  }

  private final Limits limits;
  private final Budget budget;
  private long bytes;
  private final ConcurrentHashMap<Long, Pending> bySeq = new ConcurrentHashMap<>();
  private final ForgetQueue byForgetAt = new ForgetQueue();

  RetrievalBook(Limits limits, Budget budget) {
    this.limits = limits;
    this.budget = budget;
  }

  @Nullable Pending get(long seq) {
    return bySeq.get(seq);
  }

  /**
   * Forgets what of this namespace is due at {@code p}'s creation time (as the in-memory store does), then adds {@code p} and runs
   * {@code log} (which appends the log record) in the same critical section, so the log orders saves as
   * they happened; then evicts past the bounds. Returns what {@code log} returned.
   */
  long save(Pending p, LongSupplier log) {
    synchronized (budget) {
      Instant now = p.record.createdAt();
      for (Pending due = byForgetAt.peek(); due != null && now.isAfter(due.forgetAt); due = byForgetAt.peek()) {
        drop(due);
      }
      long lsn = log.getAsLong();
      add(p);
      evictPastBounds();
      return lsn;
    }
  }

  /** Adds {@code p} as it was at a checkpoint, forgetting nothing but what is past the bounds. */
  void restore(Pending p) {
    synchronized (budget) {
      add(p);
      evictPastBounds();
    }
  }

  private void evictPastBounds() {
    while (bySeq.size() > limits.maxCount() || (bytes > limits.maxBytes() && bySeq.size() > 1)) {
      drop(byForgetAt.peek());
    }
    while (budget.count > budget.limits.maxCount() || (budget.bytes > budget.limits.maxBytes() && budget.count > 1)) {
      Pending oldest = budget.byForgetAt.peek();
      oldest.book.drop(oldest);
    }
  }

  private void add(Pending p) {
    p.book = this;
    bySeq.put(p.seq, p);
    byForgetAt.add(p);
    budget.byForgetAt.add(p);
    long b = bytesOf(p.record);
    bytes += b;
    budget.count++;
    budget.bytes += b;
  }

  /** Removes {@code p} (the head of this book's queue or of the store's). */
  private void drop(Pending p) {
    assert !p.dropped && p.book == this : "r" + p.seq;
    p.dropped = true;
    bySeq.remove(p.seq);
    long b = bytesOf(p.record);
    bytes -= b;
    budget.count--;
    budget.bytes -= b;
    byForgetAt.staled(); // both queues still hold it; peek() skips it
    budget.byForgetAt.staled();
  }

  long countPending(Instant now) {
    long n = 0;
    for (Pending p : bySeq.values()) {
      if (p.rewardedAt == null && !now.isAfter(p.record.expiresAt())) {
        n++;
      }
    }
    return n;
  }

  int size() {
    return bySeq.size();
  }

  boolean isEmpty() {
    return bySeq.isEmpty();
  }

  /** Every remembered retrieval, by id. */
  List<Pending> all() {
    List<Pending> out = new ArrayList<>(bySeq.values());
    out.sort(Comparator.comparingLong(p -> p.seq));
    return out;
  }
}
