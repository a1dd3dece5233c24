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

  private final ConcurrentHashMap<Long, Pending> bySeq = new ConcurrentHashMap<>();
  private final PriorityQueue<Pending> byForgetAt =
      new PriorityQueue<>(Comparator.comparing((Pending p) -> p.forgetAt).thenComparingLong(p -> p.seq));

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
      bySeq.remove(byForgetAt.poll().seq);
    }
    long lsn = log.getAsLong();
    bySeq.put(p.seq, p);
    byForgetAt.add(p);
    return lsn;
  }

  /** Adds {@code p} as it was at a checkpoint, forgetting nothing. */
  synchronized void restore(Pending p) {
    bySeq.put(p.seq, p);
    byForgetAt.add(p);
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
