package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.store.AlreadyClosedException;
import org.jspecify.annotations.Nullable;

/**
 * Whether the store may serve calls, and the housekeeping behind the writes: searcher refreshes,
 * lazy index commits, checkpoints, close.
 *
 * <p>Locks: {@code commitLock} serialises index commits, checkpoints and close. The {@link #gate}
 * is held on its read side by every mutation from its first state change to its log append (not
 * while it waits for durability; a {@link #unit} holds it for its whole length), and on its write side by a checkpoint while it rotates the log,
 * commits the index and writes the snapshot, so the snapshot sees one consistent state.
 *
 * <p>Failure: an I/O error after which RAM may be ahead of disk (log sync, indexing, checkpoint)
 * marks the store failed; every later call then fails with STORE_UNAVAILABLE until it is reopened,
 * and reopening recovers from disk.
 */
final class StoreLifecycle {
  final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();
  private final ReentrantLock commitLock = new ReentrantLock();
  private final AtomicInteger insertsSinceCommit = new AtomicInteger();
  private final Path dir;
  private final int dimension;
  private final LuceneStoreOptions options;
  private final StoreOpener.Opened parts;
  /** Syncs saved retrievals within {@link LuceneStoreOptions#retrievalSyncDelayMillis()}. */
  final DeferredSync deferredSync;
  private volatile boolean closed;
  private volatile @Nullable Throwable failure;

  StoreLifecycle(Path dir, LuceneStoreOptions options, StoreOpener.Opened parts, DeferredSync.Scheduler scheduler) {
    this.dir = dir;
    this.dimension = parts.meta().dimension();
    this.options = options;
    this.parts = parts;
    this.deferredSync = new DeferredSync(options.retrievalSyncDelayMillis() * 1_000_000L, scheduler,
        parts.wal()::appendedLsn, this::awaitDurable);
  }

  /**
   * Throws STORE_UNAVAILABLE if the store is closed or failed, or (once) if a background merge failed
   * since the last call: calls report it, so it is neither printed by the merge thread nor lost.
   */
  void ensureUsable() {
    ensureOpen();
    Throwable merge = parts.index().takeMergeFailure();
    if (merge != null) {
      if (parts.index().writerFailure() != null) { // Lucene closes its writer after a failed merge: reopening recovers
        throw fail("merging the index (in the background) of", merge);
      }
      throw unavailable("merging the index (in the background; the old segments stay in use) of", merge);
    }
  }

  /** Throws STORE_UNAVAILABLE if the store is closed or failed. */
  private void ensureOpen() {
    if (closed) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "store " + dir + " is closed");
    }
    Throwable f = failure;
    if (f != null) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", StoreFiles.isDiskFull(f)
          ? "disk full: store " + dir + " failed earlier; free space and reopen it (every acknowledged write is kept): " + f
          : "store " + dir + " failed earlier and must be reopened: " + f, f);
    }
  }

  /** Marks the store failed (RAM may be ahead of disk) and returns the exception to throw. */
  MemLoopException fail(String doing, Throwable cause) {
    Throwable reason = behindClosedWriter(cause);
    if (reason != cause) {
      parts.index().takeMergeFailure(); // the same failure, reported here
    }
    if (failure == null) {
      failure = reason;
    }
    return reason instanceof MemLoopException me ? me : StoreFiles.unavailable(dir, doing, reason);
  }

  MemLoopException unavailable(String doing, Throwable cause) {
    return StoreFiles.unavailable(dir, doing, behindClosedWriter(cause));
  }

  /**
   * Why Lucene closed its writer, where {@code cause} only says it is closed: Lucene closes the writer
   * after a failure on another thread (a background merge) before the merge thread records it, and a
   * call in between gets an AlreadyClosedException that may carry no cause ("this DocumentsWriter is
   * closed"). Otherwise {@code cause}.
   */
  private Throwable behindClosedWriter(Throwable cause) {
    Throwable tragic = cause instanceof AlreadyClosedException ? parts.index().writerFailure() : null;
    return tragic != null ? tragic : cause;
  }

  /** The unit the current thread runs ({@link #unit}), or null. */
  private final ThreadLocal<OpenUnit> unit = new ThreadLocal<>();

  /** A unit in progress on one thread: what its writes must see durable and the housekeeping they owe. */
  private static final class OpenUnit {
    final WriteAheadLog.Unit logUnit;
    long durableLsn;
    int inserted;

    OpenUnit(WriteAheadLog.Unit logUnit) {
      this.logUnit = logUnit;
    }
  }

  /**
   * Runs {@code work} as one unit of the log ({@link WriteAheadLog#openUnit}): its writes reach the disk
   * together, with one sync at its end, after which it returns (or throws what {@code work} threw). Holds
   * the gate's read side throughout, so no checkpoint snapshots half a unit; the writes inside defer
   * their waits for durability and their housekeeping to the end. A nested unit is part of the outer one.
   */
  <T> T unit(java.util.function.Supplier<T> work) {
    if (unit.get() != null) {
      return work.get();
    }
    OpenUnit open;
    gate.readLock().lock();
    try {
      ensureUsable();
      open = new OpenUnit(parts.wal().openUnit());
    } catch (RuntimeException e) {
      gate.readLock().unlock();
      throw e;
    }
    T result;
    unit.set(open);
    try {
      result = work.get();
    } catch (RuntimeException | Error e) {
      try {
        endUnit(open); // what the work wrote before it threw is visible, so it must be durable too
      } catch (RuntimeException f) {
        e.addSuppressed(f);
      }
      throw e;
    }
    endUnit(open);
    return result;
  }

  private void endUnit(OpenUnit open) {
    try {
      unit.remove();
      parts.wal().closeUnit(open.logUnit);
    } finally {
      gate.readLock().unlock();
    }
    awaitDurable(open.durableLsn);
    afterWrite(open.inserted);
  }

  /** Waits for group commit; a log failure fails the store. Inside a unit, the unit's end waits instead. */
  void awaitDurable(long lsn) {
    OpenUnit open = unit.get();
    if (open != null) {
      open.durableLsn = Math.max(open.durableLsn, lsn);
      return;
    }
    try {
      parts.wal().awaitDurable(lsn);
    } catch (MemLoopException e) {
      throw fail("syncing the log", e);
    }
  }

  /**
   * Housekeeping after a write: searcher refresh (inserts and deletes count toward it) and lazy index
   * commit (after {@code inserted} inserts), a checkpoint once the log segment is big enough. The
   * caller's write is already logged, so a failure here is not reported to it: one that leaves RAM
   * ahead of disk has failed the store (every later call reports it); any other is retried at the
   * next trigger.
   */
  void afterWrite(int inserted) {
    OpenUnit open = unit.get();
    if (open != null) {
      open.inserted += inserted;
      return;
    }
    try {
      refreshIfDue();
      if (inserted > 0) {
        if (insertsSinceCommit.addAndGet(inserted) >= options.commitEveryInserts() && commitLock.tryLock()) {
          try {
            if (insertsSinceCommit.get() >= options.commitEveryInserts()) {
              lazyCommit();
            }
          } finally {
            commitLock.unlock();
          }
        }
      }
      WriteAheadLog wal = parts.wal();
      if (wal.segmentBytes() >= options.checkpointEveryBytes() && commitLock.tryLock()) {
        try {
          if (!closed && wal.segmentBytes() >= options.checkpointEveryBytes()) {
            checkpointLocked(false);
          }
        } finally {
          commitLock.unlock();
        }
      }
    } catch (MemLoopException e) {
      // see above
    }
  }

  private void refreshIfDue() {
    if (!parts.index().refreshDue()) {
      return;
    }
    gate.readLock().lock();
    try {
      if (!closed && failure == null) {
        parts.index().refresh();
      }
    } catch (IOException | RuntimeException e) {
      throw fail("refreshing the index", e);
    } finally {
      gate.readLock().unlock();
    }
  }

  /** Commits the index, stopping only inserts meanwhile; caller holds {@code commitLock}. */
  private void lazyCommit() {
    gate.readLock().lock();
    try {
      if (!closed && failure == null) {
        insertsSinceCommit.set(0);
        // skipped while a unit holds back part of the log: waiting for it here, with inserts blocked, would
        // deadlock with the unit's own insert; the next trigger (or the checkpoint's commit) commits instead
        parts.index().commit(parts.wal()::unheldLsn, this::awaitDurable);
      }
    } catch (IOException | RuntimeException e) {
      throw fail("committing the index", e);
    } finally {
      gate.readLock().unlock();
    }
  }

  /**
   * Merges the index down to {@code maxSegments} segments, commits the merge (under the LSN the log is
   * durable up to, as every commit) and refreshes the searcher. Other calls go on meanwhile.
   */
  void forceMerge(int maxSegments) {
    ensureUsable();
    try {
      parts.index().forceMerge(maxSegments);
    } catch (IOException | RuntimeException e) {
      parts.index().takeMergeFailure(); // the same failure, reported here
      throw unavailable("merging the index of", e); // a failed merge leaves the old segments in use
    }
    commitLock.lock();
    try {
      lazyCommit();
    } finally {
      commitLock.unlock();
    }
    gate.readLock().lock();
    try {
      ensureOpen();
      parts.index().refresh(true);
    } catch (IOException | RuntimeException e) {
      throw fail("refreshing the index", e);
    } finally {
      gate.readLock().unlock();
    }
  }

  void checkpoint() {
    commitLock.lock();
    try {
      checkpointLocked(false);
    } finally {
      commitLock.unlock();
    }
  }

  /**
   * With {@code commitLock} held. Writers are held out while the log rotates, the index commits
   * (little is left after the lazy commit just before) and the state goes to the page cache; forcing
   * and publishing the snapshot and deleting what it replaces happen after. A crash anywhere leaves
   * the old snapshot with every segment it needs, or the new one (leftovers go on the next open).
   */
  private void checkpointLocked(boolean closing) {
    long segment;
    Path tmp;
    lazyCommit();
    gate.writeLock().lock();
    try {
      ensureOpen();
      try {
        WriteAheadLog wal = parts.wal();
        segment = wal.rotate();
        long lsn = wal.appendedLsn();
        parts.index().commit(() -> lsn, durable -> { }); // rotate made the log durable up to lsn
        insertsSinceCommit.set(0);
        tmp = dir.resolve(StoreFiles.snapshot(dir, segment).getFileName() + ".tmp");
        Snapshot.write(tmp, parts.state(), dimension, segment, lsn, closing);
      } catch (IOException | RuntimeException e) {
        throw fail("checkpointing", e);
      }
      if (closing) {
        closed = true;
      }
    } finally {
      gate.writeLock().unlock();
    }
    try {
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      StoreFiles.publish(tmp, StoreFiles.snapshot(dir, segment));
      for (Map.Entry<Long, Path> e : StoreFiles.snapshots(dir).headMap(segment, false).entrySet()) {
        Files.deleteIfExists(e.getValue());
      }
      for (Map.Entry<Long, Path> e : StoreFiles.segments(dir).headMap(segment, false).entrySet()) {
        Files.deleteIfExists(e.getValue());
      }
      StoreFiles.syncDirectory(dir.resolve(StoreFiles.WAL_DIR));
      StoreFiles.syncDirectory(dir);
    } catch (IOException e) {
      // not a failure of the store: the old snapshot and every segment it needs are intact
      throw unavailable("publishing snapshot", e);
    }
  }

  /** Checkpoints (if healthy), then releases files and the directory lock; idempotent. */
  void close() {
    commitLock.lock();
    try {
      if (closed) {
        return;
      }
      RuntimeException error = null;
      if (failure == null) {
        try {
          checkpointLocked(true);
        } catch (RuntimeException e) {
          error = e;
        }
      }
      markClosed();
      deferredSync.shutdown();
      try {
        if (failure == null && error == null) {
          parts.wal().close();
          parts.index().close();
        } else {
          parts.wal().abandon();
          parts.index().abandon();
        }
      } catch (IOException e) {
        error = error != null ? error : unavailable("closing", e);
      } finally {
        releaseLock();
      }
      if (error != null) {
        throw error;
      }
    } finally {
      commitLock.unlock();
    }
  }

  /** Stops as {@code kill -9} would: nothing that was not acknowledged is written. */
  void crash() {
    commitLock.lock();
    try {
      markClosed();
      deferredSync.shutdown();
      parts.wal().abandon();
      parts.index().abandon();
    } catch (IOException e) {
      throw unavailable("abandoning", e);
    } finally {
      releaseLock();
      commitLock.unlock();
    }
  }

  /** Waits out in-flight writes (gate), then refuses new calls. */
  private void markClosed() {
    gate.writeLock().lock();
    closed = true;
    gate.writeLock().unlock();
  }

  private void releaseLock() {
    try {
      parts.lock().close();
      parts.lockDirectory().close();
    } catch (IOException e) {
      throw unavailable("releasing the lock on", e);
    }
  }
}
