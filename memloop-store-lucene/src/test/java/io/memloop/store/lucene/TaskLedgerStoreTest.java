package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per-task learning state (ledger puts and deletes) through a crash (log replay), through a checkpoint (snapshot), and
 * from an older snapshot.
 */
class TaskLedgerStoreTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final LuceneStoreOptions LOG_ONLY = LuceneStoreOptions.builder()
      .commitEveryInserts(1_000_000).checkpointEveryBytes(1 << 30).build();
  private static final LuceneStoreOptions TINY_CHECKPOINTS = LuceneStoreOptions.builder()
      .checkpointEveryBytes(4096).build();

  @TempDir Path tmp;

  private static RetrievalRecord save(LuceneStore store, TaskNote note) {
    return store.saveRetrieval(new RetrievalRecordDraft(
        "ns", T0, T0.plusSeconds(3600), List.of(new Candidate("m1", 0.9, 0, 1, true, 1)), note.into(Annotations.EMPTY)));
  }

  @Test
  void ledgerAndTaskNotes_areReplayedFromTheLog_afterACrash() {
    Path dir = tmp.resolve("store");
    RetrievalRecord r;
    TaskNote note = new TaskNote("tabc", "m1", true, "m1", TaskNote.WHOLE); // log record type 12
    TaskNote noDraw = new TaskNote("tabc", "", true);
    RetrievalRecord r2;
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      r = save(store, note); // made durable by the ledger writes after it
      r2 = save(store, noDraw);
      store.putLedger("ns", Map.of("t:tabc", new double[] {2, 1}));
      store.putLedger("ns", Map.of("t:tabc", new double[] {0, 1}, "n", new double[] {1, 1, 0, 0}));
      // ledger writes are not awaited (like retrievals): a durable write after them makes them durable too
      store.insert(new NewMemory("ns", "", new float[] {1, 0, 0, 0, 0, 0, 0, 0}, "e", Outcome.SUCCESS, 0, T0), 0.9);
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertThat(store.ledger("ns", List.of("t:tabc")).get("t:tabc")).containsExactly(0, 1);
      assertThat(store.ledger("ns", List.of("n")).get("n")).containsExactly(1, 1, 0, 0);
      RewardOutcome out = store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(u.q(), u.visits() + 1));
      // m1 was never inserted, so nothing changes, but the retrieval and its note came back
      assertThat(TaskNote.of(((RewardOutcome.Applied) out).retrieval().annotations())).isEqualTo(note);
      RewardOutcome out2 = store.applyReward("ns", r2.id(), T0, (id, u) -> new Utility(u.q(), u.visits() + 1));
      assertThat(TaskNote.of(((RewardOutcome.Applied) out2).retrieval().annotations())).isEqualTo(noDraw);
    }
  }

  @Test
  void ledgerDeletes_areReplayedFromTheLog_afterACrash_withoutASnapshot() throws Exception {
    Path dir = tmp.resolve("store");
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      store.putLedger("ns", Map.of("t:a", new double[] {1, 2}, "c:m1", new double[] {1, 0}, "p:a:m1", new double[] {-1}));
      store.putLedger("other", Map.of("c:m1", new double[] {7}));
      store.deleteLedger("ns", List.of("c:m1", "p:a:m1", "never-stored")); // logs one record: type 13
      store.deleteLedger("ns", List.of("never-stored")); // holds none of them: logs nothing
      store.deleteLedger("absent", List.of("t:a")); // unknown namespace: logs nothing, creates nothing
      store.putLedger("ns", Map.of("p:a:m1", new double[] {3})); // put again after its delete
      // ledger writes are not awaited: a durable write after them makes them durable too
      store.insert(new NewMemory("ns", "", new float[] {1, 0, 0, 0, 0, 0, 0, 0}, "e", Outcome.SUCCESS, 0, T0), 0.9);
      store.crashForTesting();
    }
    assertThat(StoreFiles.snapshots(dir)).as("no checkpoint ran: the log alone holds the deletes").isEmpty();
    List<WalRecord> logged = new java.util.ArrayList<>();
    WalScanner.scan(StoreFiles.segments(dir), 0, (lsn, record, file, offset) -> logged.add(record));
    assertThat(logged).filteredOn(WalRecord.LedgerDelete.class::isInstance)
        .containsExactly(new WalRecord.LedgerDelete("ns", List.of("c:m1", "p:a:m1")));

    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("t:a", "p:a:m1");
      assertThat(store.ledger("ns", List.of("c:m1"))).isEmpty();
      assertThat(store.ledger("ns", List.of("p:a:m1")).get("p:a:m1")).containsExactly(3);
      assertThat(store.ledgerKeys("other")).containsExactly("c:m1");
      assertThat(store.ledgerKeys("absent")).isEmpty();
    }
  }

  @Test
  void aLedgerDeleteRecord_decodesToWhatWasEncoded_andRejectsAGarbageCount() throws Exception {
    WalRecord.LedgerDelete del = new WalRecord.LedgerDelete("näme", List.of("t:a", "", "p:a:m1"));
    ByteWriter w = new ByteWriter(64);
    del.encode(w);
    byte[] b = w.toByteArray();
    assertThat(b[0]).as("the type byte").isEqualTo((byte) WalRecord.LEDGER_DELETE).isEqualTo((byte) 13);
    assertThat(WalRecord.decode(b, 0, b.length)).isEqualTo(del);

    WalRecord.LedgerDelete none = new WalRecord.LedgerDelete("ns", List.of());
    ByteWriter empty = new ByteWriter(16);
    none.encode(empty);
    assertThat(WalRecord.decode(empty.toByteArray(), 0, empty.length())).isEqualTo(none);

    int countAt = 1 + 4 + "näme".getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
    ByteWriter.putIntAt(b, countAt, -1);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> WalRecord.decode(b, 0, b.length))
        .isInstanceOf(ByteReader.Malformed.class).hasMessageContaining("ledger key count");
  }

  @Test
  void ledgerAndPendingNotes_surviveCheckpoints() {
    Path dir = tmp.resolve("store");
    TaskNote note = new TaskNote("tk", "", true, "", TaskNote.NEWEST);
    RetrievalRecord r;
    try (LuceneStore store = LuceneStore.open(dir, DIM, TINY_CHECKPOINTS)) {
      for (int i = 0; i < 2000; i++) { // about 70 KB of log: many checkpoints
        store.putLedger("ns", Map.of("p:tk:m" + i, new double[] {i}));
      }
      r = save(store, note);
      store.putLedger("ns", Map.of("t:tk", new double[] {3, 0}));
      assertThat(TaskNote.of(r.annotations())).isEqualTo(note);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, TINY_CHECKPOINTS)) {
      assertThat(store.ledger("ns", List.of("t:tk")).get("t:tk")).containsExactly(3, 0);
      assertThat(store.ledger("ns", List.of("p:tk:m0", "p:tk:m1999")))
          .satisfies(m -> assertThat(m.get("p:tk:m0")).containsExactly(0))
          .satisfies(m -> assertThat(m.get("p:tk:m1999")).containsExactly(1999));
      assertThat(store.ledger("ns", java.util.stream.IntStream.range(0, 2000).mapToObj(i -> "p:tk:m" + i).toList()))
          .hasSize(2000);
      RewardOutcome out = store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(u.q(), u.visits() + 1));
      assertThat(TaskNote.of(((RewardOutcome.Applied) out).retrieval().annotations())).isEqualTo(note);
    }
  }

  @Test
  void aSnapshotWrittenByTheBuildBeforeTheNoteDepthDraw_opens_withNoDrawOnItsRetrievals() throws Exception {
    Path dir = tmp.resolve("store");
    TaskNote note = new TaskNote("tk", "m1", true, "m1");
    RetrievalRecord r;
    io.memloop.Memory m;
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      m = store.insert(new NewMemory("ns", "", new float[] {1, 0, 0, 0, 0, 0, 0, 0}, "e", Outcome.SUCCESS, 0, T0), 0.9);
      r = save(store, note);
      store.putLedger("ns", Map.of("t:tk", new double[] {2, 1}));
    } // a clean close writes a snapshot (v5)
    Path snapshot = StoreFiles.snapshots(dir).lastEntry().getValue();
    StoreState state = new StoreState(new RetrievalBook.Limits(1_000, 1 << 20), new RetrievalBook.Limits(1_000, 1 << 20));
    Snapshot.Position at = Snapshot.read(snapshot, DIM, state);
    Path v2 = snapshot.resolveSibling("v2.tmp");
    Snapshot.write(v2, state, DIM, at.segment(), at.lsn(), at.clean(), 2);
    java.nio.file.Files.move(v2, snapshot, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(java.nio.file.Files.readAllBytes(snapshot)[4]).as("the version, little-endian").isEqualTo((byte) 2);
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertThat(store.ledger("ns", List.of("t:tk")).get("t:tk")).containsExactly(2, 1);
      RewardOutcome out = store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(u.q(), u.visits() + 1));
      assertThat(TaskNote.of(((RewardOutcome.Applied) out).retrieval().annotations())).isEqualTo(note);
      assertThat(store.get("ns", m.id())).isPresent();
    }
  }
}
