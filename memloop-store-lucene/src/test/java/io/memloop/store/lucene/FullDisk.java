package io.memloop.store.lucene;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;

/**
 * A simulated disk that fills up: writes through its wrappers ({@link #io()}) succeed while space is
 * left, then fail with the operating system's {@code IOException("No space left on device")}, as on a
 * real full disk (a write that does not fit is cut short: what fits is written). {@link #free} makes
 * room again. The Lucene side is a {@link FilterDirectory} over the real one, the log side a
 * delegating {@link FileChannel}; {@code affects} chooses which Lucene outputs the disk limits (all, or
 * only merges).
 */
final class FullDisk {
  static final String ENOSPC = "No space left on device";

  private final AtomicLong left = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong refusals = new AtomicLong();
  private final Predicate<IOContext> affects;
  private final boolean affectsLog;

  /**
   * @param affects which Lucene outputs the disk limits, by their context
   * @param affectsLog whether it limits the log too
   */
  FullDisk(Predicate<IOContext> affects, boolean affectsLog) {
    this.affects = affects;
    this.affectsLog = affectsLog;
  }

  /** Bytes that may still be written before writes fail. */
  void leave(long bytes) {
    left.set(bytes);
  }

  void free() {
    left.set(Long.MAX_VALUE);
  }

  /** Writes refused so far. */
  long refusals() {
    return refusals.get();
  }

  StoreIo io() {
    return new StoreIo(dir -> new Dir(dir), ch -> affectsLog ? new Channel(ch) : ch);
  }

  /** Takes up to {@code n} bytes of space; returns how many were granted (0: full, after counting a refusal). */
  private long take(long n) {
    while (true) {
      long l = left.get();
      long granted = Math.min(l, n);
      if (left.compareAndSet(l, l == Long.MAX_VALUE ? l : l - granted)) {
        if (granted < n) {
          refusals.incrementAndGet();
        }
        return granted;
      }
    }
  }

  private IOException full() {
    return new IOException(ENOSPC);
  }

  private final class Dir extends FilterDirectory {
    Dir(Directory in) {
      super(in);
    }

    @Override
    public IndexOutput createOutput(String name, IOContext context) throws IOException {
      IndexOutput out = in.createOutput(name, context);
      return affects.test(context) ? new Output(out) : out;
    }

    @Override
    public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
      IndexOutput out = in.createTempOutput(prefix, suffix, context);
      return affects.test(context) ? new Output(out) : out;
    }

    @Override
    public void sync(java.util.Collection<String> names) throws IOException {
      in.sync(names);
    }
  }

  private final class Output extends IndexOutput {
    private final IndexOutput out;

    Output(IndexOutput out) {
      super("full-disk(" + out + ")", out.getName());
      this.out = out;
    }

    @Override
    public void writeByte(byte b) throws IOException {
      if (take(1) < 1) {
        throw full();
      }
      out.writeByte(b);
    }

    @Override
    public void writeBytes(byte[] b, int offset, int length) throws IOException {
      int granted = (int) take(length);
      out.writeBytes(b, offset, granted);
      if (granted < length) {
        throw full();
      }
    }

    @Override
    public long getFilePointer() {
      return out.getFilePointer();
    }

    @Override
    public long getChecksum() throws IOException {
      return out.getChecksum();
    }

    @Override
    public void close() throws IOException {
      out.close();
    }
  }

  private final class Channel extends FileChannel {
    private final FileChannel ch;

    Channel(FileChannel ch) {
      this.ch = ch;
    }

    private ByteBuffer fitting(ByteBuffer src) throws IOException {
      int granted = (int) take(src.remaining());
      if (granted == 0 && src.hasRemaining()) {
        throw full();
      }
      ByteBuffer part = src.duplicate();
      part.limit(part.position() + granted);
      return part;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      ByteBuffer part = fitting(src);
      int n = ch.write(part);
      src.position(src.position() + n);
      return n;
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
      ByteBuffer part = fitting(src);
      int n = ch.write(part, position);
      src.position(src.position() + n);
      return n;
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      long n = 0;
      for (int i = offset; i < offset + length; i++) {
        n += write(srcs[i]);
      }
      return n;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      return ch.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      return ch.read(dsts, offset, length);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
      return ch.read(dst, position);
    }

    @Override
    public long position() throws IOException {
      return ch.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
      ch.position(newPosition);
      return this;
    }

    @Override
    public long size() throws IOException {
      return ch.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
      ch.truncate(size);
      return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
      ch.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
      return ch.transferTo(position, count, target);
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
      throw new UnsupportedOperationException("not used by the log");
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
      throw new UnsupportedOperationException("not used by the log");
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
      return ch.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
      return ch.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
      ch.close();
    }
  }
}
