package io.memloop.store.lucene;

import io.memloop.EmbeddingModel;
import io.memloop.MemLoopException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * The store's identity card, {@code memloop.meta}: written when the store is created, read first on
 * every open, rewritten (atomically) only when the store first records settings, when it records its
 * embedding model and when a v1 store is migrated; a rewrite writes the current version. Layout
 * (little-endian):
 *
 * <pre>
 *   int   MAGIC 0x4D4C4D54 ("MLMT")
 *   int   format version (4; 3 lacks the vector format, 2 also the model, 1 everything after the creator)
 *   int   dimension
 *   long  created-at epoch seconds, int nanos
 *   int+  UTF-8 creator ("memloop-store-lucene/2 lucene/10.6.0")
 *   long  store id, most significant bits   (v2)
 *   long  store id, least significant bits  (v2)
 *   byte  flags: 1 = settings recorded, 2 = legacy settings (v2), 4 = model recorded (v3)
 *   int+  UTF-8 embedding model id        (v3, only with flag 4)
 *   int   embedding model dimension       (v3, only with flag 4)
 *   byte  vector format code               (v4; {@link VectorFormat#code()}, earlier versions are float32)
 *   int   CRC32C of every byte before it
 * </pre>
 *
 * <p>The store id is random (a v4 UUID) and binds {@code memloop.settings} to this store: a settings file
 * carrying another id was copied from another store and is refused. "Settings recorded" says the store
 * has a settings file, so a missing one is damage, not a store without settings. "Legacy settings" is
 * set only while a v1 store is migrated: its v1 settings file (no id) is accepted until it is rewritten
 * bound to the id (see {@link StoreOpener}).
 *
 * @param formatVersion on-disk format of the whole store directory (meta, log, snapshots)
 * <p>The model ({@link io.memloop.store.MemoryStore#model()}) is recorded once, the first time an engine with
 * an embedder opens the store; stores of v1 and v2, and stores only ever given embeddings, have none.
 *
 * @param storeId null only for a v1 store not yet migrated
 * @param model the embedding model that made the vectors, null while none is recorded
 * @param vectorFormat how the index's HNSW graph holds vectors ({@link VectorFormat#FLOAT32} before v4)
 */
record StoreMeta(int formatVersion, int dimension, Instant createdAt, String createdBy,
    @Nullable UUID storeId, boolean settingsRecorded, boolean legacySettings, @Nullable EmbeddingModel model, VectorFormat vectorFormat) {
  static final int MAGIC = 0x4D4C4D54;
  static final int CURRENT_VERSION = 4;
  /** The oldest format this build reads (and migrates on open). */
  static final int OLDEST_VERSION = 1;
  /** Largest dimension accepted; Lucene's default cap of 1024 is lifted by {@link HnswFormat}. */
  static final int MAX_DIMENSION = 4096;
  private static final int SETTINGS_RECORDED = 1;
  private static final int LEGACY_SETTINGS = 2;
  private static final int MODEL_RECORDED = 4;

  StoreMeta {
    java.util.Objects.requireNonNull(vectorFormat, "vectorFormat");
    if (dimension < 1 || dimension > MAX_DIMENSION) {
      throw new IllegalArgumentException("dimension " + dimension + " not in [1, " + MAX_DIMENSION + "]");
    }
    if (formatVersion >= 2 && storeId == null) {
      throw new IllegalArgumentException("a v" + formatVersion + " store has an id");
    }
    if (model != null && model.dimension() != dimension) {
      throw new IllegalArgumentException("model " + model + " in a store of " + dimension + "-d vectors");
    }
  }

  static StoreMeta create(int dimension, Instant now, VectorFormat vectorFormat) {
    return new StoreMeta(CURRENT_VERSION, dimension, now, creator(), UUID.randomUUID(), false, false, null, vectorFormat);
  }

  private static String creator() {
    return "memloop-store-lucene/" + CURRENT_VERSION + " lucene/" + org.apache.lucene.util.Version.LATEST;
  }

  /** This (v1) store's metadata in the current format, with a new random id. */
  StoreMeta migrated(boolean hasSettings) {
    return new StoreMeta(CURRENT_VERSION, dimension, createdAt, createdBy, UUID.randomUUID(), hasSettings, hasSettings,
        model, vectorFormat);
  }

  /** This metadata with the settings flags, in the current format (a v2 store's is upgraded when rewritten). */
  StoreMeta withSettings(boolean recorded, boolean legacy) {
    return new StoreMeta(CURRENT_VERSION, dimension, createdAt, createdBy, storeId, recorded, legacy, model, vectorFormat);
  }

  /** This metadata recording {@code model}, in the current format. */
  StoreMeta withModel(EmbeddingModel model) {
    return new StoreMeta(CURRENT_VERSION, dimension, createdAt, createdBy, storeId, settingsRecorded, legacySettings,
        model, vectorFormat);
  }

  /** This metadata recording {@code format} as the index's vector format, in the current format. */
  StoreMeta withVectorFormat(VectorFormat format) {
    return new StoreMeta(CURRENT_VERSION, dimension, createdAt, createdBy, storeId, settingsRecorded, legacySettings,
        model, format);
  }

  void write(Path file) throws IOException {
    if (formatVersion != CURRENT_VERSION) {
      throw new IllegalStateException("writes only v" + CURRENT_VERSION + ", not v" + formatVersion);
    }
    ByteWriter w = new ByteWriter(128);
    w.putInt(MAGIC).putInt(formatVersion).putInt(dimension).putInstant(createdAt).putString(createdBy);
    w.putLong(storeId.getMostSignificantBits()).putLong(storeId.getLeastSignificantBits())
        .putByte((settingsRecorded ? SETTINGS_RECORDED : 0) | (legacySettings ? LEGACY_SETTINGS : 0)
            | (model != null ? MODEL_RECORDED : 0));
    if (model != null) {
      w.putString(model.id()).putInt(model.dimension());
    }
    w.putByte(vectorFormat.code());
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
    if (version < OLDEST_VERSION || version > CURRENT_VERSION) {
      throw StoreFiles.corrupt(file, "unknown store format version " + version + " (this build reads v"
          + OLDEST_VERSION + " to v" + CURRENT_VERSION + "); was it written by a newer MemLoop?");
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
      UUID id = null;
      int flags = 0;
      EmbeddingModel model = null;
      if (version >= 2) {
        id = new UUID(r.getLong(), r.getLong());
        flags = r.getByte();
        int known = SETTINGS_RECORDED | LEGACY_SETTINGS | (version >= 3 ? MODEL_RECORDED : 0);
        if ((flags & ~known) != 0) {
          throw StoreFiles.corrupt(file, String.format("unknown flags 0x%02x in store metadata", flags));
        }
      }
      if (dimension < 1 || dimension > MAX_DIMENSION) {
        throw StoreFiles.corrupt(file, "bad dimension " + dimension + " in store metadata");
      }
      if ((flags & MODEL_RECORDED) != 0) {
        String modelId = r.getString();
        int modelDimension = r.getInt();
        try {
          model = new EmbeddingModel(modelId, modelDimension);
        } catch (MemLoopException e) {
          throw StoreFiles.corrupt(file, "bad embedding model in store metadata: " + e.getMessage());
        }
        if (modelDimension != dimension) {
          throw StoreFiles.corrupt(file, "embedding model " + model + " in store metadata of a store of "
              + dimension + "-d vectors");
        }
      }
      VectorFormat vectorFormat = VectorFormat.FLOAT32;
      if (version >= 4) {
        int code = r.getByte();
        vectorFormat = VectorFormat.ofCode(code);
        if (vectorFormat == null) {
          throw StoreFiles.corrupt(file, "unknown vector format " + code + " in store metadata; was it written by a newer MemLoop?");
        }
      }
      r.expectEnd("store metadata");
      return new StoreMeta(version, dimension, createdAt, createdBy, id, (flags & SETTINGS_RECORDED) != 0,
          (flags & LEGACY_SETTINGS) != 0, model, vectorFormat);
    } catch (ByteReader.Malformed e) {
      throw StoreFiles.corrupt(file, "malformed store metadata: " + e.getMessage());
    }
  }
}
