package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.T0;
import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Saved retrievals are bounded per namespace (also across reopens); opening waits for the lock if asked to. */
class BoundsAndLockTest {
  static final int DIM = 8;
  @TempDir Path tmp;

  private static RewardOutcome reward(LuceneStore s, String ns, RetrievalRecord r) {
    return s.applyReward(ns, r.id(), T0, (id, u) -> new Utility(u.q() + 0.1, u.visits() + 1));
  }

  @Test
  void unrewardedRetrievals_areBounded_oldestEvicted_andStayBoundedAfterAReopen() {
    Path dir = tmp.resolve("store");
    LuceneStoreOptions options = LuceneStoreOptions.builder().maxRetrievalsPerNamespace(100)
        .retrievalSyncDelayMillis(0).checkpointEveryBytes(1 << 30).build();
    List<RetrievalRecord> saved = new ArrayList<>();
    LuceneStore store = LuceneStore.open(dir, DIM, options);
    Memory m = insert(store, "ns", randomUnit(new SplittableRandom(1), DIM), "only", 0);
    for (int i = 0; i < 2_000; i++) {
      saved.add(select(store, "ns", m.id()));
    }
    assertThat(store.counts("ns", T0).pendingRetrievals()).isEqualTo(100);
    assertThat(reward(store, "ns", saved.get(0))).isInstanceOf(RewardOutcome.Unknown.class);
    store.crashForTesting(); // the log holds all 2,000 saves: replay must keep the bound

    try (LuceneStore reopened = LuceneStore.open(dir, options)) {
      assertThat(reopened.counts("ns", T0).pendingRetrievals()).isEqualTo(100);
      assertThat(reward(reopened, "ns", saved.get(1_899))).isInstanceOf(RewardOutcome.Unknown.class);
      assertThat(reward(reopened, "ns", saved.get(1_900))).isInstanceOf(RewardOutcome.Applied.class);
      assertThat(reward(reopened, "ns", saved.get(1_999))).isInstanceOf(RewardOutcome.Applied.class);
    }
  }

  @Test
  void bytesBound_evictsToo() {
    LuceneStoreOptions options = LuceneStoreOptions.builder().maxRetrievalBytesPerNamespace(10_000).build();
    try (LuceneStore store = LuceneStore.open(tmp.resolve("b"), DIM, options)) {
      Memory m = insert(store, "ns", randomUnit(new SplittableRandom(1), DIM), "only", 0);
      for (int i = 0; i < 500; i++) {
        select(store, "ns", m.id());
      }
      long kept = store.counts("ns", T0).pendingRetrievals();
      assertThat(kept).isBetween(1L, 10_000L / RetrievalBook.bytesOf(select(store, "ns", m.id())));
    }
  }

  @Test
  void open_withoutTimeout_failsAtOnce_withWhatToDo() {
    Path dir = tmp.resolve("locked");
    try (LuceneStore first = LuceneStore.open(dir, DIM)) {
      assertThatThrownBy(() -> LuceneStore.open(dir, LuceneStoreOptions.defaults()))
          .isInstanceOfSatisfying(MemLoopException.class,
              e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_UNAVAILABLE))
          .hasMessageContaining("is in use by another process")
          .hasMessageContaining("--lock-timeout");
    }
  }

  @Test
  void open_withTimeout_waitsForTheHolderToClose() throws Exception {
    Path dir = tmp.resolve("shared");
    LuceneStore first = LuceneStore.open(dir, DIM);
    insert(first, "ns", randomUnit(new SplittableRandom(2), DIM), "from the first", 0);
    LuceneStoreOptions waiting = LuceneStoreOptions.builder().lockTimeout(Duration.ofSeconds(60)).build();
    Thread[] opener = new Thread[1];
    CompletableFuture<Long> second = CompletableFuture.supplyAsync(() -> {
      opener[0] = Thread.currentThread();
      try (LuceneStore s = LuceneStore.open(dir, waiting)) {
        return s.counts("ns", T0).memories();
      }
    });
    // Observe the opener waiting (parked in its backoff) before releasing the store: no sleeping here.
    while (opener[0] == null || opener[0].getState() != Thread.State.TIMED_WAITING) {
      assertThat(second).isNotDone();
      Thread.onSpinWait();
    }
    first.close();
    assertThat(second.get(60, TimeUnit.SECONDS)).isEqualTo(1);
  }
}
