package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.lucene.util.IOUtils;

/**
 * The layout of a store directory, crash-safe file replacement, and the errors that name a file.
 *
 * <pre>
 *   DIR/memloop.meta              format, dimension, creation info (written once)
 *   DIR/memloop.lock              OS lock held by the one process that has the store open
 *   DIR/state-&lt;segment&gt;.snap      checkpoint of utilities and retrievals, valid at that segment's start
 *   DIR/wal/&lt;segment&gt;.wal         write-ahead log segments, numbered from 1
 *   DIR/index/                    Lucene index: intent vectors and memory texts
 * </pre>
 */
final class StoreFiles {
  static final String META = "memloop.meta";
  static final String LOCK = "memloop.lock";
  static final String WAL_DIR = "wal";
  static final String INDEX_DIR = "index";
  private static final Pattern SNAPSHOT = Pattern.compile("state-(\\d{16})\\.snap");
  private static final Pattern SEGMENT = Pattern.compile("(\\d{16})\\.wal");

  private StoreFiles() {}

  static Path snapshot(Path dir, long segment) {
    return dir.resolve(String.format(Locale.ROOT, "state-%016d.snap", segment));
  }

  static Path segment(Path dir, long segment) {
    return dir.resolve(WAL_DIR).resolve(String.format(Locale.ROOT, "%016d.wal", segment));
  }

  /** Snapshots by segment number, ascending. */
  static TreeMap<Long, Path> snapshots(Path dir) throws IOException {
    return numbered(dir, SNAPSHOT);
  }

  /** Log segments by number, ascending. */
  static TreeMap<Long, Path> segments(Path dir) throws IOException {
    Path wal = dir.resolve(WAL_DIR);
    return Files.isDirectory(wal) ? numbered(wal, SEGMENT) : new TreeMap<>();
  }

  private static TreeMap<Long, Path> numbered(Path dir, Pattern pattern) throws IOException {
    TreeMap<Long, Path> out = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        Matcher m = pattern.matcher(p.getFileName().toString());
        if (m.matches()) {
          out.put(Long.parseLong(m.group(1)), p);
        }
      }
    }
    return out;
  }

  /** Leftover temporary files of interrupted atomic writes. */
  static List<Path> temporaries(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files.filter(p -> p.getFileName().toString().endsWith(".tmp")).forEach(out::add);
    }
    return out;
  }

  /** Writes {@code bytes} to {@code target} so that a crash leaves either the old or the new file. */
  static void writeAtomically(Path target, byte[] bytes) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      while (b.hasRemaining()) {
        ch.write(b);
      }
      ch.force(true);
    }
    publish(tmp, target);
  }

  /** Renames a fully written and synced {@code tmp} over {@code target}, then syncs the directory. */
  static void publish(Path tmp, Path target) throws IOException {
    try {
      Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      throw new IOException("file system of " + target + " cannot rename atomically", e);
    }
    syncDirectory(target.getParent());
  }

  /** Makes creations, renames and deletions in {@code dir} durable (Lucene knows the platforms where not possible). */
  static void syncDirectory(Path dir) throws IOException {
    IOUtils.fsync(dir, true);
  }

  static MemLoopException corrupt(Path file, String message) {
    return new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "", file + ": " + message);
  }

  static MemLoopException corrupt(Path file, String message, Throwable cause) {
    return new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "", file + ": " + message, cause);
  }

  static MemLoopException unavailable(Path file, String doing, Throwable cause) {
    if (isDiskFull(cause)) {
      return new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "disk full " + doing + " " + file
          + ": free space and retry; every acknowledged write is kept (" + rootMessage(cause) + ")", cause);
    }
    return new MemLoopException(
        MemLoopException.Reason.STORE_UNAVAILABLE, "", "I/O error " + doing + " " + file + ": " + cause,
        cause);
  }

  /** The message the operating system gives ENOSPC (Linux, macOS), or Windows' "not enough space". */
  private static final java.util.regex.Pattern DISK_FULL = Pattern.compile(
      "No space left on device|There is not enough space on the disk|Disk quota exceeded", Pattern.CASE_INSENSITIVE);

  /** Whether {@code t} or one of its causes (or suppressed exceptions) says the disk is full. */
  static boolean isDiskFull(Throwable t) {
    java.util.Set<Throwable> seen = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>();
    todo.add(t);
    while (!todo.isEmpty()) {
      Throwable e = todo.poll();
      if (!seen.add(e)) {
        continue;
      }
      if (e.getMessage() != null && DISK_FULL.matcher(e.getMessage()).find()) {
        return true;
      }
      if (e.getCause() != null) {
        todo.add(e.getCause());
      }
      todo.addAll(java.util.Arrays.asList(e.getSuppressed()));
    }
    return false;
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return String.valueOf(root.getMessage());
  }
}
