package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.Utility;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LuceneStore#durablyTogether}: one fsync per unit, and a crash before the unit returns leaves all of its
 * writes or none, even when another writer's group commit runs in the middle of it. A crash is taken as a copy of
 * the store's files at that instant: what {@code kill -9} leaves (the page cache survives the process). The
 * deferred retrieval sync runs on a hand-driven scheduler that the tests never run, so every fsync counted is a
 * write's own.
 */
class DurableUnitTest {
  static final int DIM = 8;
  static final LuceneStoreOptions OPTIONS = LuceneStoreOptions.builder().retrievalSyncDelayMillis(50).build();

  @TempDir Path tmp;
  Path dir;
  LuceneStore store;
  final AtomicInteger syncs = new AtomicInteger();

  @BeforeEach
  void openStore() {
    dir = tmp.resolve("store");
    store = LuceneStore.open(dir, DIM, OPTIONS, new RetrievalSyncTest.ManualScheduler());
    store.onDurableSync(nanos -> syncs.incrementAndGet());
  }

  @AfterEach
  void closeStore() {
    store.close();
  }

  private static Utility toQ(double q, Utility u) {
    return new Utility(q, u.visits() + 1);
  }

  @Test
  void aRewardAndAnInsert_takeOneFsyncInAUnit_andTwoWithout() {
    SplittableRandom rnd = new SplittableRandom(1);
    Memory a = insert(store, "ns", randomUnit(rnd, DIM), "a", 0);
    RetrievalRecord r1 = select(store, "ns", a.id());
    RetrievalRecord r2 = select(store, "ns", a.id());

    syncs.set(0);
    store.applyReward("ns", r1.id(), StoreFixtures.T0, (id, u) -> toQ(0.5, u));
    insert(store, "ns", randomUnit(rnd, DIM), "apart", 0);
    assertThat(syncs.get()).as("reward, then insert").isEqualTo(2);

    syncs.set(0);
    Memory inUnit = store.durablyTogether(() -> {
      store.applyReward("ns", r2.id(), StoreFixtures.T0, (id, u) -> toQ(0.75, u));
      return insert(store, "ns", randomUnit(rnd, DIM), "together", 0);
    });
    assertThat(syncs.get()).as("reward and insert in one unit").isEqualTo(1);
    assertThat(store.unsyncedLogBytesForTesting()).isZero();
    assertThat(store.get("ns", inUnit.id())).isPresent();
  }

  @Test
  void endEpisode_takesOneFsyncPerEpisode_whereRewardThenRememberTakeTwo() {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT);
    SplittableRandom rnd = new SplittableRandom(2);
    try (MemLoop loop = MemLoop.builder().store(store).config(config).seed(3).build()) {
      for (int i = 0; i < 5; i++) {
        loop.remember("ns", Intent.ofEmbedding(randomUnit(rnd, DIM)), "seed " + i, Outcome.SUCCESS);
      }
      int episodes = 20;
      syncs.set(0);
      for (int i = 0; i < episodes; i++) {
        Intent intent = Intent.ofEmbedding(randomUnit(rnd, DIM));
        Retrieval r = loop.retrieve("ns", intent);
        loop.reward("ns", r.id(), 1);
        loop.remember("ns", intent, "two calls " + i, Outcome.SUCCESS, r.id());
      }
      assertThat(syncs.get()).as("reward + remember").isEqualTo(2 * episodes);
      syncs.set(0);
      for (int i = 0; i < episodes; i++) {
        Intent intent = Intent.ofEmbedding(randomUnit(rnd, DIM));
        Retrieval r = loop.retrieve("ns", intent);
        loop.endEpisode("ns", r.id(), 1, null, null, intent, "one call " + i, Outcome.SUCCESS);
      }
      assertThat(syncs.get()).as("endEpisode").isEqualTo(episodes);
    }
  }

  /** Copies the store's files as they are now: what a crash of the process would leave. */
  private Path crashImage(String name) {
    Path image = tmp.resolve(name);
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.toList()) {
        Path to = image.resolve(dir.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return image;
  }

  /**
   * Waits (without sleeping) until {@code t} parks in the log, waiting for a group commit to cover its write, or
   * returns (its commit then ran: what the crash image holds shows whether it wrote the unit's records).
   */
  private static void awaitParkedInTheLogOrDone(Thread t) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      Object blocker = LockSupport.getBlocker(t);
      if (blocker != null && blocker.getClass().getName().endsWith("WriteAheadLog$Waiter") || !t.isAlive()) {
        return;
      }
      assertThat(System.nanoTime()).as("the other writer never waited in the log").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  @Test
  void aCrashInTheMiddleOfAUnit_leavesNoneOfIt_evenWhenAnotherWritersGroupCommitRunsMeanwhile() throws Exception {
    SplittableRandom rnd = new SplittableRandom(4);
    Memory a = insert(store, "ns", randomUnit(rnd, DIM), "a", 0.25);
    RetrievalRecord r = select(store, "ns", a.id());
    float[] otherVector = randomUnit(rnd, DIM);
    float[] episodeVector = randomUnit(rnd, DIM);
    CompletableFuture<Memory> other = new CompletableFuture<>();
    Thread writer = new Thread(() -> {
      try {
        other.complete(insert(store, "other", otherVector, "another writer", 0));
      } catch (Throwable e) {
        other.completeExceptionally(e);
      }
    }, "other-writer");
    Path[] images = new Path[2];
    Memory episode = store.durablyTogether(() -> {
      store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> toQ(0.9, u));
      writer.start(); // its insert is logged after the reward, and its commit must not write the reward
      awaitParkedInTheLogOrDone(writer);
      images[0] = crashImage("after-the-reward");
      Memory m = insert(store, "ns", episodeVector, "the episode's memory", 0);
      images[1] = crashImage("after-the-insert");
      return m;
    });
    Memory fromOther = other.get(30, TimeUnit.SECONDS);

    for (Path image : images) {
      try (LuceneStore crashed = LuceneStore.open(image, DIM, OPTIONS)) {
        assertThat(crashed.get("ns", a.id()).orElseThrow()).as("%s", image.getFileName()).satisfies(m -> {
          assertThat(m.q()).isEqualTo(0.25);
          assertThat(m.visits()).isZero();
        });
        assertThat(crashed.get("ns", episode.id())).isEmpty();
        assertThat(crashed.get("other", fromOther.id())).isEmpty(); // logged after the unit began: held back too
        assertThat(crashed.counts("ns", StoreFixtures.T0).memories()).isEqualTo(1);
        // the retrieval, logged before the unit, is there and still pending
        assertThat(crashed.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> toQ(0.5, u)))
            .isInstanceOf(RewardOutcome.Applied.class);
      }
    }

    // acknowledged: after a crash now, everything is there
    store.crashForTesting();
    store = LuceneStore.open(dir, DIM, OPTIONS);
    assertThat(store.get("ns", a.id()).orElseThrow().q()).isEqualTo(0.9);
    assertThat(store.get("ns", episode.id()).orElseThrow().experience()).isEqualTo("the episode's memory");
    assertThat(store.get("other", fromOther.id())).isPresent();
    assertThat(store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> toQ(0.5, u)))
        .isInstanceOf(RewardOutcome.AlreadyRewarded.class);
  }

  @Test
  void aSyncEachSaveStore_doesNotWaitForAnOpenUnit_toAcknowledgeAnotherThreadsLedgerPut() throws Exception {
    store.close();
    store = LuceneStore.open(dir, DIM, LuceneStoreOptions.builder().retrievalSyncDelayMillis(0).build(),
        new RetrievalSyncTest.ManualScheduler());
    Memory a = insert(store, "ns", randomUnit(new SplittableRandom(5), DIM), "a", 0);
    RetrievalRecord r = select(store, "ns", a.id());
    store.durablyTogether(() -> {
      store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> toQ(1, u));
      // the engine puts ledger entries under its own per-namespace lock, which the unit's thread may need next:
      // the put must return while the unit is open, or the two threads would wait for each other
      CompletableFuture<Void> put = CompletableFuture.runAsync(() -> store.putLedger("ns", Map.of("k", new double[] {1})));
      try {
        put.get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError("a ledger put waited for the open unit", e);
      }
      return null;
    });
    assertThat(store.ledger("ns", List.of("k"))).containsKey("k");
  }

  @Test
  void anIndexCommitDuringAUnit_doesNotWaitForIt_soTheUnitsInsertCannotDeadlockWithIt() throws Exception {
    SplittableRandom rnd = new SplittableRandom(6);
    Memory a = insert(store, "ns", randomUnit(rnd, DIM), "a", 0);
    RetrievalRecord r = select(store, "ns", a.id());
    Memory m = store.durablyTogether(() -> {
      store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> toQ(1, u));
      // forceMerge commits the index, which would wait for the log with inserts blocked: it must not wait here
      CompletableFuture<Void> merge = CompletableFuture.runAsync(() -> store.forceMerge(1));
      try {
        merge.get(30, TimeUnit.SECONDS);
      } catch (Exception e) {
        throw new AssertionError("an index commit waited for the open unit", e);
      }
      return insert(store, "ns", randomUnit(rnd, DIM), "after the commit", 0);
    });
    store.crashForTesting();
    store = LuceneStore.open(dir, DIM, OPTIONS);
    assertThat(store.get("ns", m.id())).isPresent();
    assertThat(store.get("ns", a.id()).orElseThrow().q()).isEqualTo(1);
  }
}
