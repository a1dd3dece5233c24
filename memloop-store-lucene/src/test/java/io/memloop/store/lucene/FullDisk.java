package io.memloop.store.lucene;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
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

  private final class Channel extends ForwardingFileChannel {
    Channel(FileChannel ch) {
      super(ch);
    }

    @Override
    protected ByteBuffer fitting(ByteBuffer src) throws IOException {
      int granted = (int) take(src.remaining());
      if (granted == 0 && src.hasRemaining()) {
        throw full();
      }
      ByteBuffer part = src.duplicate();
      part.limit(part.position() + granted);
      return part;
    }
  }
}
