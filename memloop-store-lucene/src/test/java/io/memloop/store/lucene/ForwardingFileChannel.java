package io.memloop.store.lucene;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;

/**
 * A {@link FileChannel} that forwards to another, for tests that wrap the log's channels ({@link
 * StoreIo#logChannel()}): {@link #fitting} chooses how much of each write goes through (all of it here),
 * and {@link #force} can be overridden.
 */
class ForwardingFileChannel extends FileChannel {
  protected final FileChannel ch;

  ForwardingFileChannel(FileChannel ch) {
    this.ch = ch;
  }

  /** The part of {@code src} to write (a view of it), or throws to refuse the write. */
  protected ByteBuffer fitting(ByteBuffer src) throws IOException {
    return src.duplicate();
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
