package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.T0;
import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 16: saved retrievals are bounded store-wide, not only per namespace. A store whose
 * namespaces each held their per-namespace maximum did not open in {@code -Xmx64m} (4 namespaces
 * needed 303 MB); now every namespace together keeps at most {@link LuceneStoreOptions#maxRetrievals()}
 * and about {@link LuceneStoreOptions#maxRetrievalBytes()}, the oldest of the store evicted first, and
 * a store holding that maximum opens in 64 MB.
 */
class RetrievalBoundsTest {
  static final int DIM = 8;
  static final int NAMESPACES = 4;

  @TempDir Path tmp;

  private static RewardOutcome reward(LuceneStore s, String ns, RetrievalRecord r) {
    return s.applyReward(ns, r.id(), T0, (id, u) -> new Utility(u.q() + 0.1, u.visits() + 1));
  }

  @Test
  void storeWideBound_evictsTheOldestOfTheStore_whateverItsNamespace_andHoldsAfterAReopen() {
    Path dir = tmp.resolve("store");
    LuceneStoreOptions options = LuceneStoreOptions.builder().maxRetrievals(100).retrievalSyncDelayMillis(0)
        .checkpointEveryBytes(1 << 30).build();
    List<RetrievalRecord> saved = new ArrayList<>(); // in save order, namespaces interleaved
    LuceneStore store = LuceneStore.open(dir, DIM, options);
    List<Memory> memories = new ArrayList<>();
    for (int n = 0; n < NAMESPACES; n++) {
      memories.add(insert(store, "ns" + n, randomUnit(new SplittableRandom(n), DIM), "only", 0));
    }
    for (int i = 0; i < 1_000; i++) {
      int n = i % NAMESPACES;
      saved.add(select(store, "ns" + n, memories.get(n).id()));
    }
    assertThat(totalPending(store)).isEqualTo(100);
    assertThat(store.retrievalBudgetForTesting().count()).isEqualTo(100);
    assertThat(reward(store, "ns0", saved.get(0))).isInstanceOf(RewardOutcome.Unknown.class);
    store.crashForTesting(); // the log holds all 1,000 saves: replay must keep the store-wide bound

    try (LuceneStore reopened = LuceneStore.open(dir, options)) {
      assertThat(totalPending(reopened)).isEqualTo(100);
      for (int n = 0; n < NAMESPACES; n++) {
        assertThat(reopened.counts("ns" + n, T0).pendingRetrievals()).as("ns%d", n).isEqualTo(25);
      }
      assertThat(reward(reopened, "ns3", saved.get(899))).isInstanceOf(RewardOutcome.Unknown.class);
      assertThat(reward(reopened, "ns0", saved.get(900))).isInstanceOf(RewardOutcome.Applied.class);
      assertThat(reward(reopened, "ns3", saved.get(999))).isInstanceOf(RewardOutcome.Applied.class);
    }
    // a checkpoint written under a larger bound is restored under the smaller one
    LuceneStoreOptions smaller = LuceneStoreOptions.builder().maxRetrievals(10).build();
    try (LuceneStore reopened = LuceneStore.open(dir, smaller)) {
      assertThat(reopened.retrievalBudgetForTesting().count()).isEqualTo(10);
      assertThat(reward(reopened, "ns3", saved.get(987))).isInstanceOf(RewardOutcome.Unknown.class);
      assertThat(reward(reopened, "ns3", saved.get(991))).isInstanceOf(RewardOutcome.Applied.class);
    }
  }

  @Test
  void storeWideBytesBound_evictsToo() {
    LuceneStoreOptions options = LuceneStoreOptions.builder().maxRetrievalBytes(20_000).build();
    try (LuceneStore store = LuceneStore.open(tmp.resolve("b"), DIM, options)) {
      List<Memory> memories = new ArrayList<>();
      for (int n = 0; n < NAMESPACES; n++) {
        memories.add(insert(store, "ns" + n, randomUnit(new SplittableRandom(n), DIM), "only", 0));
      }
      for (int i = 0; i < 400; i++) {
        select(store, "ns" + i % NAMESPACES, memories.get(i % NAMESPACES).id());
      }
      long each = RetrievalBook.bytesOf(select(store, "ns0", memories.get(0).id()));
      assertThat(totalPending(store)).isBetween(1L, 20_000L / each);
      assertThat(store.retrievalBudgetForTesting().bytes()).isLessThanOrEqualTo(20_000L);
    }
  }

  /**
   * Four namespaces each save 10,000 retrievals of 40 candidates (the per-namespace default count), so
   * the log holds 1.6 million candidates; a child JVM with {@code -Xmx64m} then opens the store twice,
   * first replaying the log, then restoring the snapshot the first close wrote. Before the store-wide
   * bound the first open ran out of memory.
   */
  @Test
  void storeHoldingTheMostRetrievalsItKeeps_opensIn64MiB() throws Exception {
    Path dir = tmp.resolve("full");
    LuceneStoreOptions writer = LuceneStoreOptions.builder().checkpointEveryBytes(1 << 30).build();
    LuceneStore store = LuceneStore.open(dir, DIM, writer);
    List<Candidate> candidates = new ArrayList<>();
    for (int c = 0; c < 40; c++) {
      candidates.add(new Candidate("m" + (1_000_000 + c), 0.9 - c * 0.01, 0.5, 0.7, c < 3, c < 3 ? 1 : 0));
    }
    for (int i = 0; i < 10_000; i++) {
      for (int n = 0; n < NAMESPACES; n++) {
        store.saveRetrieval(new RetrievalRecordDraft("ns" + n, T0, T0.plusSeconds(3600), candidates));
      }
    }
    store.crashForTesting();
    String[] first = openInChild(dir, "replay");
    String[] second = openInChild(dir, "restore");
    LuceneStoreOptions defaults = LuceneStoreOptions.defaults();
    for (String[] line : List.of(first, second)) {
      assertThat(Long.parseLong(line[2])).isPositive().isLessThanOrEqualTo(defaults.maxRetrievals());
      assertThat(Long.parseLong(line[3])).isLessThanOrEqualTo(defaults.maxRetrievalBytes());
    }
    assertThat(second[2]).isEqualTo(first[2]);
  }

  private String[] openInChild(Path dir, String name) throws IOException, InterruptedException {
    String java = ProcessHandle.current().info().command().orElseThrow();
    Path out = tmp.resolve(name + ".out");
    Path err = tmp.resolve(name + ".err");
    Process p = new ProcessBuilder(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
        OpenHeapChild.class.getName(), dir.toString())
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("child finished").isTrue();
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("child exit; stderr: %s", Files.readString(err, StandardCharsets.UTF_8)).isZero();
    String line = stdout.lines().filter(l -> l.startsWith("open ")).findFirst().orElseThrow();
    System.out.println("OpenHeapChild -Xmx64m " + name + ": heap used after open and GC, retrievals kept, estimated bytes: "
        + line);
    return line.split(" ");
  }

  private static long totalPending(LuceneStore store) {
    long n = 0;
    for (String ns : store.namespaces()) {
      n += store.counts(ns, T0).pendingRetrievals();
    }
    return n;
  }
}
