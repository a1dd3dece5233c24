package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Saved retrievals are not synced before the save returns: they become durable with the next synced
 * write, or when the deferred sync runs at most {@code retrievalSyncDelayMillis} later. The deferred
 * sync runs on a hand-driven scheduler here, so no test waits for time to pass.
 */
class RetrievalSyncTest {
  static final int DIM = 8;
  static final LuceneStoreOptions OPTIONS = LuceneStoreOptions.builder().retrievalSyncDelayMillis(50).build();

  /** Collects scheduled tasks; the test runs them. */
  static final class ManualScheduler implements DeferredSync.Scheduler {
    final List<Runnable> tasks = new ArrayList<>();
    final List<Long> delaysNanos = new ArrayList<>();

    @Override
    public synchronized void schedule(Runnable task, long delayNanos) {
      tasks.add(task);
      delaysNanos.add(delayNanos);
    }

    @Override
    public void shutdown() {}

    synchronized void runAll() {
      List<Runnable> due = new ArrayList<>(tasks);
      tasks.clear();
      due.forEach(Runnable::run);
    }
  }

  @TempDir Path tmp;
  Path dir;
  ManualScheduler scheduler;
  LuceneStore store;
  Memory memory;

  @BeforeEach
  void openStore() {
    dir = tmp.resolve("store");
    scheduler = new ManualScheduler();
    store = LuceneStore.open(dir, DIM, OPTIONS, scheduler);
    memory = insert(store, "ns", randomUnit(new SplittableRandom(1), DIM), "m", 0.5);
  }

  @AfterEach
  void closeStore() {
    store.close(); // does nothing after a crash or an earlier close
  }

  @Test
  void save_returnsBeforeTheDisk_andTheScheduledSync_withinTheBound_makesItDurable() {
    RetrievalRecord r = select(store, "ns", memory.id());
    assertThat(store.unsyncedLogBytesForTesting()).as("unsynced after the save").isPositive();
    assertThat(scheduler.delaysNanos).containsExactly(TimeUnit.MILLISECONDS.toNanos(50));

    scheduler.runAll();
    assertThat(store.unsyncedLogBytesForTesting()).isZero();

    assertThat(rewardAfterCrash(r)).isInstanceOf(RewardOutcome.Applied.class);
  }

  @Test
  void save_lostByACrashBeforeAnySync_isUnknownAfterReopen() {
    RetrievalRecord r = select(store, "ns", memory.id());
    assertThat(rewardAfterCrash(r)).isInstanceOf(RewardOutcome.Unknown.class);
  }

  @Test
  void anAcknowledgedReward_provesItsRetrievalDurable_withoutTheDeferredSync() {
    RetrievalRecord r = select(store, "ns", memory.id());
    store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> new Utility(0.75, u.visits() + 1));
    assertThat(store.unsyncedLogBytesForTesting()).isZero();
    assertThat(rewardAfterCrash(r)).isInstanceOf(RewardOutcome.AlreadyRewarded.class);
    try (LuceneStore reopened = LuceneStore.open(dir, DIM, OPTIONS)) {
      assertThat(reopened.get("ns", memory.id()).orElseThrow().q()).isEqualTo(0.75);
    }
  }

  @Test
  void anyLaterSyncedWrite_coversEarlierSaves() {
    RetrievalRecord r1 = select(store, "ns", memory.id());
    RetrievalRecord r2 = select(store, "ns", memory.id());
    insert(store, "ns", randomUnit(new SplittableRandom(2), DIM), "later", 0); // synced before it returns
    assertThat(store.unsyncedLogBytesForTesting()).isZero();
    store.crashForTesting();
    try (LuceneStore reopened = LuceneStore.open(dir, DIM, OPTIONS)) {
      for (RetrievalRecord r : List.of(r1, r2)) {
        assertThat(reopened.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> u))
            .isInstanceOf(RewardOutcome.Applied.class);
      }
    }
  }

  @Test
  void manySaves_shareOneScheduledSync_untilItRuns() {
    for (int i = 0; i < 10; i++) {
      select(store, "ns", memory.id());
    }
    assertThat(scheduler.tasks).hasSize(1);
    scheduler.runAll();
    assertThat(store.unsyncedLogBytesForTesting()).isZero();
    select(store, "ns", memory.id());
    assertThat(scheduler.tasks).as("a save after the sync schedules the next one").hasSize(1);
  }

  @Test
  void zeroDelay_syncsEverySaveBeforeItReturns() {
    store.close();
    LuceneStoreOptions syncEach = LuceneStoreOptions.builder().retrievalSyncDelayMillis(0).build();
    store = LuceneStore.open(dir, DIM, syncEach, scheduler);
    RetrievalRecord r = select(store, "ns", memory.id());
    assertThat(store.unsyncedLogBytesForTesting()).isZero();
    assertThat(scheduler.tasks).isEmpty();
    assertThat(rewardAfterCrash(r)).isInstanceOf(RewardOutcome.Applied.class);
  }

  @Test
  void theDefaultScheduler_syncsOnItsOwn_andStopsWithTheStore() {
    store.close();
    try (LuceneStore real = LuceneStore.open(dir, DIM, OPTIONS)) {
      select(real, "ns", memory.id());
      // bounded by the test's timeout, not a sleep: poll until the background sync has run
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (real.unsyncedLogBytesForTesting() > 0 && System.nanoTime() < deadline) {
        Thread.onSpinWait();
      }
      assertThat(real.unsyncedLogBytesForTesting()).isZero();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (syncThreadAlive() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(syncThreadAlive()).as("sync thread still running after close").isFalse();
  }

  private boolean syncThreadAlive() {
    String name = "memloop-log-sync " + dir;
    return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name));
  }

  /** Crashes the store, reopens it and rewards {@code r}. */
  private RewardOutcome rewardAfterCrash(RetrievalRecord r) {
    store.crashForTesting();
    try (LuceneStore reopened = LuceneStore.open(dir, DIM, OPTIONS)) {
      return reopened.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> u);
    }
  }
}
