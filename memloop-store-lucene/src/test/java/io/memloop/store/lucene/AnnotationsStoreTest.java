package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Annotations in the Lucene store's files: log records 11 and 12 through a crash, the v5 snapshot through
 * checkpoints, and a store written by the build before annotations (snapshot v4, log records 2, 7 and 9).
 */
class AnnotationsStoreTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final LuceneStoreOptions LOG_ONLY = LuceneStoreOptions.builder()
      .commitEveryInserts(1_000_000).checkpointEveryBytes(1 << 30).build();
  private static final LuceneStoreOptions TINY_CHECKPOINTS = LuceneStoreOptions.builder()
      .checkpointEveryBytes(4096).build();

  @TempDir Path tmp;

  private static Annotations text(String name, String value) {
    return Annotations.of(name, 1, value.getBytes(StandardCharsets.UTF_8));
  }

  private static Memory insert(LuceneStore store, int axis) {
    float[] v = new float[DIM];
    v[axis] = 1;
    return store.insert(new NewMemory("ns", "intent " + axis, v, "e" + axis, Outcome.SUCCESS, 0, T0), 0.9);
  }

  private static RetrievalRecord save(LuceneStore store, String memoryId, Annotations annotations) {
    return store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600),
        List.of(new Candidate(memoryId, 0.9, 0, 1, true, 1)), annotations));
  }

  private static int snapshotVersion(Path dir) throws IOException {
    return Files.readAllBytes(StoreFiles.snapshots(dir).lastEntry().getValue())[4];
  }

  @Test
  void annotations_areReplayedFromTheLog_afterACrash_andADeleteTakesAMemorysAlong() {
    Path dir = tmp.resolve("store");
    Memory a;
    Memory b;
    Memory c;
    RetrievalRecord r;
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      a = insert(store, 0);
      b = insert(store, 1);
      c = insert(store, 2);
      store.annotate("ns", Map.of(a.id(), text("seen", "1"), b.id(), text("seen", "2"), c.id(), text("seen", "3")));
      store.annotate("ns", Map.of(a.id(), text("other", "replaced"), b.id(), Annotations.EMPTY));
      r = save(store, a.id(), text("shown", "a").with("task", 1, new byte[] {0, 0, 0, 0}));
      assertThat(store.delete("ns", c.id())).isTrue(); // durable: the log up to here is on disk
      store.crashForTesting();
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertThat(store.annotations("ns", List.of(a.id(), b.id(), c.id())))
          .isEqualTo(Map.of(a.id(), text("other", "replaced")));
      RewardOutcome out = store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(u.q(), u.visits() + 1));
      assertThat(((RewardOutcome.Applied) out).retrieval().annotations())
          .isEqualTo(text("shown", "a").with("task", 1, new byte[] {0, 0, 0, 0}));
    }
  }

  @Test
  void annotations_surviveCheckpoints_inTheV5Snapshot() throws Exception {
    Path dir = tmp.resolve("store");
    Map<String, Annotations> expected = new HashMap<>();
    RetrievalRecord pending;
    List<Memory> memories;
    try (LuceneStore store = LuceneStore.open(dir, DIM, TINY_CHECKPOINTS)) {
      memories = Stream.of(0, 1, 2, 3).map(i -> insert(store, i)).toList();
      for (int i = 0; i < 400; i++) { // about 40 KB of log: many checkpoints
        Memory m = memories.get(i % 4);
        Annotations value = text("count", "" + i).with("seen", i % 3, new byte[i % 7]);
        store.annotate("ns", Map.of(m.id(), value));
        expected.put(m.id(), value);
      }
      pending = save(store, memories.get(0).id(), new TaskNote("t", "m1", true).into(text("z", "after")));
      store.annotate("ns", Map.of(memories.get(3).id(), Annotations.EMPTY));
      expected.remove(memories.get(3).id());
      assertThat(store.annotations("ns", expected.keySet())).isEqualTo(expected);
    }
    assertThat(snapshotVersion(dir)).isEqualTo(Snapshot.VERSION).isEqualTo(5);
    try (LuceneStore store = LuceneStore.open(dir, DIM, TINY_CHECKPOINTS)) {
      assertThat(store.annotations("ns", memories.stream().map(Memory::id).toList())).isEqualTo(expected);
      assertThat(store.retrieval("ns", pending.id()).orElseThrow().annotations())
          .isEqualTo(new TaskNote("t", "m1", true).into(text("z", "after")));
    }
  }

  /**
   * The store in test resources {@code v4-wal-7-9} was written by the build before annotations (commit 9a469e6,
   * see its README): a v4 snapshot holding retrievals with task notes, then a log with record types 7, 9 and 2
   * after it, left by a crash.
   */
  @Test
  void aStoreOfTheBuildBeforeAnnotations_opens_withItsTaskNotesAsAnnotations_andIsWrittenBackAsV5()
      throws IOException, URISyntaxException {
    Path dir = tmp.resolve("old");
    Path fixture = Path.of(AnnotationsStoreTest.class.getResource("v4-wal-7-9").toURI());
    try (Stream<Path> files = Files.walk(fixture)) {
      for (Path f : files.toList()) {
        Path to = dir.resolve(fixture.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else if (!f.getFileName().toString().equals("README.md")) {
          Files.copy(f, to);
        }
      }
    }
    assertThat(snapshotVersion(dir)).isEqualTo(4);
    Map<String, TaskNote> notes = Map.of(
        "r5", new TaskNote("snapctx", "m2", true, "m2"), // from the v4 snapshot
        "r6", new TaskNote("snapctx", "", true, "", TaskNote.NEWEST),
        "r7", TaskNote.NONE,
        "r8", new TaskNote("walctx", "m1", true, "m1"), // log record type 7
        "r9", new TaskNote("walctx", "", false, "m2", TaskNote.WHOLE), // type 9
        "r10", TaskNote.NONE); // type 2
    for (int round = 0; round < 2; round++) { // as left by the old build, then as this build wrote it back
      try (LuceneStore store = LuceneStore.open(dir, 4, LOG_ONLY)) {
        for (var e : notes.entrySet()) {
          Annotations a = store.retrieval("ns", e.getKey()).orElseThrow().annotations();
          assertThat(TaskNote.of(a)).as(e.getKey()).isEqualTo(e.getValue());
          assertThat(a.names()).as(e.getKey()).isEqualTo(e.getValue().isNone() ? List.of() : List.of("task"));
        }
        assertThat(store.ledger("ns", List.of("t:snapctx", "t:walctx")))
            .satisfies(m -> assertThat(m.get("t:snapctx")).containsExactly(1, 2))
            .satisfies(m -> assertThat(m.get("t:walctx")).containsExactly(3, 4));
        assertThat(store.get("ns", "m2")).isPresent();
        assertThat(store.get("ns", "m4")).isPresent();
        assertThat(store.get("ns", "m12")).isEmpty(); // deleted in the log
        assertThat(store.get("ns", "m14")).isPresent();
        assertThat(store.annotations("ns", List.of("m2", "m4", "m14"))).isEmpty();
      }
      assertThat(snapshotVersion(dir)).isEqualTo(5);
    }
  }

  @Test
  void aV4SnapshotWrittenByThisBuild_keepsTheTaskNotes_andDropsTheOtherAnnotations() throws Exception {
    Path dir = tmp.resolve("store");
    RetrievalRecord r;
    Memory m;
    TaskNote note = new TaskNote("tk", "m1", true, "m1", TaskNote.NEWEST);
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      m = insert(store, 0);
      store.annotate("ns", Map.of(m.id(), text("seen", "x")));
      r = save(store, m.id(), note.into(text("other", "y")));
    }
    Path snapshot = StoreFiles.snapshots(dir).lastEntry().getValue();
    StoreState state = new StoreState(new RetrievalBook.Limits(1_000, 1 << 20), new RetrievalBook.Limits(1_000, 1 << 20));
    Snapshot.Position at = Snapshot.read(snapshot, DIM, state);
    Path v4 = snapshot.resolveSibling("v4.tmp");
    Snapshot.write(v4, state, DIM, at.segment(), at.lsn(), at.clean(), 4);
    Files.move(v4, snapshot, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    assertThat(snapshotVersion(dir)).isEqualTo(4);
    try (LuceneStore store = LuceneStore.open(dir, DIM, LOG_ONLY)) {
      assertThat(store.retrieval("ns", r.id()).orElseThrow().annotations()).isEqualTo(note.into(Annotations.EMPTY));
      assertThat(store.annotations("ns", List.of(m.id()))).isEmpty();
    }
  }
}
