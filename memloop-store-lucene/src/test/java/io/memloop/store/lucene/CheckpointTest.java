package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.logBytes;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checkpoints bound the log, and a store reopened from snapshot + log is exactly the one that wrote it. */
class CheckpointTest {
  static final int DIM = 16;
  @TempDir Path tmp;

  @Test
  void checkpoint_afterManyRewards_shrinksTheLog_andReopenIsExact() throws IOException {
    Path dir = tmp.resolve("store");
    LuceneStoreOptions manual = LuceneStoreOptions.builder().checkpointEveryBytes(1 << 30).build();
    Map<String, Memory> before = new HashMap<>();
    RetrievalRecord pending;
    try (LuceneStore store = LuceneStore.open(dir, DIM, manual)) {
      List<Memory> ms = writeAndReward(store, 1000);
      assertThat(logBytes(dir)).isGreaterThan(100_000);

      store.checkpoint();
      assertThat(logBytes(dir)).as("log after checkpoint").isLessThan(100);
      assertThat(snapshots(dir)).hasSize(1);

      // more work after the checkpoint lives in the log only; then a crash
      SplittableRandom rnd = new SplittableRandom(3);
      for (int i = 0; i < 50; i++) {
        Memory m = ms.get(rnd.nextInt(ms.size()));
        store.applyReward("ns", select(store, "ns", m.id()).id(), StoreFixtures.T0.plusSeconds(i),
            (id, u) -> new Utility(u.q() * 0.5 + 0.123, u.visits() + 1));
      }
      pending = select(store, "ns", ms.get(0).id(), ms.get(1).id());
      // a save is not synced on its own; the next synced write (this reward) makes it durable too
      store.applyReward("ns", select(store, "ns", ms.get(2).id()).id(), StoreFixtures.T0.plusSeconds(60),
          (id, u) -> new Utility(u.q() * 0.5 + 0.123, u.visits() + 1));
      store.forEachMemory("ns", m -> before.put(m.id(), m));
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, manual)) {
      Map<String, Memory> after = new HashMap<>();
      store.forEachMemory("ns", m -> after.put(m.id(), m));
      assertThat(after).isEqualTo(before); // bit-exact Q, visits and timestamps
      assertThat(store.applyReward("ns", pending.id(), StoreFixtures.T0, (id, u) -> u))
          .isInstanceOf(RewardOutcome.Applied.class);
    }
  }

  @Test
  void automaticCheckpoints_keepTheLogBounded() throws IOException {
    Path dir = tmp.resolve("store");
    long limit = 16 << 10;
    LuceneStoreOptions small = LuceneStoreOptions.builder().checkpointEveryBytes(limit).build();
    Map<String, Memory> before = new HashMap<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM, small)) {
      writeAndReward(store, 600);
      assertThat(logBytes(dir)).isLessThan(limit + 4096);
      store.forEachMemory("ns", m -> before.put(m.id(), m));
    }
    assertThat(snapshots(dir)).hasSize(1);
    try (LuceneStore store = LuceneStore.open(dir, DIM, small)) {
      Map<String, Memory> after = new HashMap<>();
      store.forEachMemory("ns", m -> after.put(m.id(), m));
      assertThat(after).isEqualTo(before);
    }
  }

  /**
   * 20 memories, then {@code rewards} retrievals each selecting two of them, all rewarded, from four
   * writers so that they share fsyncs.
   */
  private static List<Memory> writeAndReward(LuceneStore store, int rewards) {
    SplittableRandom rnd = new SplittableRandom(11);
    List<Memory> ms = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ms.add(insert(store, "ns", randomUnit(rnd, DIM), "m" + i, rnd.nextDouble()));
    }
    StoreFixtures.inParallel(4, w -> {
      SplittableRandom wr = new SplittableRandom(100 + w);
      for (int i = w; i < rewards; i += 4) {
        RetrievalRecord r = select(store, "ns", ms.get(wr.nextInt(20)).id(), ms.get(wr.nextInt(20)).id());
        double reward = wr.nextDouble();
        // MemRL eq. 5 shaped update with an awkward step size, so Q values use every mantissa bit
        store.applyReward("ns", r.id(), StoreFixtures.T0.plusMillis(i),
            (id, u) -> new Utility(u.q() + 0.1 / 3 * (reward - u.q()), u.visits() + 1));
      }
    });
    return ms;
  }

  private static List<Path> snapshots(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".snap")).toList();
    }
  }
}
