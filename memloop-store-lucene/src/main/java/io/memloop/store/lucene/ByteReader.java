package io.memloop.store.lucene;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;

/**
 * Reads what {@link ByteWriter} wrote. Every read is bounds-checked: a malformed input raises
 * {@link Malformed} (with the offset) instead of an index exception, so callers can report the file
 * and position that is corrupt.
 *
 * <p>Not thread-safe.
 */
final class ByteReader {
  /** The bytes do not hold what the format says they should. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message, null, false, false);
    }
  }

  private final byte[] buf;
  private final int limit;
  private int pos;

  ByteReader(byte[] buf, int offset, int length) {
    this.buf = buf;
    this.pos = offset;
    this.limit = offset + length;
  }

  int position() {
    return pos;
  }

  int remaining() {
    return limit - pos;
  }

  private void need(int n, String what) throws Malformed {
    if (n < 0 || limit - pos < n) {
      throw new Malformed(
          "truncated " + what + " at byte " + pos + " (need " + n + ", have " + (limit - pos) + ")");
    }
  }

  int getByte() throws Malformed {
    need(1, "byte");
    return buf[pos++] & 0xff;
  }

  int getInt() throws Malformed {
    need(4, "int");
    int v = ByteWriter.intAt(buf, pos);
    pos += 4;
    return v;
  }

  long getLong() throws Malformed {
    need(8, "long");
    long v = ByteWriter.longAt(buf, pos);
    pos += 8;
    return v;
  }

  double getDouble() throws Malformed {
    return Double.longBitsToDouble(getLong());
  }

  Instant getInstant() throws Malformed {
    long seconds = getLong();
    int nanos = getInt();
    try {
      return Instant.ofEpochSecond(seconds, nanos);
    } catch (DateTimeException e) {
      throw new Malformed("bad instant " + seconds + "s " + nanos + "ns before byte " + pos);
    }
  }

  /** A count that must be in [0, max]. */
  int getCount(int max, String what) throws Malformed {
    int n = getInt();
    if (n < 0 || n > max) {
      throw new Malformed("bad " + what + " count " + n + " before byte " + pos + " (max " + max + ")");
    }
    return n;
  }

  String getString() throws Malformed {
    int n = getInt();
    need(n, "string");
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  /** Bytes of a known length (the prefix already read), copied. */
  byte[] getBytesOfLength(int n) throws Malformed {
    need(n, "byte array");
    byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return out;
  }

  /** UTF-8 of a known length (the prefix already read). */
  String getStringOfLength(int n) throws Malformed {
    need(n, "string");
    String s = new String(buf, pos, n, StandardCharsets.UTF_8);
    pos += n;
    return s;
  }

  /** Length-prefixed bytes, copied. */
  byte[] getBytes() throws Malformed {
    int n = getInt();
    need(n, "byte array");
    byte[] out = java.util.Arrays.copyOfRange(buf, pos, pos + n);
    pos += n;
    return out;
  }

  float[] getFloats() throws Malformed {
    int n = getInt();
    if (n < 0 || n > remaining() / 4) {
      throw new Malformed("bad vector length " + n + " before byte " + pos);
    }
    float[] v = new float[n];
    for (int i = 0; i < n; i++) {
      v[i] = Float.intBitsToFloat(ByteWriter.intAt(buf, pos));
      pos += 4;
    }
    return v;
  }

  void expectEnd(String what) throws Malformed {
    if (pos != limit) {
      throw new Malformed(what + " has " + (limit - pos) + " unexpected trailing bytes at byte " + pos);
    }
  }
}
