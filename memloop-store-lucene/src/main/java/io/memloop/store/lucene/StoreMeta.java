package io.memloop.store.lucene;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.zip.CRC32C;

/**
 * The store's identity card, {@code memloop.meta}: written once when the store is created, read first
 * on every open. Layout (little-endian):
 *
 * <pre>
 *   int   MAGIC 0x4D4C4D54 ("MLMT")
 *   int   format version (1)
 *   int   dimension
 *   long  created-at epoch seconds, int nanos
 *   int+  UTF-8 creator ("memloop-store-lucene/1 lucene/10.6.0")
 *   int   CRC32C of every byte before it
 * </pre>
 *
 * @param formatVersion on-disk format of the whole store directory (meta, log, snapshots)
 */
record StoreMeta(int formatVersion, int dimension, Instant createdAt, String createdBy) {
  static final int MAGIC = 0x4D4C4D54;
  static final int CURRENT_VERSION = 1;
  /** Largest dimension accepted; Lucene's default cap of 1024 is lifted by {@link HnswFormat}. */
  static final int MAX_DIMENSION = 4096;

  StoreMeta {
    if (dimension < 1 || dimension > MAX_DIMENSION) {
      throw new IllegalArgumentException("dimension " + dimension + " not in [1, " + MAX_DIMENSION + "]");
    }
  }

  static StoreMeta create(int dimension, Instant now) {
    return new StoreMeta(CURRENT_VERSION, dimension, now,
        "memloop-store-lucene/" + CURRENT_VERSION + " lucene/" + org.apache.lucene.util.Version.LATEST);
  }

  void write(Path file) throws IOException {
    ByteWriter w = new ByteWriter(128);
    w.putInt(MAGIC).putInt(formatVersion).putInt(dimension).putInstant(createdAt).putString(createdBy);
    CRC32C crc = new CRC32C();
    crc.update(w.array(), 0, w.length());
    w.putInt((int) crc.getValue());
    StoreFiles.writeAtomically(file, w.toByteArray());
  }

  /**
   * Reads and checks {@code file}.
   *
   * @throws io.memloop.MemLoopException STORE_CORRUPT on a bad magic, an unknown version, a bad
   *     checksum or a truncated file
   */
  static StoreMeta read(Path file) throws IOException {
    byte[] b = Files.readAllBytes(file);
    if (b.length < 8) {
      throw StoreFiles.corrupt(file, "truncated store metadata (" + b.length + " bytes)");
    }
    int magic = ByteWriter.intAt(b, 0);
    if (magic != MAGIC) {
      throw StoreFiles.corrupt(file, String.format(
          "bad magic 0x%08x in %s (expected 0x%08x, a MemLoop store v%d)", magic, file, MAGIC, CURRENT_VERSION));
    }
    int version = ByteWriter.intAt(b, 4);
    if (version != CURRENT_VERSION) {
      throw StoreFiles.corrupt(file, "unknown store format version " + version + " (this build reads v"
          + CURRENT_VERSION + "); was it written by a newer MemLoop?");
    }
    if (b.length < 12) {
      throw StoreFiles.corrupt(file, "truncated store metadata (" + b.length + " bytes)");
    }
    CRC32C crc = new CRC32C();
    crc.update(b, 0, b.length - 4);
    int stored = ByteWriter.intAt(b, b.length - 4);
    if (stored != (int) crc.getValue()) {
      throw StoreFiles.corrupt(file, String.format(
          "checksum mismatch in store metadata (stored 0x%08x, computed 0x%08x, %d bytes)",
          stored, (int) crc.getValue(), b.length));
    }
    ByteReader r = new ByteReader(b, 8, b.length - 12);
    try {
      int dimension = r.getInt();
      Instant createdAt = r.getInstant();
      String createdBy = r.getString();
      r.expectEnd("store metadata");
      if (dimension < 1 || dimension > MAX_DIMENSION) {
        throw StoreFiles.corrupt(file, "bad dimension " + dimension + " in store metadata");
      }
      return new StoreMeta(version, dimension, createdAt, createdBy);
    } catch (ByteReader.Malformed e) {
      throw StoreFiles.corrupt(file, "malformed store metadata: " + e.getMessage());
    }
  }
}
