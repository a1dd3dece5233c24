package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.store.IntentMatch;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers inserting and rewarding, and readers recalling and scanning, all at once, while tiny
 * intervals make refreshes, index commits and checkpoints happen throughout. Afterwards, and again
 * after a reopen: every insert is there once, and every memory's visits and Q account for exactly
 * the rewards that selected it.
 */
class ConcurrencyStressTest {
  static final int DIM = 8;
  static final int WRITERS = 4;
  static final int ROUNDS = 40;

  @TempDir Path dir;

  @Test
  void mixedConcurrentLoad_losesNothing_andCountsEveryReward() {
    LuceneStoreOptions busy = LuceneStoreOptions.builder()
        .refreshEveryInserts(3).commitEveryInserts(11).checkpointEveryBytes(8 << 10).build();
    Map<String, Memory> inserted = new ConcurrentHashMap<>();
    Map<String, AtomicLong> rewardsOf = new ConcurrentHashMap<>();
    List<Throwable> readerFailures = new CopyOnWriteArrayList<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM, busy)) {
      AtomicBoolean writing = new AtomicBoolean(true);
      Thread reader = new Thread(() -> {
        SplittableRandom rnd = new SplittableRandom(99);
        while (writing.get()) {
          try {
            String ns = "ns" + rnd.nextInt(2);
            for (IntentMatch match : store.recall(ns, StoreFixtures.randomUnit(rnd, DIM), 3, -1)) {
              assertThat(match.memories()).isNotEmpty().allSatisfy(m -> assertThat(m.namespace()).isEqualTo(ns));
            }
            store.forEachMemory(ns, m -> assertThat(m.experience()).startsWith("w"));
          } catch (Throwable t) {
            readerFailures.add(t);
            return;
          }
        }
      }, "test-reader");
      reader.start();
      StoreFixtures.inParallel(WRITERS, w -> {
        SplittableRandom rnd = new SplittableRandom(w);
        List<Memory> mine = new ArrayList<>();
        for (int round = 0; round < ROUNDS; round++) {
          String ns = "ns" + (round % 2);
          Memory m = StoreFixtures.insert(store, ns, StoreFixtures.randomUnit(rnd, DIM), "w" + w + "-" + round, 0);
          inserted.put(m.id(), m);
          mine.add(m);
          List<String> ids = new ArrayList<>();
          for (Memory other : mine) {
            if (other.namespace().equals(ns) && rnd.nextInt(3) == 0) {
              ids.add(other.id());
            }
          }
          RetrievalRecord r = StoreFixtures.select(store, ns, ids.toArray(String[]::new));
          RewardOutcome o = store.applyReward(ns, r.id(), StoreFixtures.T0, (id, u) -> new Utility(u.q() + 1, u.visits() + 1));
          assertThat(o).isInstanceOf(RewardOutcome.Applied.class);
          ids.forEach(id -> rewardsOf.computeIfAbsent(id, k -> new AtomicLong()).incrementAndGet());
        }
      });
      writing.set(false);
      join(reader);
      assertThat(readerFailures).isEmpty();
      assertAccounted(store, inserted, rewardsOf);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, busy)) {
      assertAccounted(store, inserted, rewardsOf);
    }
  }

  private static void assertAccounted(LuceneStore store, Map<String, Memory> inserted, Map<String, AtomicLong> rewardsOf) {
    Map<String, Memory> seen = new HashMap<>();
    for (String ns : List.of("ns0", "ns1")) {
      store.forEachMemory(ns, m -> assertThat(seen.put(m.id(), m)).as("visited once: %s", m.id()).isNull());
    }
    assertThat(seen.keySet()).isEqualTo(inserted.keySet());
    for (Memory m : seen.values()) {
      long rewards = rewardsOf.getOrDefault(m.id(), new AtomicLong()).get();
      assertThat(m.visits()).as("visits of %s", m.id()).isEqualTo(rewards);
      assertThat(m.q()).as("Q of %s", m.id()).isEqualTo((double) rewards);
      assertThat(m.experience()).isEqualTo(inserted.get(m.id()).experience());
    }
    assertThat(store.counts("ns0", StoreFixtures.T0).memories() + store.counts("ns1", StoreFixtures.T0).memories())
        .isEqualTo(WRITERS * ROUNDS);
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
