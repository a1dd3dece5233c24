package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.store.IntentMatch;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deletes beyond the shared contract: through crashes (log replay re-applies them to Lucene), through
 * checkpoints (snapshots leave deleted rows out), against a reader that still holds deleted groups,
 * and racing rewards of retrievals that selected the deleted memories.
 */
class DeleteTest {
  static final int DIM = 16;
  /** No automatic commit or checkpoint: deletes stay in the log only until the test says otherwise. */
  static final LuceneStoreOptions LOG_ONLY = LuceneStoreOptions.builder()
      .commitEveryInserts(1_000_000).checkpointEveryBytes(1 << 30).refreshEveryInserts(7).build();

  @TempDir Path tmp;

  @Test
  void deletes_survive_aCrash_beforeAnyIndexCommit_andTheIndexDropsTheirDocuments() throws IOException {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(1);
    List<Memory> all = new ArrayList<>();
    Set<String> deleted = new HashSet<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      for (int i = 0; i < 40; i++) {
        float[] v = i % 4 == 3 ? all.get(i - 1).intentEmbedding() : randomUnit(rnd, DIM); // some groups of two
        all.add(store.insert(memory("ns", v, "e" + i), 0.99));
      }
      for (int i = 0; i < 40; i += 3) {
        assertThat(store.delete("ns", all.get(i).id())).isTrue();
        deleted.add(all.get(i).id());
      }
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertLive(store, all, deleted);
      assertThat(store.delete("ns", all.get(0).id())).as("deleted before the crash").isFalse();
    }
    assertThat(indexedDocs(dir)).as("live documents: one per memory and one per group")
        .isEqualTo(liveMemoriesAndGroups(all, deleted));
  }

  @Test
  void checkpoint_leavesDeletedRowsOut_andIdsAreNeverReused() {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(2);
    List<Memory> all = new ArrayList<>();
    Set<String> deleted = new HashSet<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      for (int i = 0; i < 30; i++) {
        all.add(store.insert(memory(i % 2 == 0 ? "a" : "b", randomUnit(rnd, DIM), "e" + i), 0.99));
      }
      for (int i = 0; i < 30; i += 2) {
        store.delete("a", all.get(i).id());
        deleted.add(all.get(i).id());
      }
      store.checkpoint();
      store.delete("b", all.get(1).id()); // after the snapshot: in the log only
      deleted.add(all.get(1).id());
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertThat(store.namespaces()).containsExactly("b");
      for (Memory m : all) {
        assertThat(store.get(m.namespace(), m.id()).isPresent()).as(m.id()).isEqualTo(!deleted.contains(m.id()));
      }
      Memory next = store.insert(memory("a", randomUnit(rnd, DIM), "after"), 0.99);
      long maxBefore = all.stream().mapToLong(m -> Long.parseLong(m.id().substring(1))).max().orElseThrow();
      assertThat(Long.parseLong(next.id().substring(1))).isGreaterThan(maxBefore);
    }
  }

  /**
   * The searcher's reader predates the deletes, so HNSW still finds the deleted groups: recall must
   * skip them and still return the k best live groups.
   */
  @Test
  void recall_withAReaderOlderThanTheDeletes_returnsTheBestLiveGroups() {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(3);
    LuceneStoreOptions noRefresh = LuceneStoreOptions.builder().refreshEveryInserts(100_000).build();
    try (LuceneStore store = LuceneStore.open(dir, DIM, noRefresh)) {
      float[] query = randomUnit(rnd, DIM);
      List<Memory> all = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        all.add(store.insert(memory("ns", near(query, 0.3 + i * 0.01, rnd), "e" + i), 2.0));
      }
      store.refreshForTesting(); // everything in Lucene, in graphs
      List<Memory> byCloseness = new ArrayList<>(all);
      byCloseness.sort(Comparator.comparingDouble((Memory m) -> -Vectors.dot(m.intentEmbedding(), query)));
      Set<String> deleted = new HashSet<>();
      for (Memory m : byCloseness.subList(0, 60)) { // the 60 nearest: more than HNSW is asked for
        store.delete("ns", m.id());
        deleted.add(m.id());
      }
      List<String> expected = byCloseness.subList(60, 65).stream().map(Memory::intentId).toList();
      List<IntentMatch> hits = store.recall("ns", query, 5, -1);
      assertThat(hits).extracting(IntentMatch::intentId).containsExactlyElementsOf(expected);
      store.refreshForTesting();
      assertThat(store.recall("ns", query, 5, -1)).extracting(IntentMatch::intentId).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void deletesRacingRewards_neverLogARewardOfADeletedMemory() {
    Path dir = tmp.resolve("store");
    LuceneStoreOptions busy = LuceneStoreOptions.builder()
        .refreshEveryInserts(5).commitEveryInserts(13).checkpointEveryBytes(16 << 10).build();
    Map<String, Memory> kept = new ConcurrentHashMap<>();
    Set<String> deleted = ConcurrentHashMap.newKeySet();
    try (LuceneStore store = LuceneStore.open(dir, DIM, busy)) {
      StoreFixtures.inParallel(4, w -> {
        SplittableRandom rnd = new SplittableRandom(40 + w);
        for (int round = 0; round < 12; round++) {
          List<Memory> mine = new ArrayList<>();
          for (int i = 0; i < 3; i++) {
            mine.add(store.insert(memory("ns", randomUnit(rnd, DIM), "w" + w + "-" + round + "-" + i), 0.99));
          }
          RetrievalRecord r = select(store, "ns", mine.stream().map(Memory::id).toArray(String[]::new));
          if (w % 2 == 0) {
            // even writers delete their three memories on another thread while rewarding the retrieval
            Thread deleter = new Thread(() -> mine.forEach(m -> {
              store.delete("ns", m.id());
              deleted.add(m.id());
            }), "test-deleter-" + w);
            deleter.start();
            RewardOutcome o = store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> new Utility(1, u.visits() + 1));
            assertThat(((RewardOutcome.Applied) o).changes().size()).isBetween(0, 3);
            join(deleter);
          } else {
            store.applyReward("ns", r.id(), StoreFixtures.T0, (id, u) -> new Utility(1, u.visits() + 1));
            mine.forEach(m -> kept.put(m.id(), m));
          }
        }
      });
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(kept.size());
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, busy)) { // replay checks every reward names a live memory
      Set<String> ids = new HashSet<>();
      store.forEachMemory("ns", m -> ids.add(m.id()));
      assertThat(ids).isEqualTo(kept.keySet());
      assertThat(deleted).doesNotContainAnyElementsOf(ids);
    }
  }

  private static void assertLive(LuceneStore store, List<Memory> all, Set<String> deleted) {
    List<String> live = all.stream().map(Memory::id).filter(id -> !deleted.contains(id)).toList();
    List<String> visited = new ArrayList<>();
    store.forEachMemory("ns", m -> visited.add(m.id()));
    assertThat(visited).containsExactlyElementsOf(live);
    for (Memory m : all) {
      assertThat(store.get("ns", m.id()).isPresent()).as(m.id()).isEqualTo(!deleted.contains(m.id()));
      for (IntentMatch match : store.recall("ns", m.intentEmbedding(), 3, -1)) {
        assertThat(match.memories()).isNotEmpty().extracting(Memory::id).doesNotContainAnyElementsOf(deleted);
      }
    }
    long groups = all.stream().filter(m -> !deleted.contains(m.id())).map(Memory::intentId).distinct().count();
    assertThat(store.counts("ns", StoreFixtures.T0).intents()).isEqualTo(groups);
  }

  private static long liveMemoriesAndGroups(List<Memory> all, Set<String> deleted) {
    List<Memory> live = all.stream().filter(m -> !deleted.contains(m.id())).toList();
    return live.size() + live.stream().map(Memory::intentId).collect(Collectors.toSet()).size();
  }

  private static int indexedDocs(Path dir) throws IOException {
    try (var index = FSDirectory.open(dir.resolve(StoreFiles.INDEX_DIR)); var reader = DirectoryReader.open(index)) {
      return reader.numDocs();
    }
  }

  static NewMemory memory(String ns, float[] v, String experience) {
    return new NewMemory(ns, "intent " + experience, v, experience, Outcome.SUCCESS, 0, StoreFixtures.T0);
  }

  private static float[] near(float[] v, double noise, SplittableRandom rnd) {
    float[] out = v.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += (float) (noise * rnd.nextGaussian() / Math.sqrt(out.length));
    }
    return Vectors.normalized(out, "near");
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
