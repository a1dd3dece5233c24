package io.memloop.store.lucene;

import io.memloop.Utility;
import io.memloop.UtilityChange;
import io.memloop.store.RewardOutcome;
import io.memloop.store.UtilityUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Claims a retrieval and applies a utility update to the memories it selected, all or nothing.
 *
 * <p>Locking: the retrieval's monitor makes the claim exactly-once; the selected memories' stripes
 * ({@link Stripes}, taken in ascending order) make each read-modify-write of Q atomic, and the log
 * record is appended while they are held, so the log orders updates of a memory as they were applied.
 * The rule runs before anything changes: if it throws, nothing is logged or changed and the retrieval
 * stays pending. Durability is awaited by the caller after every lock is released (group commit).
 *
 * <p>Deleted memories are skipped: a delete flags its memory and logs itself under the memory's
 * stripe, and the reward re-checks the flag under the stripes it holds, so a reward record never
 * names a memory deleted earlier in the log.
 */
final class Rewarder {
  /** What happened, and the LSN the caller must see durable before answering. */
  record Result(RewardOutcome outcome, long durableLsn) {}

  private final StoreState state;
  private final WriteAheadLog wal;

  Rewarder(StoreState state, WriteAheadLog wal) {
    this.state = state;
    this.wal = wal;
  }

  Result apply(NamespaceState ns, RetrievalBook.Pending p, Instant now, UtilityUpdate update) {
    synchronized (p) {
      Instant rewardedAt = p.rewardedAt;
      if (rewardedAt != null) {
        // answer only once the reward that won is durable, or a crash could contradict this answer
        return new Result(new RewardOutcome.AlreadyRewarded(rewardedAt), p.rewardLsn);
      }
      if (now.isAfter(p.record.expiresAt())) {
        return new Result(new RewardOutcome.Expired(p.record.expiresAt()), 0);
      }
      update.check(p.record);
      List<String> selected = new ArrayList<>();
      int[] candidates = selectedSlots(ns, p, selected);
      MemoryTable t = state.memories;
      int[] locked = state.stripes.lockAll(candidates);
      try {
        IntList live = new IntList(candidates.length);
        List<String> ids = new ArrayList<>(candidates.length);
        for (int i = 0; i < candidates.length; i++) {
          if (!t.isDeleted(candidates[i])) { // deleted since selectedSlots looked
            live.add(candidates[i]);
            ids.add(selected.get(i));
          }
        }
        int[] slots = live.toArray();
        long[] seqs = new long[slots.length];
        double[] qs = new double[slots.length];
        long[] visits = new long[slots.length];
        List<UtilityChange> changes = new ArrayList<>(slots.length);
        for (int i = 0; i < slots.length; i++) {
          Utility before = new Utility(t.q(slots[i]), t.visits(slots[i]));
          Utility after = update.apply(ids.get(i), before);
          seqs[i] = t.seq(slots[i]);
          qs[i] = after.q();
          visits[i] = after.visits();
          changes.add(new UtilityChange(ids.get(i), before.q(), after.q(), after.visits()));
        }
        long lsn = wal.append(new WalRecord.Rewarded(p.seq, ns.name, now, seqs, qs, visits)::encode);
        for (int i = 0; i < slots.length; i++) {
          t.setUtility(slots[i], qs[i], visits[i], now);
        }
        p.rewardedAt = now;
        p.rewardLsn = lsn;
        return new Result(new RewardOutcome.Applied(p.record, changes), lsn);
      } finally {
        state.stripes.unlockAll(locked);
      }
    }
  }

  /** Slots of the selected memories that {@code ns} holds (not deleted), each once, in selection order. */
  private int[] selectedSlots(NamespaceState ns, RetrievalBook.Pending p, List<String> ids) {
    IntList slots = new IntList(4);
    Set<String> seen = new HashSet<>();
    ns.lock.readLock().lock();
    try {
      for (String id : p.record.selectedIds()) {
        int slot = state.liveSlot(ns, Ids.parse(id, 'm'));
        if (slot >= 0 && seen.add(id)) {
          slots.add(slot);
          ids.add(id);
        }
      }
    } finally {
      ns.lock.readLock().unlock();
    }
    return slots.toArray();
  }
}
