package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.onlySegment;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LuceneStore#insertAll}: the same result as inserting one by one (checked against the
 * in-memory reference store, merges within the batch included), one log record per batch (so a crash
 * keeps a batch whole or drops it whole), and merging segments afterwards.
 */
class BulkInsertTest {
  static final int DIM = 8;
  static final LuceneStoreOptions SMALL = LuceneStoreOptions.builder()
      .commitEveryInserts(50).refreshEveryInserts(20).checkpointEveryBytes(32 << 10).build();
  static final LuceneStoreOptions LOG_ONLY = LuceneStoreOptions.builder()
      .commitEveryInserts(1_000_000).checkpointEveryBytes(1 << 30).build();

  @TempDir Path tmp;

  @Test
  void insertAll_equalsInsertingOneByOne_includingMergesWithinTheBatch() {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(7);
    float[][] bases = new float[24][];
    for (int i = 0; i < bases.length; i++) {
      bases[i] = randomUnit(rnd, DIM);
    }
    InMemoryStore model = new InMemoryStore(DIM);
    try (LuceneStore store = LuceneStore.open(dir, DIM, SMALL)) {
      for (int b = 0; b < 4; b++) {
        List<NewMemory> batch = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
          // few bases, small noise: many memories join groups of this batch or of earlier ones
          float[] v = near(bases[rnd.nextInt(bases.length)], 0.15, rnd);
          batch.add(new NewMemory(rnd.nextInt(3) == 0 ? "b" : "a", "intent " + b + "/" + i, v, "exp " + b + "/" + i,
              Outcome.values()[rnd.nextInt(3)], rnd.nextDouble(), StoreFixtures.T0.plusSeconds(b * 100L + i)));
        }
        List<Memory> expected = batch.stream().map(m -> model.insert(m, 0.9)).toList();
        assertThat(store.insertAll(batch, 0.9)).isEqualTo(expected);
      }
      assertThat(model.counts("a", StoreFixtures.T0).intents()).as("some merging happened")
          .isLessThan(model.counts("a", StoreFixtures.T0).memories() / 2);
      assertSameContents(model, store, rnd);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, SMALL)) {
      assertSameContents(model, store, rnd);
    }
  }

  @Test
  void insertAll_aboveOne_neverMerges_evenIdenticalVectors() {
    float[] v = randomUnit(new SplittableRandom(1), DIM);
    try (LuceneStore store = LuceneStore.open(tmp.resolve("store"), DIM, SMALL)) {
      List<Memory> out = store.insertAll(List.of(memory("ns", v, "a"), memory("ns", v, "b"), memory("ns", v, "c")), 1.01);
      assertThat(out).extracting(Memory::intentId).doesNotHaveDuplicates();
      assertThat(store.counts("ns", StoreFixtures.T0).intents()).isEqualTo(3);
      assertThat(store.insertAll(List.of(), 0.5)).isEmpty();
    }
  }

  @Test
  void acknowledgedBatch_survivesACrash_whole() {
    Path dir = tmp.resolve("store");
    List<Memory> written;
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      written = store.insertAll(batch(new SplittableRandom(3), "ns", "bulk", 100), 0.95);
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      for (Memory m : written) {
        assertThat(store.get("ns", m.id())).contains(m);
        assertThat(store.recall("ns", m.intentEmbedding(), 1, 0.99).get(0).memories()).contains(m);
      }
    }
  }

  @Test
  void aLargeBatch_indexedByOneThreadPerCore_isAllThere_andSurvivesACrash() {
    Path dir = tmp.resolve("store");
    List<Memory> written;
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      written = store.insertAll(batch(new SplittableRandom(10), "ns", "big", 4000), 2.0);
      assertEverythingThere(store, written);
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) { // re-indexed from the log
      assertEverythingThere(store, written);
    }
  }

  private static void assertEverythingThere(LuceneStore store, List<Memory> written) {
    store.refreshForTesting();
    assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size());
    for (int i = 0; i < written.size(); i += 97) {
      Memory m = written.get(i);
      assertThat(store.get("ns", m.id())).contains(m);
      assertThat(store.recall("ns", m.intentEmbedding(), 1, 0.999).get(0).memories()).containsExactly(m);
    }
  }

  /** A batch whose record reached the disk only in part (a crash mid-write) is dropped entirely. */
  @Test
  void tornBatchRecord_dropsTheWholeBatch_andKeepsEverythingBefore() throws IOException {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(4);
    List<Memory> before;
    List<Memory> torn;
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      before = store.insertAll(batch(rnd, "ns", "first", 20), 0.95);
      before = new ArrayList<>(before);
      before.add(StoreFixtures.insert(store, "ns", randomUnit(rnd, DIM), "single", 0.5));
      torn = store.insertAll(batch(rnd, "ns", "torn", 30), 0.95);
      store.crashForTesting();
    }
    Path segment = onlySegment(dir);
    StoreFixtures.tearLastRecord(segment, 1000); // the crash came while the second batch was written
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      for (Memory m : before) {
        assertThat(store.get("ns", m.id())).contains(m);
      }
      for (Memory m : torn) {
        assertThat(store.get("ns", m.id())).isEmpty();
      }
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(before.size());
      List<Memory> again = store.insertAll(batch(rnd, "ns", "again", 5), 0.95);
      assertThat(again).extracting(Memory::id).doesNotContainAnyElementsOf(torn.stream().map(Memory::id).toList());
    }
  }

  @Test
  void aBadMemory_rejectsTheWholeBatch_namingIt_andStoresNothing() {
    try (LuceneStore store = LuceneStore.open(tmp.resolve("store"), DIM, SMALL)) {
      List<NewMemory> batch = new ArrayList<>(batch(new SplittableRandom(5), "ns", "ok", 5));
      batch.add(3, memory("ns", randomUnit(new SplittableRandom(6), DIM + 1), "wide"));
      assertThatThrownBy(() -> store.insertAll(batch, 0.9))
          .isInstanceOfSatisfying(MemLoopException.class,
              e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT))
          .hasMessageContainingAll("memories[3].intentEmbedding", "has 9 components", "dimension 8");
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isZero();
    }
  }

  @Test
  void aBatchBeyondOneLogRecord_isRejected_sayingHowToSplitIt() {
    String huge = "x".repeat(14 << 20); // five of these do not fit one 64 MiB record
    SplittableRandom rnd = new SplittableRandom(8);
    List<NewMemory> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(new NewMemory("ns", "i", randomUnit(rnd, DIM), huge, Outcome.SUCCESS, 0, StoreFixtures.T0));
    }
    try (LuceneStore store = LuceneStore.open(tmp.resolve("store"), DIM, SMALL)) {
      assertThatThrownBy(() -> store.insertAll(batch, 0.9))
          .isInstanceOfSatisfying(MemLoopException.class,
              e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT))
          .hasMessageContainingAll("batch of 5 memories", "split it into calls of at most 4 memories");
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isZero();
      assertThat(store.insertAll(batch.subList(0, 4), 0.9)).hasSize(4);
    }
  }

  @Test
  void forceMerge_leavesOneSegment_andRecallUnchanged() {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(9);
    List<Memory> all = new ArrayList<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM, SMALL)) {
      for (int b = 0; b < 3; b++) { // fewer segments than the merge policy lets be
        all.addAll(store.insertAll(batch(rnd, "ns", "b" + b, 60), 2.0));
        store.refreshForTesting(); // a segment per batch
      }
      assertThat(store.segmentCountForTesting()).isEqualTo(3);
      Memory probe = all.get(123);
      var before = store.recall("ns", probe.intentEmbedding(), 5, -1);
      store.forceMerge(1);
      assertThat(store.segmentCountForTesting()).isEqualTo(1);
      assertThat(store.recall("ns", probe.intentEmbedding(), 5, -1)).isEqualTo(before);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, SMALL)) {
      assertThat(store.segmentCountForTesting()).isEqualTo(1);
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(all.size());
    }
  }

  private static void assertSameContents(MemoryStore model, MemoryStore store, SplittableRandom rnd) {
    for (String ns : List.of("a", "b")) {
      List<Memory> expected = new ArrayList<>();
      List<Memory> actual = new ArrayList<>();
      model.forEachMemory(ns, expected::add);
      store.forEachMemory(ns, actual::add);
      assertThat(actual).isEqualTo(expected);
      assertThat(store.counts(ns, StoreFixtures.T0)).isEqualTo(model.counts(ns, StoreFixtures.T0));
      for (int q = 0; q < 20; q++) {
        float[] query = randomUnit(rnd, DIM);
        assertThat(store.recall(ns, query, 4, 0.2)).isEqualTo(model.recall(ns, query, 4, 0.2));
      }
    }
  }

  static List<NewMemory> batch(SplittableRandom rnd, String ns, String tag, int n) {
    List<NewMemory> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(memory(ns, randomUnit(rnd, DIM), tag + " #" + i));
    }
    return out;
  }

  static NewMemory memory(String ns, float[] v, String experience) {
    return new NewMemory(ns, "intent " + experience, v, experience, Outcome.SUCCESS, 0.25, StoreFixtures.T0);
  }

  private static float[] near(float[] v, double noise, SplittableRandom rnd) {
    float[] out = v.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += (float) (noise * rnd.nextGaussian() / Math.sqrt(out.length));
    }
    return Vectors.normalized(out, "near");
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }
}
