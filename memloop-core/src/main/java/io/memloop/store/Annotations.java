package io.memloop.store;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Learning state that a policy keeps beside a memory or a retrieval: an immutable map from name to a versioned
 * blob, sorted by name. Core owns the meaning of each annotation and this one binary format ({@link #toBytes()}):
 * a store persists the bytes without looking inside, so a new learning feature adds an annotation, not a record
 * type to every store's log (compare Lucene's {@code FieldInfo.putAttribute}).
 *
 * <p>Names are 1 to {@value #MAX_NAME_LENGTH} characters of {@code [a-z0-9.-]}; a version is a non-negative
 * int that the annotation's owner bumps when it changes its data layout; data is at most {@value #MAX_DATA_BYTES}
 * bytes; at most {@value #MAX_ENTRIES} annotations. {@link #EMPTY} encodes to zero bytes, so a store that
 * writes nothing for empty annotations costs nothing where no policy annotates.
 *
 * <p>Binary format (format version {@value #FORMAT}): {@code byte FORMAT, varint n, n × (varint nameLength,
 * ASCII name, varint version, varint dataLength, data)}, entries in name order; varints are unsigned LEB128.
 *
 * <p>Immutable and thread-safe; data arrays are copied in and out.
 */
public final class Annotations {
  /** The binary format's version byte. */
  public static final int FORMAT = 1;
  /** Longest name, in characters. */
  public static final int MAX_NAME_LENGTH = 64;
  /** Largest data of one annotation, in bytes. */
  public static final int MAX_DATA_BYTES = 64 * 1024;
  /** Most annotations on one memory or retrieval. */
  public static final int MAX_ENTRIES = 64;

  /** No annotations; encodes to zero bytes. */
  public static final Annotations EMPTY = new Annotations(new String[0], new int[0], new byte[0][]);

  /** One annotation: its layout version and its data. */
  public record Entry(int version, byte[] data) {
    public Entry {
      data = data.clone();
    }

    /** A copy of the data. */
    @Override
    public byte[] data() {
      return data.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Entry e && e.version == version && Arrays.equals(e.data, data);
    }

    @Override
    public int hashCode() {
      return 31 * version + Arrays.hashCode(data);
    }

    @Override
    public String toString() {
      return "v" + version + ":" + data.length + "B";
    }
  }

  private final String[] names; // sorted, distinct
  private final int[] versions;
  private final byte[][] data; // owned: never handed out

  private Annotations(String[] names, int[] versions, byte[][] data) {
    this.names = names;
    this.versions = versions;
    this.data = data;
  }

  /** One annotation. */
  public static Annotations of(String name, int version, byte[] data) {
    return EMPTY.with(name, version, data);
  }

  /** Whether there are none. */
  public boolean isEmpty() {
    return names.length == 0;
  }

  /** How many annotations there are. */
  public int size() {
    return names.length;
  }

  /** The names, in order. */
  public List<String> names() {
    return Collections.unmodifiableList(Arrays.asList(names));
  }

  /** Annotation {@code name}, if present. */
  public Optional<Entry> get(String name) {
    int i = Arrays.binarySearch(names, name);
    return i < 0 ? Optional.empty() : Optional.of(new Entry(versions[i], data[i]));
  }

  /** Whether annotation {@code name} is present. */
  public boolean has(String name) {
    return Arrays.binarySearch(names, name) >= 0;
  }

  /**
   * These annotations with {@code name} set to {@code (version, data)}, replacing what it held.
   *
   * @throws IllegalArgumentException naming the annotation and the problem, for a bad name, a negative version,
   *     data over {@value #MAX_DATA_BYTES} bytes, or a {@value #MAX_ENTRIES}th-plus-one annotation
   */
  public Annotations with(String name, int version, byte[] data) {
    checkName(name);
    Objects.requireNonNull(data, "data");
    if (version < 0) {
      throw new IllegalArgumentException("annotation '" + name + "': version must be >= 0, got " + version);
    }
    if (data.length > MAX_DATA_BYTES) {
      throw new IllegalArgumentException(
          "annotation '" + name + "': data is " + data.length + " bytes, at most " + MAX_DATA_BYTES + " allowed");
    }
    int i = Arrays.binarySearch(names, name);
    if (i >= 0) {
      int[] v = versions.clone();
      byte[][] d = this.data.clone();
      v[i] = version;
      d[i] = data.clone();
      return new Annotations(names, v, d);
    }
    if (names.length >= MAX_ENTRIES) {
      throw new IllegalArgumentException(
          "annotation '" + name + "': already " + names.length + " annotations, at most " + MAX_ENTRIES + " allowed");
    }
    int at = -i - 1;
    int n = names.length;
    String[] nn = new String[n + 1];
    int[] nv = new int[n + 1];
    byte[][] nd = new byte[n + 1][];
    System.arraycopy(names, 0, nn, 0, at);
    System.arraycopy(versions, 0, nv, 0, at);
    System.arraycopy(this.data, 0, nd, 0, at);
    nn[at] = name;
    nv[at] = version;
    nd[at] = data.clone();
    System.arraycopy(names, at, nn, at + 1, n - at);
    System.arraycopy(versions, at, nv, at + 1, n - at);
    System.arraycopy(this.data, at, nd, at + 1, n - at);
    return new Annotations(nn, nv, nd);
  }

  /** These annotations without {@code name} (the same instance if it is absent). */
  public Annotations without(String name) {
    int i = Arrays.binarySearch(names, name);
    if (i < 0) {
      return this;
    }
    if (names.length == 1) {
      return EMPTY;
    }
    int n = names.length;
    String[] nn = new String[n - 1];
    int[] nv = new int[n - 1];
    byte[][] nd = new byte[n - 1][];
    System.arraycopy(names, 0, nn, 0, i);
    System.arraycopy(versions, 0, nv, 0, i);
    System.arraycopy(data, 0, nd, 0, i);
    System.arraycopy(names, i + 1, nn, i, n - i - 1);
    System.arraycopy(versions, i + 1, nv, i, n - i - 1);
    System.arraycopy(data, i + 1, nd, i, n - i - 1);
    return new Annotations(nn, nv, nd);
  }

  /** The length of {@link #toBytes()}, without encoding (0 for {@link #EMPTY}). */
  public int encodedBytes() {
    if (names.length == 0) {
      return 0;
    }
    int size = 1 + varintSize(names.length);
    for (int i = 0; i < names.length; i++) {
      size += varintSize(names[i].length()) + names[i].length() + varintSize(versions[i]) + varintSize(data[i].length)
          + data[i].length;
    }
    return size;
  }

  /** The binary form (see the class comment); zero bytes for {@link #EMPTY}. */
  public byte[] toBytes() {
    if (names.length == 0) {
      return new byte[0];
    }
    int size = encodedBytes();
    byte[] out = new byte[size];
    int p = 0;
    out[p++] = FORMAT;
    p = putVarint(out, p, names.length);
    for (int i = 0; i < names.length; i++) {
      String name = names[i];
      p = putVarint(out, p, name.length());
      for (int c = 0; c < name.length(); c++) {
        out[p++] = (byte) name.charAt(c); // checked ASCII
      }
      p = putVarint(out, p, versions[i]);
      p = putVarint(out, p, data[i].length);
      System.arraycopy(data[i], 0, out, p, data[i].length);
      p += data[i].length;
    }
    assert p == size : p + " bytes written, " + size + " computed";
    return out;
  }

  /** Reads what {@link #toBytes()} wrote. */
  public static Annotations fromBytes(byte[] bytes) {
    return fromBytes(bytes, 0, bytes.length);
  }

  /**
   * Reads what {@link #toBytes()} wrote, from {@code bytes[offset, offset + length)}.
   *
   * @throws IllegalArgumentException saying where and why, for bytes that are not annotations of a format this
   *     build reads (a store reports it as corruption)
   */
  public static Annotations fromBytes(byte[] bytes, int offset, int length) {
    Objects.checkFromIndexSize(offset, length, bytes.length);
    if (length == 0) {
      return EMPTY;
    }
    Reader r = new Reader(bytes, offset, offset + length);
    int format = bytes[offset] & 0xFF;
    r.pos++;
    if (format != FORMAT) {
      throw new IllegalArgumentException("annotations: unknown format version " + format + " (this build reads " + FORMAT + ")");
    }
    int n = r.varint("count");
    if (n < 1 || n > MAX_ENTRIES) {
      throw new IllegalArgumentException("annotations: count " + n + " is not 1 to " + MAX_ENTRIES);
    }
    String[] names = new String[n];
    int[] versions = new int[n];
    byte[][] data = new byte[n][];
    for (int i = 0; i < n; i++) {
      int len = r.varint("name length");
      names[i] = new String(r.take(len, "name"), StandardCharsets.ISO_8859_1);
      checkName(names[i]);
      if (i > 0 && names[i - 1].compareTo(names[i]) >= 0) {
        throw new IllegalArgumentException(
            "annotations: '" + names[i] + "' follows '" + names[i - 1] + "' (names must be sorted and distinct)");
      }
      versions[i] = r.varint("version of '" + names[i] + "'");
      int size = r.varint("data length of '" + names[i] + "'");
      if (size > MAX_DATA_BYTES) {
        throw new IllegalArgumentException(
            "annotations: '" + names[i] + "' has " + size + " data bytes, at most " + MAX_DATA_BYTES + " allowed");
      }
      data[i] = r.take(size, "data of '" + names[i] + "'");
    }
    if (r.pos != r.end) {
      throw new IllegalArgumentException("annotations: " + (r.end - r.pos) + " unexpected trailing bytes");
    }
    return new Annotations(names, versions, data);
  }

  private static void checkName(String name) {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
      throw new IllegalArgumentException(
          "annotation name '" + name + "' must be 1 to " + MAX_NAME_LENGTH + " characters, got " + name.length());
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '-')) {
        throw new IllegalArgumentException(
            "annotation name '" + name + "' has '" + c + "' at " + i + " (allowed: a-z, 0-9, '.', '-')");
      }
    }
  }

  static int varintSize(int v) {
    return v < 1 << 7 ? 1 : v < 1 << 14 ? 2 : v < 1 << 21 ? 3 : v < 1 << 28 ? 4 : 5;
  }

  static int putVarint(byte[] out, int p, int v) {
    while ((v & ~0x7F) != 0) {
      out[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[p++] = (byte) v;
    return p;
  }

  /** Bounds-checked reading of the binary form. */
  private static final class Reader {
    final byte[] b;
    int pos;
    final int end;

    Reader(byte[] b, int pos, int end) {
      this.b = b;
      this.pos = pos;
      this.end = end;
    }

    int varint(String what) {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        if (pos >= end) {
          throw new IllegalArgumentException("annotations: truncated in the " + what + " at byte " + pos);
        }
        int x = b[pos++];
        v |= (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          if (v < 0 || (shift == 28 && (x & 0x70) != 0)) {
            throw new IllegalArgumentException("annotations: the " + what + " does not fit an int");
          }
          return v;
        }
      }
      throw new IllegalArgumentException("annotations: the " + what + " is a varint over 5 bytes");
    }

    byte[] take(int n, String what) {
      if (n > end - pos) {
        throw new IllegalArgumentException("annotations: the " + what + " needs " + n + " bytes, " + (end - pos) + " left");
      }
      byte[] out = Arrays.copyOfRange(b, pos, pos + n);
      pos += n;
      return out;
    }
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Annotations a) || !Arrays.equals(a.names, names) || !Arrays.equals(a.versions, versions)) {
      return false;
    }
    for (int i = 0; i < names.length; i++) {
      if (!Arrays.equals(a.data[i], data[i])) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = Arrays.hashCode(names) * 31 + Arrays.hashCode(versions);
    for (byte[] d : data) {
      h = h * 31 + Arrays.hashCode(d);
    }
    return h;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("Annotations{");
    for (int i = 0; i < names.length; i++) {
      s.append(i == 0 ? "" : ", ").append(names[i]).append("=v").append(versions[i]).append(':')
          .append(data[i].length).append('B');
    }
    return s.append('}').toString();
  }
}
