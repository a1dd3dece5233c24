package io.memloop.store.lucene;

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
import java.util.zip.CRC32C;

/**
 * Each namespace's recorded configuration, in {@code memloop.settings}: a first line {@code MLST
 * <version> <CRC32C of the rest, hex>}, then one {@code namespace TAB knob TAB value} line per knob.
 * Replaced whole and atomically on every change (changes are rare); read and checked at open.
 *
 * <p>Thread safety: {@link #save} is synchronized; reads see an immutable snapshot.
 */
final class SettingsFile {
  static final String NAME = "memloop.settings";
  static final int VERSION = 1;

  private final Path file;
  private volatile Map<String, Map<String, String>> byNamespace;

  private SettingsFile(Path file, Map<String, Map<String, String>> byNamespace) {
    this.file = file;
    this.byNamespace = byNamespace;
  }

  /** Reads {@code dir}'s settings (none if the file does not exist). */
  static SettingsFile read(Path dir) throws IOException {
    Path file = dir.resolve(NAME);
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      return new SettingsFile(file, Map.of());
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    int eol = text.indexOf('\n');
    String[] head = (eol < 0 ? text : text.substring(0, eol)).split(" ");
    if (head.length != 3 || !head[0].equals("MLST")) {
      throw StoreFiles.corrupt(file, "bad header (expected MLST v" + VERSION + ")");
    }
    if (!head[1].equals(String.valueOf(VERSION))) {
      throw StoreFiles.corrupt(file, "unknown settings format version " + head[1] + " (this build reads v" + VERSION + ")");
    }
    String body = text.substring(eol + 1);
    if (!head[2].equals(crc(body))) {
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
    return new SettingsFile(file, Map.copyOf(out));
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
    StringBuilder body = new StringBuilder();
    for (Map.Entry<String, Map<String, String>> ns : new TreeMap<>(next).entrySet()) {
      ns.getValue().forEach((k, v) -> body.append(ns.getKey()).append('\t').append(k).append('\t').append(v).append('\n'));
    }
    String text = "MLST " + VERSION + " " + crc(body.toString()) + "\n" + body;
    StoreFiles.writeAtomically(file, text.getBytes(StandardCharsets.UTF_8));
    byNamespace = Map.copyOf(next);
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
