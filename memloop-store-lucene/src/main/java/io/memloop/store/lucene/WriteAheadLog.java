package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * The append side of the write-ahead log, with group commit.
 *
 * <p>A segment file starts with a 32-byte header ({@code int MAGIC "MLWL", int version, long segment,
 * long baseLsn, int syncedBytes, int CRC32C of the preceding 28 bytes}) followed by records framed as
 * {@code int payloadLength, int CRC32C(length bytes + payload), payload}. An LSN is a position in the
 * concatenation of all records ever written (headers excluded), so it keeps growing across segments.
 *
 * <p><b>Group commit:</b> {@link #append} only copies a record into an in-memory buffer and returns
 * the record's end LSN. {@link #awaitDurable} makes the caller either wait for a running sync that
 * will cover its LSN, or become the leader that writes the whole buffer and forces it to disk; every
 * writer that appended in the meantime shares that one {@code fsync}. Waiters park on their own
 * condition: a finished sync wakes exactly the waiters it covered, plus one uncovered waiter to lead
 * the next sync, rather than the whole herd.
 *
 * <p><b>Synced watermark</b> (format v2): after each group commit's {@code fsync} the header is
 * rewritten in place with {@code syncedBytes}, the length of the records that fsync made durable. It
 * reaches the disk with the next fsync (at the latest with rotation or close, which force it), so it
 * never claims more than is durable and lags by at most one group commit. On open, a segment shorter
 * than its watermark, or a bad record below it, is damage to acknowledged data (the store refuses to
 * open), not a torn write; only bytes past the watermark may be a torn tail. v1 segments (watermark
 * field 0) are still read.
 *
 * <p><b>Units</b> ({@link #openUnit}): records appended from a unit's opening on are neither written nor synced
 * until the unit closes, so a crash leaves all of a unit's records on disk or none of them. Syncs meanwhile
 * write and force only what was appended before the oldest open unit; a waiter for a later record parks until
 * the unit closes (so a unit must be short, and its thread must never wait for another writer's durability).
 *
 * <p>Thread safety: all methods may be called concurrently. {@code lock} guards the buffers, the
 * counters and the channel switch; the leader writes and forces outside the lock while {@code
 * syncing} keeps a second leader out. Invariant: {@code durableLsn <= appendedLsn}, and every byte
 * below {@code durableLsn} is on disk.
 */
final class WriteAheadLog implements Closeable {
  static final int MAGIC = 0x4D4C574C;
  static final int VERSION = 2;
  /** The first format, without the synced watermark; still read. */
  static final int VERSION_1 = 1;
  static final int HEADER_BYTES = 32;
  static final int FRAME_BYTES = 8;
  static final int MAX_RECORD_BYTES = 64 << 20;
  private static final int KEEP_BUFFER_BYTES = 4 << 20;

  /** Writes one record payload; runs under the log lock, so it may assign ids in log order. */
  @FunctionalInterface
  interface Body {
    void writeTo(ByteWriter out);
  }

  /** A thread parked until a sync covers {@code lsn}, or until it is asked to lead the next sync. */
  private static final class Waiter {
    final long lsn;
    final Thread thread = Thread.currentThread();
    volatile boolean signalled;

    Waiter(long lsn) {
      this.lsn = lsn;
    }

    void signal() {
      signalled = true;
      LockSupport.unpark(thread);
    }

    /** Parks (outside the log lock) until signalled; keeps the interrupt status for the caller. */
    void await() {
      boolean interrupted = false;
      while (!signalled) {
        LockSupport.park(this);
        interrupted |= Thread.interrupted();
      }
      signalled = false;
      if (interrupted) {
        thread.interrupt();
      }
    }
  }

  private final Path dir;
  private final ReentrantLock lock = new ReentrantLock();
  /** Threads waiting for durability, in arrival order; guarded by {@code lock}. */
  private final ArrayList<Waiter> waiters = new ArrayList<>();
  /** Open units, each the LSN it was opened at; guarded by {@code lock}. */
  private final ArrayList<Unit> units = new ArrayList<>(2);
  private final CRC32C crc = new CRC32C();
  private ByteWriter active = new ByteWriter(64 << 10);
  private @Nullable ByteWriter spare = new ByteWriter(64 << 10);
  /** Written under {@code lock}; volatile so progress checks need not take it. */
  private volatile long appendedLsn;
  private volatile long durableLsn;
  private boolean syncing;
  private boolean closed;
  private @Nullable IOException failure;
  private FileChannel channel;
  private long segment;
  private volatile long segmentBaseLsn;

  /** Wraps each segment's channel ({@link StoreIo#logChannel()}). */
  private final java.util.function.UnaryOperator<FileChannel> io;

  private WriteAheadLog(Path dir, FileChannel channel, long segment, long segmentBaseLsn, long endLsn,
      java.util.function.UnaryOperator<FileChannel> io) {
    this.dir = dir;
    this.io = io;
    this.channel = channel;
    this.segment = segment;
    this.segmentBaseLsn = segmentBaseLsn;
    this.appendedLsn = endLsn;
    this.durableLsn = endLsn;
  }

  /** Continues segment {@code segment} whose valid records end at {@code endLsn}. */
  static WriteAheadLog openForAppend(Path dir, long segment, long baseLsn, long endLsn, StoreIo storeIo)
      throws IOException {
    Path file = StoreFiles.segment(dir, segment);
    FileChannel ch = storeIo.logChannel().apply(FileChannel.open(file, StandardOpenOption.WRITE));
    try {
      long expectedSize = HEADER_BYTES + (endLsn - baseLsn);
      if (ch.size() != expectedSize) {
        throw new IOException("log segment " + file + " has " + ch.size() + " bytes, expected " + expectedSize);
      }
      ch.position(expectedSize);
      return new WriteAheadLog(dir, ch, segment, baseLsn, endLsn, storeIo.logChannel());
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** Creates an empty, durable segment file and returns its channel positioned after the header. */
  static FileChannel createSegment(Path dir, long segment, long baseLsn) throws IOException {
    Path file = StoreFiles.segment(dir, segment);
    Files.createDirectories(file.getParent());
    FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING);
    try {
      byte[] h = header(segment, baseLsn, 0);
      writeFully(ch, h, HEADER_BYTES);
      ch.force(true);
      StoreFiles.syncDirectory(file.getParent());
      StoreFiles.syncDirectory(file.getParent().getParent()); // the wal directory itself may be new
      return ch;
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
  }

  /** A segment header: magic, version, segment number, base LSN, synced watermark, checksum. */
  static byte[] header(long segment, long baseLsn, long syncedBytes) {
    if (syncedBytes < 0 || syncedBytes > 0xFFFF_FFFFL) {
      throw new IllegalArgumentException("syncedBytes=" + syncedBytes);
    }
    byte[] h = new byte[HEADER_BYTES];
    ByteWriter.putIntAt(h, 0, MAGIC);
    ByteWriter.putIntAt(h, 4, VERSION);
    ByteWriter.putLongAt(h, 8, segment);
    ByteWriter.putLongAt(h, 16, baseLsn);
    ByteWriter.putIntAt(h, 24, (int) syncedBytes);
    CRC32C c = new CRC32C();
    c.update(h, 0, 28);
    ByteWriter.putIntAt(h, 28, (int) c.getValue());
    return h;
  }

  /** Rewrites the header of the segment open on {@code ch} with a new watermark (not forced). */
  static void markSynced(FileChannel ch, long segment, long baseLsn, long syncedBytes) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(header(segment, baseLsn, syncedBytes));
    while (buf.hasRemaining()) {
      ch.write(buf, buf.position());
    }
  }

  /**
   * Buffers one record and returns its end LSN; the record is durable only after {@link
   * #awaitDurable} with that LSN returns.
   */
  long append(Body body) {
    lock.lock();
    try {
      checkUsable();
      int start = active.length();
      active.putInt(0).putInt(0);
      try {
        body.writeTo(active);
      } catch (RuntimeException | Error e) {
        active.truncate(start);
        throw e;
      }
      int payload = active.length() - start - FRAME_BYTES;
      if (payload > MAX_RECORD_BYTES) {
        active.truncate(start);
        throw MemLoopException.invalid("record", "is " + payload + " bytes encoded, the limit is " + MAX_RECORD_BYTES);
      }
      byte[] a = active.array();
      ByteWriter.putIntAt(a, start, payload);
      crc.reset();
      crc.update(a, start, 4);
      crc.update(a, start + FRAME_BYTES, payload);
      ByteWriter.putIntAt(a, start + 4, (int) crc.getValue());
      appendedLsn += FRAME_BYTES + payload;
      return appendedLsn;
    } finally {
      lock.unlock();
    }
  }

  /** An open unit: the log's end when it opened. */
  static final class Unit {
    final long startLsn;

    private Unit(long startLsn) {
      this.startLsn = startLsn;
    }
  }

  /**
   * Opens a unit: records appended from now until {@link #closeUnit} reach the disk together, after it
   * (see the class comment). Units may overlap; each holds back what was appended after its opening.
   */
  Unit openUnit() {
    lock.lock();
    try {
      checkUsable();
      Unit u = new Unit(appendedLsn);
      units.add(u);
      return u;
    } finally {
      lock.unlock();
    }
  }

  /** Closes a unit: its records may be synced; wakes a waiter to lead the sync they were held for. */
  void closeUnit(Unit unit) {
    lock.lock();
    try {
      units.remove(unit);
      if (!syncing && !waiters.isEmpty()) {
        waiters.getFirst().signal();
      }
    } finally {
      lock.unlock();
    }
  }

  /** With the lock held: the end of what a sync may write, the log's end or the oldest open unit's start. */
  private long syncLimit() {
    long limit = appendedLsn;
    for (Unit u : units) {
      limit = Math.min(limit, u.startLsn);
    }
    return limit;
  }

  /**
   * The log's end if no open unit holds back any of it (a sync to it would not wait for a unit), else -1.
   * For index commits, which must not wait for a unit while holding the lock inserts need.
   */
  long unheldLsn() {
    lock.lock();
    try {
      return syncLimit() == appendedLsn ? appendedLsn : -1;
    } finally {
      lock.unlock();
    }
  }

  /** Whether the record ending at {@code lsn} is held back by an open unit (not before the oldest unit's start). */
  boolean heldBack(long lsn) {
    lock.lock();
    try {
      return lsn > syncLimit();
    } finally {
      lock.unlock();
    }
  }

  /** Returns once every record ending at or before {@code lsn} is on disk. */
  void awaitDurable(long lsn) {
    Waiter me = null;
    while (durableLsn < lsn) {
      lock.lock();
      try {
        if (durableLsn >= lsn) {
          return;
        }
        if (failure != null) {
          throw failed();
        }
        long limit = syncLimit();
        if (!syncing && limit > durableLsn) {
          if (me != null) {
            waiters.remove(me);
            me = null;
          }
          leadSync(limit);
          continue;
        }
        checkUsable(); // closed with a unit open: nothing more will be synced
        if (me == null) {
          me = new Waiter(lsn);
          waiters.add(me);
        }
      } finally {
        lock.unlock();
      }
      me.await(); // a covering sync removed us from the list; a request to lead did not
    }
  }

  /** Told the duration (nanoseconds) of every group commit's write and fsync; a no-op unless set. */
  private volatile java.util.function.LongConsumer syncListener = nanos -> {};

  void onSync(java.util.function.LongConsumer listener) {
    this.syncListener = java.util.Objects.requireNonNull(listener, "listener");
  }

  /**
   * Called with the lock held; releases it while writing and forcing the records up to {@code target}
   * (a record boundary: the log's end or an open unit's start); later ones stay buffered.
   */
  private void leadSync(long target) {
    syncing = true;
    ByteWriter batch = active;
    active = spare;
    spare = null;
    int keep = (int) (appendedLsn - target); // the tail held back by an open unit
    if (keep > 0) {
      active.putBytes(batch.array(), batch.length() - keep, keep);
      batch.truncate(batch.length() - keep);
    }
    FileChannel ch = channel;
    long seg = segment;
    long base = segmentBaseLsn;
    lock.unlock();
    IOException error = null;
    long started = System.nanoTime();
    try {
      writeFully(ch, batch.array(), batch.length());
      ch.force(false);
      markSynced(ch, seg, base, target - base); // durable with the next force
      try {
        syncListener.accept(System.nanoTime() - started);
      } catch (RuntimeException listenerFailure) {
        // a metrics listener must not fail a commit
      }
    } catch (IOException e) {
      error = e;
    } finally {
      lock.lock();
      batch.reset();
      spare = batch.array().length > KEEP_BUFFER_BYTES ? new ByteWriter(64 << 10) : batch;
      syncing = false;
      if (error != null) {
        failure = error;
      } else {
        durableLsn = target;
      }
      wakeWaiters();
    }
  }

  /** With the lock held, after a sync: wakes the covered waiters and one more to lead the next sync. */
  private void wakeWaiters() {
    Waiter next = null;
    for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
      Waiter w = it.next();
      if (w.lsn <= durableLsn || failure != null || closed) {
        it.remove();
        w.signal();
      } else if (next == null) {
        next = w;
      }
    }
    if (next != null) {
      next.signal();
    }
  }

  /**
   * Makes the current segment durable and starts the next one; returns the new segment's number.
   * Its base LSN is {@link #appendedLsn()} at return.
   */
  long rotate() throws IOException {
    lock.lock();
    try {
      flushAllLocked();
      long base = appendedLsn;
      FileChannel next = io.apply(createSegment(dir, segment + 1, base));
      channel.close();
      channel = next;
      segment++;
      segmentBaseLsn = base;
      return segment;
    } catch (IOException e) {
      failure = e;
      throw e;
    } finally {
      syncing = false;
      wakeWaiters();
      lock.unlock();
    }
  }

  /** With the lock held: waits out a running sync, then writes and forces the rest as leader. */
  private void flushAllLocked() throws IOException {
    while (syncing) { // a leader is writing outside the lock; be first in line when it is done
      Waiter w = new Waiter(Long.MAX_VALUE);
      waiters.add(0, w);
      lock.unlock();
      try {
        w.await();
      } finally {
        lock.lock();
        waiters.remove(w);
      }
    }
    checkUsable();
    assert units.isEmpty() : "rotating or closing the log with " + units.size() + " unit(s) open";
    syncing = true;
    writeFully(channel, active.array(), active.length());
    channel.force(false);
    markSynced(channel, segment, segmentBaseLsn, appendedLsn - segmentBaseLsn);
    channel.force(false); // rotation and close leave an exact watermark
    active.reset();
    durableLsn = appendedLsn;
  }

  long appendedLsn() {
    return appendedLsn;
  }

  /** Every record ending at or before this LSN is on disk. */
  long durableLsn() {
    return durableLsn;
  }

  /** Bytes of records in the current segment, buffered or written. */
  long segmentBytes() {
    return appendedLsn - segmentBaseLsn;
  }

  long segment() {
    lock.lock();
    try {
      return segment;
    } finally {
      lock.unlock();
    }
  }

  /** Makes everything appended durable and closes the file; later appends fail. */
  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      try {
        if (failure == null) {
          flushAllLocked();
        }
      } finally {
        closed = true;
        syncing = false;
        wakeWaiters();
        channel.close();
      }
    } finally {
      lock.unlock();
    }
  }

  /** Closes the file without writing what is buffered: what a crash would leave behind. */
  void abandon() throws IOException {
    lock.lock();
    try {
      closed = true;
      failure = new IOException("log abandoned");
      wakeWaiters();
      channel.close();
    } finally {
      lock.unlock();
    }
  }

  private void checkUsable() {
    if (failure != null) {
      throw failed();
    }
    if (closed) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "store is closed");
    }
  }

  private MemLoopException failed() {
    return StoreFiles.unavailable(StoreFiles.segment(dir, segment), "writing log segment (store must be reopened)",
        failure);
  }

  private static void writeFully(FileChannel ch, byte[] b, int n) throws IOException {
    ByteBuffer buf = ByteBuffer.wrap(b, 0, n);
    while (buf.hasRemaining()) {
      ch.write(buf);
    }
  }
}
