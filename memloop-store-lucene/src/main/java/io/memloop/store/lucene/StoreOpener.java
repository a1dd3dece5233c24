package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.lucene.index.CorruptIndexException;
import org.apache.lucene.index.IndexFormatTooNewException;
import org.apache.lucene.index.IndexFormatTooOldException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.Lock;
import org.apache.lucene.store.LockObtainFailedException;
import org.jspecify.annotations.Nullable;

/**
 * Opens a store directory: lock, metadata, snapshot, log replay, index reconciliation. Everything is
 * validated before anything is repaired (torn tail truncated, leftovers deleted, missing documents
 * re-indexed), so a store found corrupt is left exactly as it was.
 *
 * <p>Recovery invariant: the latest snapshot is valid at the start of its segment {@code S} (LSN
 * {@code s}); the index commit records LSN {@code c >= s} below which every logged insert is indexed;
 * replaying segments {@code S..} rebuilds RAM state, and inserts at or after {@code c} are re-indexed.
 *
 * <p>Every open logs a {@link WalRecord.SequenceFloor}; only a clean close (a snapshot flagged clean
 * with nothing logged after it) lets the next open continue ids where they stopped. Otherwise the
 * floor jumps by {@link #UNCLEAN_ID_GAP}, so an id a reader saw just before a crash, whose insert
 * never became durable, is not handed out again.
 */
final class StoreOpener {
  /**
   * Ids skipped after an unclean shutdown: more than the ids that can be in flight (handed out, not
   * yet durable) at once: two per concurrent insert, two per memory of a concurrent bulk insert (a
   * batch is at most one 64 MiB log record, so under 2^22 memories), and one per retrieval saved within
   * the last retrieval sync delay (at most 10 s) plus one fsync. 2^32 leaves a wide margin and still
   * allows billions of unclean shutdowns before ids reach 2^63.
   */
  static final long UNCLEAN_ID_GAP = 1L << 32;

  private static final Set<String> OURS =
      Set.of(StoreFiles.META, StoreFiles.WAL_DIR, StoreFiles.INDEX_DIR, SettingsFile.NAME);

  /** An opened store's parts. */
  record Opened(StoreMeta meta, Directory lockDirectory, Lock lock, StoreState state, WriteAheadLog wal,
      VectorIndex index, SettingsFile settings) {}

  private StoreOpener() {}

  /** Opens {@code dir}; {@code dimension} 0 means "an existing store, whatever its dimension". */
  static Opened open(Path dir, int dimension, LuceneStoreOptions options) {
    return open(dir, dimension, options, StoreIo.DIRECT);
  }

  /** As {@link #open(Path, int, LuceneStoreOptions)}, reaching the index and the log through {@code io}. */
  static Opened open(Path dir, int dimension, LuceneStoreOptions options, StoreIo io) {
    if (dimension == 0 && !Files.isRegularFile(dir.resolve(StoreFiles.META))) {
      throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, "dir",
          "no MemLoop store at " + dir + " (" + StoreFiles.META + " not found)");
    }
    if (Files.isDirectory(dir) && !Files.isRegularFile(dir.resolve(StoreFiles.META))) {
      try {
        // Before the lock file is made: a rejected directory is left exactly as it was.
        requireNoForeignFiles(dir, dir.resolve(StoreFiles.META));
      } catch (IOException e) {
        throw StoreFiles.unavailable(dir, "listing the store directory", e);
      }
    }
    Directory lockDir = null;
    Lock lock = null;
    try {
      Files.createDirectories(dir);
      lockDir = FSDirectory.open(dir);
      lock = obtainLock(lockDir, dir, options.lockTimeout());
      Opened opened = recover(dir, dimension, options, lockDir, lock, io);
      lock = null; // owned by the store now
      lockDir = null;
      return opened;
    } catch (CorruptIndexException | IndexFormatTooOldException | IndexFormatTooNewException
        | NoSuchFileException | EOFException e) {
      throw StoreFiles.corrupt(dir, "unreadable or missing store file: " + e, e);
    } catch (IOException e) {
      throw StoreFiles.unavailable(dir, "opening store", e);
    } finally {
      closeQuietly(lock);
      closeQuietly(lockDir);
    }
  }

  private static Opened recover(Path dir, int dimension, LuceneStoreOptions options, Directory lockDir, Lock lock,
      StoreIo io) throws IOException {
    StoreMeta meta = readOrCreateMeta(dir, dimension, options);
    SettingsFile settings = SettingsFile.read(dir);
    settings.checkBoundTo(meta);
    Path indexPath = dir.resolve(StoreFiles.INDEX_DIR);
    long commitLsn = VectorIndex.committedLsn(indexPath);

    StoreState state = new StoreState(
        new RetrievalBook.Limits(options.maxRetrievalsPerNamespace(), options.maxRetrievalBytesPerNamespace()),
        new RetrievalBook.Limits(options.maxRetrievals(), options.maxRetrievalBytes()));
    TreeMap<Long, Path> snapshots = StoreFiles.snapshots(dir);
    Snapshot.Position start = new Snapshot.Position(1, 0, true);
    if (!snapshots.isEmpty()) {
      Path latest = snapshots.lastEntry().getValue();
      start = Snapshot.read(latest, meta.dimension(), state);
      if (start.segment() != snapshots.lastKey()) {
        throw StoreFiles.corrupt(latest, "snapshot is for segment " + start.segment());
      }
    }
    boolean indexExisted = commitLsn >= 0;
    if (commitLsn < 0) {
      if (start.lsn() > 0) {
        throw StoreFiles.corrupt(indexPath, "index is missing but snapshot " + snapshots.lastEntry().getValue()
            + " needs it up to LSN " + start.lsn());
      }
      commitLsn = 0;
    } else if (commitLsn < start.lsn()) {
      throw StoreFiles.corrupt(indexPath, "index commit at LSN " + commitLsn + " is older than snapshot at LSN "
          + start.lsn());
    }

    TreeMap<Long, Path> allSegments = StoreFiles.segments(dir);
    NavigableMap<Long, Path> segments = allSegments.tailMap(start.segment(), true);
    List<VectorIndex.Redo> redo = new ArrayList<>();
    WalScanner.End end;
    if (segments.isEmpty()) {
      if (!snapshots.isEmpty() || commitLsn > 0) {
        throw StoreFiles.corrupt(StoreFiles.segment(dir, start.segment()), "log segment " + start.segment()
            + " is missing");
      }
      end = null;
    } else {
      if (segments.firstKey() != start.segment()) {
        throw StoreFiles.corrupt(StoreFiles.segment(dir, start.segment()), "log segment " + start.segment()
            + " is missing (first found: " + segments.firstKey() + ")");
      }
      long c = commitLsn;
      end = WalScanner.scan(segments, start.lsn(),
          (lsn, record, file, offset) -> state.replay(record, lsn, c, redo, file, offset));
      if (commitLsn > end.endLsn()) {
        throw StoreFiles.corrupt(indexPath, "index commit at LSN " + commitLsn + " is past the end of the log at LSN "
            + end.endLsn() + " (log segment " + end.lastSegment() + ")");
      }
    }

    if (end != null && end.headerTorn() && !(end.lastSegment() > start.segment() || (!indexExisted && end.lastSegment() == 1))) {
      // A header is forced before the first record goes in, and before the checkpoint (snapshot) or the
      // first index commit that followed its creation: a segment those name cannot have a torn header.
      throw StoreFiles.corrupt(StoreFiles.segment(dir, end.lastSegment()), "log segment " + end.lastSegment()
          + " has no intact header, but it was durable before " + (snapshots.isEmpty() ? "the index commit" : "the last checkpoint")
          + ": its records were lost");
    }

    // Everything checked: repair and tidy up.
    if (end == null) {
      WriteAheadLog.createSegment(dir, 1, 0).close();
      end = new WalScanner.End(1, 0, 0, 0, false);
    } else if (end.headerTorn()) {
      WriteAheadLog.createSegment(dir, end.lastSegment(), end.lastBaseLsn()).close();
    } else {
      Path last = StoreFiles.segment(dir, end.lastSegment());
      try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE)) {
        if (end.tornBytes() > 0) {
          ch.truncate(WriteAheadLog.HEADER_BYTES + end.endLsn() - end.lastBaseLsn());
        }
        ch.force(true); // what a crashed writer left in the page cache is now durable, before indexing it
        // Every record kept is durable now: the watermark says so, so losing any of them is detected.
        WriteAheadLog.markSynced(ch, end.lastSegment(), end.lastBaseLsn(), end.endLsn() - end.lastBaseLsn());
        ch.force(true);
      }
    }
    for (Map.Entry<Long, Path> e : allSegments.headMap(start.segment(), false).entrySet()) {
      Files.deleteIfExists(e.getValue());
    }
    for (Path p : snapshots.headMap(snapshots.isEmpty() ? 0L : snapshots.lastKey(), false).values()) {
      Files.deleteIfExists(p);
    }
    for (Path p : StoreFiles.temporaries(dir)) {
      Files.deleteIfExists(p);
    }
    Path metaFile = dir.resolve(StoreFiles.META);
    if (meta.storeId() == null) {
      // A v1 store: give it an id, then bind its settings file to it (attach). Each step is one atomic
      // write and the flags say what is left, so a crash between them is finished by the next open.
      meta = meta.migrated(settings.present());
      meta.write(metaFile);
    }
    meta = settings.attach(metaFile, meta);
    // Another vector format: record it first, then rewrite the index in it. A crash in between leaves an index of
    // mixed segments, each read in the format that wrote it, until a merge rewrites them: correct, only slower.
    boolean convert = options.vectorFormat() != null && options.vectorFormat() != meta.vectorFormat();
    if (convert) {
      meta = meta.withVectorFormat(options.vectorFormat());
      meta.write(metaFile);
    }
    boolean clean = start.clean() && end.endLsn() == start.lsn();
    VectorIndex index = VectorIndex.open(indexPath, meta.dimension(), meta.vectorFormat(), convert, options, redo,
        end.endLsn(), io);
    WriteAheadLog wal = null;
    try {
      loadContentColumns(state, index);
      StoreFiles.syncDirectory(dir); // deletions above, and the index directory if it is new
      wal = WriteAheadLog.openForAppend(dir, end.lastSegment(), end.lastBaseLsn(), end.endLsn(), io);
      // Ids are published to readers just before their record is durable. After an unclean shutdown
      // skip past any that a reader may have seen; log the floor either way, which also marks the
      // store as opened (only a clean close, ending in a clean snapshot, clears that mark).
      long floor = state.sequence.get() + (clean ? 0 : UNCLEAN_ID_GAP);
      state.raiseSequence(floor);
      wal.awaitDurable(wal.append(new WalRecord.SequenceFloor(floor)::encode));
      return new Opened(meta, lockDir, lock, state, wal, index, settings);
    } catch (IOException | RuntimeException e) {
      if (wal != null) {
        wal.abandon();
      }
      index.abandon();
      throw e;
    }
  }

  /**
   * Reads the outcome and created-at of memories a snapshot older than v4 did not hold from the index (once: the
   * next checkpoint writes them), so that listing filters by them from RAM.
   */
  private static void loadContentColumns(StoreState state, VectorIndex index) throws IOException {
    MemoryTable t = state.memories;
    IntList missing = new IntList(16);
    for (int slot = 0; slot < t.size(); slot++) {
      if (!t.isDeleted(slot) && t.outcome(slot) == MemoryTable.UNKNOWN_YET) {
        missing.add(slot);
      }
    }
    int[] slots = missing.toArray();
    IndexView view = index.acquire();
    try {
      for (int from = 0; from < slots.length; from += 4096) {
        int[] batch = java.util.Arrays.copyOfRange(slots, from, Math.min(slots.length, from + 4096));
        long[] seqs = new long[batch.length];
        for (int i = 0; i < batch.length; i++) {
          seqs[i] = t.seq(batch[i]);
        }
        MemoryContent[] contents = view.contents(batch, seqs);
        for (int i = 0; i < batch.length; i++) {
          Instant created = contents[i].createdAt();
          t.setContent(batch[i], MemoryContent.code(contents[i].outcome()), created.getEpochSecond(), created.getNano());
        }
      }
    } finally {
      view.release();
    }
  }

  /**
   * The store's lock, waiting up to {@code timeout} for another process (or another open store in
   * this one) to release it: polled with a backoff from 10 to 200 ms.
   */
  private static Lock obtainLock(Directory lockDir, Path dir, java.time.Duration timeout) throws IOException {
    long deadline = System.nanoTime() + timeout.toNanos();
    long backoffMillis = 10;
    while (true) {
      try {
        return lockDir.obtainLock(StoreFiles.LOCK);
      } catch (LockObtainFailedException e) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "dir",
              "store " + dir + " is in use by another process"
                  + (timeout.isZero() ? "" : "; waited " + timeout.toMillis() / 1000.0 + " s for it")
                  + "; retry, wait longer (--lock-timeout), or let one process serve the clients");
        }
        try {
          Thread.sleep(Math.min(backoffMillis, java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(left) + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "dir",
              "store " + dir + ": interrupted while waiting for its lock");
        }
        backoffMillis = Math.min(200, backoffMillis * 2);
      }
    }
  }

  /** A new store is made only in an empty directory (or one holding only a lock or temporary file). */
  private static void requireNoForeignFiles(Path dir, Path metaFile) throws IOException {
    List<String> foreign = new ArrayList<>();
    try (Stream<Path> entries = Files.list(dir)) {
      for (Path p : (Iterable<Path>) entries::iterator) {
        String name = p.getFileName().toString();
        if (OURS.contains(name) || name.startsWith("state-")) {
          throw StoreFiles.corrupt(metaFile, "store metadata is missing but " + name + " exists");
        }
        if (!name.equals(StoreFiles.LOCK) && !name.endsWith(".tmp")) {
          foreign.add(name);
        }
      }
    }
    if (!foreign.isEmpty()) {
      foreign.sort(null);
      throw MemLoopException.invalid("dir", dir + " is not empty and not a MemLoop store (contains "
          + foreign.subList(0, Math.min(5, foreign.size())) + ")");
    }
  }

  private static StoreMeta readOrCreateMeta(Path dir, int dimension, LuceneStoreOptions options)
      throws IOException {
    Path metaFile = dir.resolve(StoreFiles.META);
    if (Files.exists(metaFile)) {
      StoreMeta meta = StoreMeta.read(metaFile);
      if (dimension != 0 && meta.dimension() != dimension) {
        throw StoreFiles.corrupt(metaFile, "store has dimension " + meta.dimension() + " but was opened with dimension "
            + dimension + " (an embedding model change needs a new store)");
      }
      return meta;
    }
    requireNoForeignFiles(dir, metaFile);
    StoreMeta meta = StoreMeta.create(dimension, options.clock().instant(),
        options.vectorFormat() != null ? options.vectorFormat() : VectorFormat.DEFAULT);
    meta.write(metaFile);
    Path parent = dir.toAbsolutePath().getParent();
    if (parent != null) {
      StoreFiles.syncDirectory(parent); // the store directory may be new
    }
    return meta;
  }

  private static void closeQuietly(@Nullable AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception ignored) {
        // already failing or done; the first error is the one to report
      }
    }
  }
}
