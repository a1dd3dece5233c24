package io.memloop.cli;

import io.memloop.MemLoopException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Every failure of a command as one readable line and an exit code (README, "Exit codes"); the stack trace only
 * with {@code MEMLOOP_DEBUG=1}.
 *
 * <p>Besides {@link MemLoopException}, whatever escapes a command is classified by its cause chain: a full disk
 * (the operating system's "No space left on device") and any other I/O failure, the store's Lucene index included,
 * are exit 5 (store unavailable: the store keeps what it acknowledged, and the command can be rerun once the cause
 * is gone); running out of heap is exit 1 with how to give the JVM more; anything else is an internal error, exit 1.
 * Failures of background threads (Lucene's merge threads) print nothing of their own: they are kept here and
 * reported after the command, so the terminal never shows a thread's stack trace.
 */
final class Failures {
  /** The operating system's message for ENOSPC, as the JDK reports it. */
  static final String DISK_FULL = "No space left on device";

  /** The first failure of a background thread since the last {@link #takeBackground}. */
  private static final AtomicReference<@Nullable Background> BACKGROUND = new AtomicReference<>();

  record Background(String thread, Throwable failure) {}

  private Failures() {}

  /** Prints {@code t} as one line on {@code err} (and its stack trace when {@code debug}); returns the exit code. */
  static int report(Throwable t, PrintWriter err, boolean debug) {
    err.println("memloop: " + Text.printable(line(t)) + (debug || exitCode(t) != MemLoopCli.INTERNAL || isOutOfMemory(t)
        ? "" : " (set MEMLOOP_DEBUG=1 for details)"));
    if (debug) {
      t.printStackTrace(err);
    }
    return exitCode(t);
  }

  static int exitCode(Throwable t) {
    MemLoopException e = find(t, MemLoopException.class);
    if (e != null) {
      return MemLoopCli.exitCode(e.reason());
    }
    if (isOutOfMemory(t)) {
      return MemLoopCli.INTERNAL;
    }
    return isIo(t) ? MemLoopCli.STORE : MemLoopCli.INTERNAL;
  }

  /** The line to print, without the {@code memloop: } prefix. */
  static String line(Throwable t) {
    MemLoopException e = find(t, MemLoopException.class);
    if (e != null) {
      return Flags.message(e);
    }
    if (isOutOfMemory(t)) {
      return "out of memory (" + t.getMessage() + "): give the JVM more heap, e.g. MEMLOOP_JAVA_OPTS=-Xmx2g";
    }
    Throwable full = diskFull(t);
    if (full != null) {
      return "the disk is full (" + describe(full) + "): free some space and run the command again"
          + " (the store keeps every write it acknowledged)";
    }
    if (isIo(t)) {
      Throwable io = find(t, IOException.class);
      return "I/O error: " + describe(io != null ? io : t);
    }
    return "internal error: " + t;
  }

  /** Keeps a background thread's failure for {@link #takeBackground}; prints its stack trace only when {@code debug}. */
  static Thread.UncaughtExceptionHandler backgroundHandler(boolean debug) {
    return (thread, failure) -> {
      BACKGROUND.compareAndSet(null, new Background(thread.getName(), failure));
      if (debug) {
        System.err.println("memloop: thread " + thread.getName() + " failed:");
        failure.printStackTrace(System.err);
      }
    };
  }

  /** The background failure kept since the last call, if any, forgetting it. */
  static @Nullable Background takeBackground() {
    return BACKGROUND.getAndSet(null);
  }

  private static boolean isOutOfMemory(Throwable t) {
    return find(t, OutOfMemoryError.class) != null;
  }

  /** An I/O failure somewhere in the chain: an IOException, or an exception of the Lucene index the store runs on. */
  private static boolean isIo(Throwable t) {
    return find(t, IOException.class) != null || find(t, UncheckedIOException.class) != null
        || chain(t).stream().anyMatch(c -> c.getClass().getName().startsWith("org.apache.lucene."));
  }

  private static @Nullable Throwable diskFull(Throwable t) {
    // The deepest one: a wrapper's message repeats its cause's with the class name in front.
    return chain(t).stream().filter(c -> {
      String m = c instanceof FileSystemException f ? f.getReason() : c.getMessage();
      return m != null && m.contains(DISK_FULL);
    }).reduce((outer, inner) -> inner).orElse(null);
  }

  /** An I/O failure in words: the file and what went wrong with it. */
  private static String describe(Throwable t) {
    if (t instanceof NoSuchFileException f) {
      return "no such file: " + f.getFile();
    }
    if (t instanceof AccessDeniedException f) {
      return "permission denied: " + f.getFile();
    }
    if (t instanceof FileSystemException f && f.getFile() != null) {
      return f.getFile() + (f.getReason() == null ? "" : ": " + f.getReason());
    }
    return t.getMessage() != null ? t.getMessage() : t.toString();
  }

  private static <T extends Throwable> @Nullable T find(Throwable t, Class<T> type) {
    for (Throwable c : chain(t)) {
      if (type.isInstance(c)) {
        return type.cast(c);
      }
    }
    return null;
  }

  /** {@code t} and its causes and suppressed exceptions, each once. */
  private static java.util.List<Throwable> chain(Throwable t) {
    java.util.List<Throwable> out = new java.util.ArrayList<>();
    Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    java.util.ArrayDeque<Throwable> todo = new java.util.ArrayDeque<>();
    todo.add(t);
    while (!todo.isEmpty() && out.size() < 64) {
      Throwable c = todo.poll();
      if (c != null && seen.add(c)) {
        out.add(c);
        if (c.getCause() != null) {
          todo.add(c.getCause());
        }
        Collections.addAll(todo, c.getSuppressed());
      }
    }
    return out;
  }
}
