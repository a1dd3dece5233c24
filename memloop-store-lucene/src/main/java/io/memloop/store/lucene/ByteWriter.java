package io.memloop.store.lucene;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer for the log, snapshot and stored-field encodings. Doubles are
 * written as raw IEEE bits so values round-trip bit-exactly.
 *
 * <p>Not thread-safe; each owner confines it to one thread or guards it with its own lock.
 */
final class ByteWriter {
  private static final VarHandle INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private byte[] buf;
  private int len;

  ByteWriter(int initialCapacity) {
    buf = new byte[Math.max(16, initialCapacity)];
  }

  int length() {
    return len;
  }

  byte[] array() {
    return buf;
  }

  void reset() {
    len = 0;
  }

  /** Forgets everything written after {@code length}. */
  void truncate(int length) {
    assert length >= 0 && length <= len : "length=" + length + " len=" + len;
    len = length;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(buf, len);
  }

  private void ensure(int extra) {
    int need = len + extra;
    if (need < 0) {
      throw new IllegalStateException("buffer over 2 GiB");
    }
    if (need > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(need, (int) Math.min(Integer.MAX_VALUE - 8, buf.length * 2L)));
    }
  }

  ByteWriter putByte(int v) {
    ensure(1);
    buf[len++] = (byte) v;
    return this;
  }

  ByteWriter putInt(int v) {
    ensure(4);
    INT.set(buf, len, v);
    len += 4;
    return this;
  }

  /** Overwrites the int at {@code pos}, which must already have been written. */
  void putIntAt(int pos, int v) {
    assert pos >= 0 && pos + 4 <= len : "pos=" + pos + " len=" + len;
    INT.set(buf, pos, v);
  }

  ByteWriter putLong(long v) {
    ensure(8);
    LONG.set(buf, len, v);
    len += 8;
    return this;
  }

  ByteWriter putDouble(double v) {
    return putLong(Double.doubleToRawLongBits(v));
  }

  ByteWriter putInstant(Instant t) {
    return putLong(t.getEpochSecond()).putInt(t.getNano());
  }

  ByteWriter putBytes(byte[] b, int off, int n) {
    ensure(n);
    System.arraycopy(b, off, buf, len, n);
    len += n;
    return this;
  }

  /** Length-prefixed UTF-8. */
  ByteWriter putString(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    putInt(utf8.length);
    return putBytes(utf8, 0, utf8.length);
  }

  /** Length-prefixed float components. */
  ByteWriter putFloats(float[] v) {
    putInt(v.length);
    ensure(4 * v.length);
    for (float f : v) {
      INT.set(buf, len, Float.floatToRawIntBits(f));
      len += 4;
    }
    return this;
  }

  static int intAt(byte[] b, int pos) {
    return (int) INT.get(b, pos);
  }

  static long longAt(byte[] b, int pos) {
    return (long) LONG.get(b, pos);
  }

  static void putIntAt(byte[] b, int pos, int v) {
    INT.set(b, pos, v);
  }

  static void putLongAt(byte[] b, int pos, long v) {
    LONG.set(b, pos, v);
  }
}
