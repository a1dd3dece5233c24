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
 * save, via a heap ordered by forget time, so a save costs O(log n) rather than a scan.
 *
 * <p><b>Bounded:</b> a book holds at most {@code maxCount} retrievals and about {@code maxBytes} of
 * them (estimated from their candidate lists); past either, the one soonest to be forgotten (with one
 * TTL, the oldest) is evicted first, and a reward of it gets "unknown". The same rule applies while
 * the log is replayed, so memory stays bounded however many retrievals the log holds, and the book
 * after a reopen is the book before it.
 *
 * <p>Thread safety: the map is concurrent for lookups; saving and forgetting are synchronized on the
 * book. A {@link Pending}'s claim is guarded by its own monitor.
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

    Pending(long seq, RetrievalRecord record) {
      this.seq = seq;
      this.record = record;
      Instant expires = record.expiresAt();
      this.forgetAt = expires.plus(Duration.between(record.createdAt(), expires));
    }
  }

  /** How many retrievals, and about how many bytes of them, a namespace's book keeps. */
  record Limits(int maxCount, long maxBytes) {}

  /** Rough heap bytes of a retrieval: the record and its candidates. */
  static long bytesOf(RetrievalRecord r) {
    return 200 + 96L * r.candidates().size();
  }

  private final Limits limits;
  private long bytes;
  private final ConcurrentHashMap<Long, Pending> bySeq = new ConcurrentHashMap<>();
  private final PriorityQueue<Pending> byForgetAt =
      new PriorityQueue<>(Comparator.comparing((Pending p) -> p.forgetAt).thenComparingLong(p -> p.seq));

  RetrievalBook(Limits limits) {
    this.limits = limits;
  }

  @Nullable Pending get(long seq) {
    return bySeq.get(seq);
  }

  /**
   * Forgets what is due at {@code p}'s creation time, then adds {@code p} and runs {@code log} (which
   * appends the log record) in the same critical section, so the log orders saves as they happened.
   * Returns what {@code log} returned.
   */
  synchronized long save(Pending p, LongSupplier log) {
    Instant now = p.record.createdAt();
    while (!byForgetAt.isEmpty() && now.isAfter(byForgetAt.peek().forgetAt)) {
      drop(byForgetAt.poll());
    }
    long lsn = log.getAsLong();
    add(p);
    while (bySeq.size() > limits.maxCount() || (bytes > limits.maxBytes() && bySeq.size() > 1)) {
      drop(byForgetAt.poll());
    }
    return lsn;
  }

  /** Adds {@code p} as it was at a checkpoint, forgetting nothing. */
  synchronized void restore(Pending p) {
    add(p);
  }

  private void add(Pending p) {
    bySeq.put(p.seq, p);
    byForgetAt.add(p);
    bytes += bytesOf(p.record);
  }

  private void drop(Pending p) {
    if (bySeq.remove(p.seq) != null) {
      bytes -= bytesOf(p.record);
    }
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
