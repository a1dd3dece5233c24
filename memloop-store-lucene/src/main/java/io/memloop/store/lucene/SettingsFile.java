package io.memloop.store.lucene;

import io.memloop.EmbeddingModel;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;

/**
 * Each namespace's recorded configuration, in {@code memloop.settings}: a first line {@code MLST
 * <version> <CRC32C, hex> <store id>}, then one {@code namespace TAB knob TAB value} line per knob; the
 * checksum covers the store id, a newline and every line after the first. Replaced whole and
 * atomically on every change (changes are rare); read and checked at open.
 *
 * <p>Binding (v2): the file carries the id of its store ({@link StoreMeta#storeId()}), and the store's
 * metadata says whether the store has recorded settings. So a file copied from another store, or a
 * missing file of a store that had one, is refused on open ({@link #checkBoundTo}) like any other
 * damaged file, instead of applying another store's or the default configuration. A v1 file (no id) is
 * read only while a v1 store is migrated.
 *
 * <p>Once {@link #attach}ed it also keeps the store's metadata, the one copy every rewrite of {@code memloop.meta}
 * goes through (settings flags, {@link #recordModel}), so that no rewrite drops another's change.
 *
 * <p>Thread safety: {@link #save} and {@link #recordModel} are synchronized; reads see an immutable snapshot.
 */
final class SettingsFile {
  static final String NAME = "memloop.settings";
  static final int VERSION = 2;

  private final Path file;
  private final boolean present;
  /** The id the file was bound to when read: null if it is absent or a v1 file. */
  private final @Nullable UUID boundTo;
  private volatile Map<String, Map<String, String>> byNamespace;
  /** The store's metadata and where it lives, once {@link #attach}ed; guarded by {@code this}. */
  private @Nullable StoreMeta meta;
  private @Nullable Path metaFile;

  private SettingsFile(Path file, boolean present, @Nullable UUID boundTo, Map<String, Map<String, String>> byNamespace) {
    this.file = file;
    this.present = present;
    this.boundTo = boundTo;
    this.byNamespace = byNamespace;
  }

  /** Reads {@code dir}'s settings (none if the file does not exist). Checks the file, not its binding. */
  static SettingsFile read(Path dir) throws IOException {
    Path file = dir.resolve(NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new SettingsFile(file, false, null, Map.of());
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    int eol = text.indexOf('\n');
    String[] head = (eol < 0 ? text : text.substring(0, eol)).split(" ");
    if (head.length < 3 || !head[0].equals("MLST")) {
      throw StoreFiles.corrupt(file, "bad header (expected MLST v" + VERSION + ")");
    }
    UUID id = null;
    String body = text.substring(eol + 1);
    String checked = body;
    if (head[1].equals("1") && head.length == 3) {
      // v1: no store id
    } else if (head[1].equals(String.valueOf(VERSION)) && head.length == 4) {
      try {
        id = UUID.fromString(head[3]);
      } catch (IllegalArgumentException e) {
        throw StoreFiles.corrupt(file, "bad store id '" + head[3] + "' in header");
      }
      checked = head[3] + "\n" + body;
    } else if (head[1].equals("1") || head[1].equals(String.valueOf(VERSION))) {
      throw StoreFiles.corrupt(file, "bad header (expected MLST v" + VERSION + ")");
    } else {
      throw StoreFiles.corrupt(file, "unknown settings format version " + head[1] + " (this build reads v1 to v"
          + VERSION + ")");
    }
    if (!head[2].equals(crc(checked))) {
      throw StoreFiles.corrupt(file, "checksum mismatch");
    }
    Map<String, Map<String, String>> out = new HashMap<>();
    for (String line : body.split("\n", -1)) {
      if (line.isEmpty()) {
        continue;
      }
      String[] f = line.split("\t", -1);
      if (f.length != 3) {
        throw StoreFiles.corrupt(file, "malformed line '" + line + "'");
      }
      out.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).put(f[1], f[2]);
    }
    out.replaceAll((k, v) -> Collections.unmodifiableMap(v));
    return new SettingsFile(file, true, id, Map.copyOf(out));
  }

  boolean present() {
    return present;
  }

  /** Whether the file was read in the format without a store id (v1). */
  boolean legacy() {
    return present && boundTo == null;
  }

  /**
   * Refuses (STORE_CORRUPT) a file that does not belong to the store {@code meta} describes: missing
   * though the store recorded settings, bound to another store's id, or without an id in a store that
   * binds its settings (unless a v1 migration is under way). Writes nothing.
   */
  void checkBoundTo(StoreMeta meta) {
    UUID id = meta.storeId();
    if (!present) {
      if (meta.settingsRecorded()) {
        throw StoreFiles.corrupt(file, "settings file is missing, but " + StoreFiles.META + " says store " + id
            + " recorded settings: without it every namespace would silently fall back to the default "
            + "configuration; restore " + NAME + " from a backup of this store");
      }
      return;
    }
    if (boundTo != null && !boundTo.equals(id)) {
      throw StoreFiles.corrupt(file, "settings file belongs to store " + boundTo + ", not to this store ("
          + (id == null ? "format v1, no id yet" : id) + "): it was copied from another store; restore "
          + NAME + " from a backup of this store");
    }
    if (boundTo == null && id != null && !meta.legacySettings()) {
      throw StoreFiles.corrupt(file, "settings file has no store id (format v1), but this store (" + id
          + ") binds its settings to its id: it was copied from another store; restore " + NAME
          + " from a backup of this store");
    }
  }

  /**
   * Binds this file to the store {@code meta} describes (v2 metadata with an id), for later saves:
   * rewrites a v1 file with the id, and makes the metadata say settings are recorded if a file exists.
   * Returns the metadata as written. Called once at open, after every check.
   */
  synchronized StoreMeta attach(Path metaFile, StoreMeta meta) throws IOException {
    this.metaFile = metaFile;
    this.meta = meta;
    if (present && boundTo == null) {
      write(byNamespace); // the migration: the same settings, bound to the id
    }
    if (present && (!meta.settingsRecorded() || meta.legacySettings())) {
      this.meta = meta.withSettings(true, false);
      this.meta.write(metaFile);
    }
    return this.meta;
  }

  /** The embedding model the store's metadata records, null while none is. */
  synchronized @Nullable EmbeddingModel model() {
    return meta == null ? null : meta.model();
  }

  /**
   * Records {@code model} in the store's metadata unless one is recorded already (which is kept); durable on return.
   *
   * @return the model recorded now
   */
  synchronized EmbeddingModel recordModel(EmbeddingModel model) throws IOException {
    StoreMeta m = meta;
    if (m == null || metaFile == null) {
      throw new IllegalStateException("settings file not attached to a store");
    }
    if (m.model() != null) {
      return m.model();
    }
    StoreMeta next = m.withModel(model);
    next.write(metaFile);
    meta = next;
    return model;
  }

  Map<String, String> get(String namespace) {
    return byNamespace.get(namespace);
  }

  /** Records {@code settings} for {@code namespace}; durable on return. */
  synchronized void save(String namespace, Map<String, String> settings) throws IOException {
    for (Map.Entry<String, String> e : settings.entrySet()) {
      if (!singleField(e.getKey()) || !singleField(e.getValue())) {
        throw new IllegalArgumentException("settings keys and values are single-line text without tabs: " + e);
      }
    }
    Map<String, Map<String, String>> next = new HashMap<>(byNamespace);
    next.put(namespace, Collections.unmodifiableMap(new LinkedHashMap<>(settings)));
    write(next);
    byNamespace = Map.copyOf(next);
    StoreMeta m = meta;
    if (m != null && metaFile != null && !m.settingsRecorded()) {
      // After the file: a crash between the two leaves a bound file the next open accepts and records.
      meta = m.withSettings(true, false);
      meta.write(metaFile);
    }
  }

  private void write(Map<String, Map<String, String>> all) throws IOException {
    StoreMeta m = meta;
    if (m == null || m.storeId() == null) {
      throw new IllegalStateException("settings file not attached to a store with an id");
    }
    String id = m.storeId().toString();
    StringBuilder body = new StringBuilder();
    for (Map.Entry<String, Map<String, String>> ns : new TreeMap<>(all).entrySet()) {
      ns.getValue().forEach((k, v) -> body.append(ns.getKey()).append('\t').append(k).append('\t').append(v).append('\n'));
    }
    String text = "MLST " + VERSION + " " + crc(id + "\n" + body) + " " + id + "\n" + body;
    StoreFiles.writeAtomically(file, text.getBytes(StandardCharsets.UTF_8));
  }

  private static boolean singleField(String s) {
    return !s.isEmpty() && s.indexOf('\t') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0;
  }

  private static String crc(String body) {
    CRC32C c = new CRC32C();
    c.update(body.getBytes(StandardCharsets.UTF_8));
    return String.format("%08x", (int) c.getValue());
  }
}
