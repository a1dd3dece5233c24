package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.fingerprint;
import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.onlySegment;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged stores: every kind of damage is reported as STORE_CORRUPT with the file and what was
 * expected, and a failed open leaves every file as it found it. A torn last log record is not damage.
 */
class CorruptionTest {
  static final int DIM = 8;
  /** No automatic checkpoint or commit, so the test's writes stay in the one log segment. */
  static final LuceneStoreOptions NO_CHECKPOINT = LuceneStoreOptions.builder()
      .commitEveryInserts(1_000_000).checkpointEveryBytes(1 << 30).build();

  @TempDir Path tmp;
  Path dir;
  List<Memory> written;

  /** Writes 40 memories, then stops as a crash would: all of them live in the log only. */
  @BeforeEach
  void crashedStore() {
    dir = tmp.resolve("store");
    LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT);
    SplittableRandom rnd = new SplittableRandom(5);
    written = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      written.add(insert(store, "ns", randomUnit(rnd, DIM), "memory number " + i, i / 40.0));
    }
    store.crashForTesting();
  }

  @Test
  void reopenAfterCrash_restoresEverythingFromTheLog() {
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      for (Memory m : written) {
        assertThat(store.get("ns", m.id())).contains(m);
      }
    }
  }

  @Test
  void badMagicInMetadata_isCorrupt_andChangesNothing() throws IOException {
    patchInt(dir.resolve("memloop.meta"), 0, 0xCAFEBABE);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "bad magic 0xcafebabe", "memloop.meta", "expected 0x4d4c4d54");
  }

  @Test
  void unknownVersionInMetadata_isCorrupt() throws IOException {
    patchInt(dir.resolve("memloop.meta"), 4, 99);
    assertCorrupt(() -> LuceneStore.open(dir), "unknown store format version 99", "reads v1 to v" + StoreMeta.CURRENT_VERSION);
  }

  @Test
  void truncatedMetadata_isCorrupt() throws IOException {
    truncate(dir.resolve("memloop.meta"), 10);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "memloop.meta");
  }

  @Test
  void openWithAnotherDimension_isCorrupt_namingBoth() throws IOException {
    assertCorrupt(() -> LuceneStore.open(dir, DIM * 2), "store has dimension 8", "opened with dimension 16");
  }

  @Test
  void badMagicInLogSegment_isCorrupt() throws IOException {
    patchInt(onlySegment(dir), 0, 0x12345678);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "bad magic 0x12345678 in log segment", "expected 0x4d4c574c v2");
  }

  @Test
  void flippedByteInTheMiddleOfTheLog_isCorrupt() throws IOException {
    Path segment = onlySegment(dir);
    byte[] b = Files.readAllBytes(segment);
    b[b.length / 2] ^= 0x40;
    Files.write(segment, b);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "corrupt log record at offset", "was synced and acknowledged",
        segment.getFileName().toString());
  }

  @Test
  void bytesCutFromTheMiddleOfTheLog_isCorrupt() throws IOException {
    Path segment = onlySegment(dir);
    byte[] b = Files.readAllBytes(segment);
    int at = b.length / 3;
    byte[] cut = new byte[b.length - 100];
    System.arraycopy(b, 0, cut, 0, at);
    System.arraycopy(b, at + 100, cut, at, b.length - at - 100);
    Files.write(segment, cut);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "were synced and acknowledged: the end of the log was lost");
  }

  @Test
  void bytesCutFromTheMiddle_pastTheWatermark_isStillCorrupt_whenIntactRecordsFollow() throws IOException {
    Path segment = onlySegment(dir);
    long lastStart = StoreFixtures.tearLastRecord(segment, -1); // the watermark now ends before the last record
    // Put a whole record back, but after a gap: an intact record past a bad one is not a torn write.
    byte[] b = Files.readAllBytes(segment);
    byte[] withGap = new byte[b.length + 16];
    System.arraycopy(b, 0, withGap, 0, b.length);
    byte[] lastRecordCopy = java.util.Arrays.copyOfRange(b, (int) (lastStart - 200), (int) lastStart);
    Files.write(segment, withGap);
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      ch.write(ByteBuffer.wrap(lastRecordCopy));
    }
    Map<String, String> before = fingerprint(dir);
    assertThatThrownBy(() -> LuceneStore.open(dir, DIM)).isInstanceOf(MemLoopException.class);
    assertThat(fingerprint(dir)).isEqualTo(before);
  }

  /** The case: a store not closed cleanly whose log lost its synced end. */
  @Test
  void truncatedSyncedTail_isCorrupt_notATornWrite_andTheFilesAreKept() throws IOException {
    Path segment = onlySegment(dir);
    for (long cut : new long[] {1, 7, 500, Files.size(segment) / 2}) {
      byte[] original = Files.readAllBytes(segment);
      truncate(segment, original.length - cut);
      assertCorrupt(() -> LuceneStore.open(dir, DIM), "were synced and acknowledged: the end of the log was lost",
          segment.getFileName().toString());
      Files.write(segment, original);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size());
    }
  }

  @Test
  void flippedByteInTheLastSyncedRecord_isCorrupt() throws IOException {
    Path segment = onlySegment(dir);
    byte[] b = Files.readAllBytes(segment);
    b[b.length - 3] ^= 0x01;
    Files.write(segment, b);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "corrupt log record at offset", "was synced and acknowledged");
  }

  @Test
  void tornLastRecord_isTruncatedAway_andEverythingBeforeItSurvives() throws IOException {
    Path segment = onlySegment(dir);
    StoreFixtures.tearLastRecord(segment, 20); // the last insert was only partly written when the crash came
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      for (Memory m : written.subList(0, written.size() - 1)) {
        assertThat(store.get("ns", m.id())).contains(m);
      }
      Memory lost = written.get(written.size() - 1);
      assertThat(store.get("ns", lost.id())).isEmpty();
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size() - 1);
      // its id is not reused: the next insert gets a fresh id, and the store keeps working
      Memory next = insert(store, "ns", randomUnit(new SplittableRandom(9), DIM), "after the tear", 0);
      assertThat(written).extracting(Memory::id).doesNotContain(next.id());
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size());
    }
  }

  @Test
  void zeroFilledTail_isTreatedAsTorn() throws IOException {
    Path segment = onlySegment(dir);
    long size = Files.size(segment);
    try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
      ch.write(ByteBuffer.allocate(4096));
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size());
    }
    assertThat(Files.size(onlySegment(dir))).isLessThanOrEqualTo(size);
  }

  @Test
  void crashWhileRotating_nextSegmentWithoutHeader_isRecreated() throws IOException {
    Path next = onlySegment(dir).resolveSibling(String.format("%016d.wal", 2));
    Files.write(next, new byte[32]); // created, but its header never reached the disk
    Files.writeString(dir.resolve("state-0000000000000002.snap.tmp"), "half a snapshot");
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      assertThat(store.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size());
    }
    assertThat(dir.resolve("state-0000000000000002.snap.tmp")).doesNotExist();
    try (LuceneStore store = LuceneStore.open(dir, DIM, NO_CHECKPOINT)) {
      assertThat(store.get("ns", written.get(7).id())).contains(written.get(7));
    }
  }

  @Test
  void truncatedSnapshot_isCorrupt() throws IOException {
    LuceneStore.open(dir, DIM, NO_CHECKPOINT).close(); // a clean close writes a snapshot
    Path snapshot;
    try (var files = Files.list(dir)) {
      snapshot = files.filter(p -> p.getFileName().toString().endsWith(".snap")).findFirst().orElseThrow();
    }
    truncate(snapshot, Files.size(snapshot) - 30);
    assertCorrupt(() -> LuceneStore.open(dir, DIM), snapshot.getFileName().toString());
  }

  @Test
  void missingLogSegment_isCorrupt() throws IOException {
    LuceneStore.open(dir, DIM, NO_CHECKPOINT).close();
    Files.delete(onlySegment(dir));
    assertCorrupt(() -> LuceneStore.open(dir, DIM), "log segment", "is missing");
  }

  @Test
  void secondOpenInThisProcess_isUnavailable() {
    try (LuceneStore first = LuceneStore.open(dir, DIM)) {
      assertThatThrownBy(() -> LuceneStore.open(dir, DIM))
          .isInstanceOfSatisfying(MemLoopException.class,
              e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_UNAVAILABLE))
          .hasMessageContaining("is in use by another process");
      assertThat(first.counts("ns", StoreFixtures.T0).memories()).isEqualTo(written.size());
    }
  }

  private void assertCorrupt(ThrowingCallable open, String... messageParts) throws IOException {
    Map<String, String> before = fingerprint(dir);
    assertThatThrownBy(open)
        .isInstanceOfSatisfying(MemLoopException.class,
            e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_CORRUPT))
        .hasMessageContainingAll(messageParts);
    assertThat(fingerprint(dir)).as("files after the failed open").isEqualTo(before);
  }

  private static void patchInt(Path file, int offset, int value) throws IOException {
    byte[] b = Files.readAllBytes(file);
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(offset, value);
    Files.write(file, b);
  }

  private static void truncate(Path file, long size) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(size);
    }
  }
}
