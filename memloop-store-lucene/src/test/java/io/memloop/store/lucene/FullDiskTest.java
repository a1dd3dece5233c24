package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.T0;
import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static io.memloop.store.lucene.StoreFixtures.select;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.store.RetrievalRecord;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.IOContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 23 item 17: on a full disk the CLI printed 56-62 lines of Lucene merge-thread stack trace.
 * Every call now fails with one STORE_UNAVAILABLE exception saying the disk is full (the CLI's exit
 * 5), nothing is printed, and once space returns the store reopens with every acknowledged write. The
 * disk is simulated ({@link FullDisk}) under the index directory and the log.
 */
class FullDiskTest {
  static final int DIM = 8;

  @TempDir Path tmp;
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private PrintStream realStderr;

  @BeforeEach
  void captureStderr() {
    realStderr = System.err;
    System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
  }

  @AfterEach
  void restoreStderr() {
    System.setErr(realStderr);
  }

  private String printed() {
    return stderr.toString(StandardCharsets.UTF_8);
  }

  private static void assertDiskFull(Throwable t) {
    assertThat(t).isInstanceOfSatisfying(MemLoopException.class,
        e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_UNAVAILABLE));
    assertThat(t.getMessage()).contains("disk full").doesNotContain("\n");
  }

  @Test
  void diskFillingUpDuringWrites_failsCallsCleanly_printsNothing_andKeepsEveryAcknowledgedWrite() {
    Path dir = tmp.resolve("store");
    LuceneStoreOptions busy = LuceneStoreOptions.builder().refreshEveryInserts(2).commitEveryInserts(5)
        .retrievalSyncDelayMillis(0).build();
    FullDisk disk = new FullDisk(ctx -> true, true);
    SplittableRandom rnd = new SplittableRandom(17);
    List<Memory> acknowledged = new ArrayList<>();
    List<Throwable> failures = new ArrayList<>();
    LuceneStore store = LuceneStore.open(dir, DIM, busy, disk.io());
    for (int i = 0; i < 30; i++) {
      acknowledged.add(insert(store, "ns", randomUnit(rnd, DIM), "before " + i, 0));
    }
    disk.leave(40_000);
    for (int i = 0; i < 300; i++) {
      try {
        Memory m = insert(store, "ns", randomUnit(rnd, DIM), "while filling " + i, 0);
        acknowledged.add(m);
        RetrievalRecord r = select(store, "ns", m.id());
        store.applyReward("ns", r.id(), T0, (id, u) -> new io.memloop.Utility(1, u.visits() + 1));
      } catch (RuntimeException e) {
        failures.add(e);
      }
    }
    assertThat(disk.refusals()).as("writes refused").isPositive();
    assertThat(failures).as("calls failed on the full disk").isNotEmpty();
    failures.forEach(FullDiskTest::assertDiskFull);
    disk.free();
    try {
      store.close();
    } catch (MemLoopException e) {
      assertDiskFull(e); // the store failed: close releases it without writing
    }
    assertThat(printed()).as("stderr").doesNotContain("Exception").doesNotContain("\tat ");

    try (LuceneStore reopened = LuceneStore.open(dir, DIM)) {
      for (Memory m : acknowledged) {
        assertThat(reopened.get("ns", m.id())).as("acknowledged %s", m.id()).isPresent()
            .get().extracting(Memory::experience).isEqualTo(m.experience());
      }
      insert(reopened, "ns", randomUnit(rnd, DIM), "after", 0); // usable again
    }
  }

  /**
   * Only merges hit the full disk: the merge thread's failure is recorded, not printed, and the next
   * call reports it as one exception. (Lucene closes its writer after a failed merge, so the store must
   * then be reopened; reopening recovers every acknowledged write from the log.)
   */
  @Test
  void failedBackgroundMerge_isNotPrinted_andTheNextCallReportsIt() {
    Path dir = tmp.resolve("merges");
    LuceneStoreOptions manySegments = LuceneStoreOptions.builder().refreshEveryInserts(1).build();
    FullDisk disk = new FullDisk(ctx -> ctx.context() == IOContext.Context.MERGE, false);
    disk.leave(0); // every merge fails; flushes, commits and the log still have room
    SplittableRandom rnd = new SplittableRandom(5);
    List<Memory> acknowledged = new ArrayList<>();
    LuceneStore store = LuceneStore.open(dir, DIM, manySegments, disk.io());
    List<MemLoopException> failures = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      try {
        acknowledged.add(insert(store, "ns", randomUnit(rnd, DIM), "m " + i, 0));
      } catch (MemLoopException e) {
        failures.add(e);
      }
    }
    store.awaitMergesForTesting();
    assertThat(disk.refusals()).as("merges refused").isPositive();
    try {
      insert(store, "ns", randomUnit(rnd, DIM), "after the merges", 0);
    } catch (MemLoopException e) {
      failures.add(e);
    }
    assertThat(failures).as("calls after the failed merge").isNotEmpty();
    failures.forEach(FullDiskTest::assertDiskFull);
    freeCloseAndReopen(disk, store, dir, acknowledged);
  }

  /**
   * The window the previous test meets by chance: Lucene closes its writer when a merge fails, before
   * the merge thread records the failure, and an insert indexing meanwhile gets "this DocumentsWriter is
   * closed", which has no cause. That call must still say the disk is full, and so must later calls.
   */
  @Test
  void insertMeetingTheWriterClosingBeforeTheMergeFailureIsRecorded_saysDiskFull() {
    Path dir = tmp.resolve("window");
    LuceneStoreOptions manySegments = LuceneStoreOptions.builder().refreshEveryInserts(1).build();
    FullDisk disk = new FullDisk(ctx -> ctx.context() == IOContext.Context.MERGE, false);
    disk.leave(0);
    SplittableRandom rnd = new SplittableRandom(5);
    List<Memory> acknowledged = new ArrayList<>();
    LuceneStore store = LuceneStore.open(dir, DIM, manySegments, disk.io());
    for (int i = 0; i < 60 && disk.refusals() == 0; i++) {
      acknowledged.add(insert(store, "ns", randomUnit(rnd, DIM), "m " + i, 0));
      store.awaitMergesForTesting();
    }
    assertThat(disk.refusals()).as("merges refused").isPositive();

    assertDiskFull(store.indexingFailedForTesting(new AlreadyClosedException("this DocumentsWriter is closed")));
    assertDiskFull(catchThrowable(() -> insert(store, "ns", randomUnit(rnd, DIM), "later", 0)));
    freeCloseAndReopen(disk, store, dir, acknowledged);
  }

  /**
   * Frees the disk and closes the failed store (close may report the failure, as disk full), checks that nothing
   * was printed, reopens the store with every acknowledged write and merges it (space is back: merges work again).
   */
  private void freeCloseAndReopen(FullDisk disk, LuceneStore store, Path dir, List<Memory> acknowledged) {
    disk.free();
    try {
      store.close();
    } catch (MemLoopException e) {
      assertDiskFull(e);
    }
    assertThat(printed()).as("stderr").doesNotContain("Exception").doesNotContain("\tat ");
    try (LuceneStore reopened = LuceneStore.open(dir, DIM)) {
      for (Memory m : acknowledged) {
        assertThat(reopened.get("ns", m.id())).as("acknowledged %s", m.id()).isPresent();
      }
      reopened.forceMerge(1);
    }
  }
}
