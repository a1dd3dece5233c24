package io.memloop.history;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.Candidate;
import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.UtilityChange;
import io.memloop.events.EventSink;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * The event log: every operation of an engine as one JSON line (format: docs/event-log.md, version
 * {@value #VERSION}), in rotating files {@code events-<start millis>-<n>.jsonl} of a directory.
 *
 * <p><b>Durability is the store's.</b> Each event is written to the file before the engine call returns,
 * so a crash of the process loses nothing that was acknowledged. Rewards, remembered and forgotten
 * memories (which the store fsyncs before returning) are fsynced here too before the call returns
 * (group commit: concurrent callers share one fsync); retrievals (which the store syncs within 50 ms)
 * are fsynced within {@value #SYNC_INTERVAL_MILLIS} ms. A file is fsynced whole when it is rotated and
 * at {@link #close()}.
 *
 * <p>Thread-safe. An I/O failure fails the engine call (after the store changed) with STORE_UNAVAILABLE
 * naming {@code eventLog}, and every later one: the history is never silently incomplete.
 */
public final class JsonlEventLog implements EventSink {
  public static final int VERSION = 1;
  static final long SYNC_INTERVAL_MILLIS = 50;
  private static final ObjectMapper MAPPER = new ObjectMapper().disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);

  private final Path dir;
  private final long maxFileBytes;
  private final boolean embeddings;
  private final ReentrantLock writeLock = new ReentrantLock();
  private final ReentrantLock syncLock = new ReentrantLock();
  private final ScheduledExecutorService syncer;
  // guarded by writeLock
  private FileChannel channel;
  private Path file;
  private long fileBytes;
  private long written; // bytes written over all files
  private long seq;
  private int fileIndex;
  private @Nullable IOException failure;
  private boolean closed;
  /** Bytes known durable (max-updated; syncLock only serialises the fsyncs themselves). */
  private final java.util.concurrent.atomic.AtomicLong synced = new java.util.concurrent.atomic.AtomicLong();

  /**
   * Opens a new log file in {@code dir} (made if missing; earlier files are kept).
   *
   * @param maxFileBytes rotate past this size (≥ 1 KiB)
   * @param includeEmbeddings log each retrieval's intent embedding too (a 384-d embedding is about 4 KB)
   */
  public JsonlEventLog(Path dir, long maxFileBytes, boolean includeEmbeddings) {
    if (maxFileBytes < 1024) {
      throw MemLoopException.invalid("eventLog", "files must be allowed at least 1024 bytes, got " + maxFileBytes);
    }
    this.dir = dir;
    this.maxFileBytes = maxFileBytes;
    this.embeddings = includeEmbeddings;
    try {
      Files.createDirectories(dir);
      openNext();
    } catch (IOException e) {
      throw unavailable("cannot open the event log in " + dir, e);
    }
    syncer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "memloop-event-log-sync");
      t.setDaemon(true);
      return t;
    });
    syncer.scheduleWithFixedDelay(this::backgroundSync, SYNC_INTERVAL_MILLIS, SYNC_INTERVAL_MILLIS, TimeUnit.MILLISECONDS);
  }

  /** 64 MiB files, no embeddings. */
  public JsonlEventLog(Path dir) {
    this(dir, 64L << 20, false);
  }

  /** The file being written. */
  public Path currentFile() {
    writeLock.lock();
    try {
      return file;
    } finally {
      writeLock.unlock();
    }
  }

  @Override
  public void configured(String namespace, Instant at, MemLoopConfig config) {
    configured(namespace, at, config, 1);
  }

  /** Writes {@code embedderBlocks} as the event's field of that name when the engine's vectors concatenate models. */
  @Override
  public void configured(String namespace, Instant at, MemLoopConfig config, int embedderBlocks) {
    append("config", namespace, at, false, g -> {
      g.writeObjectFieldStart("knobs");
      for (Map.Entry<String, String> e : config.toSettings().entrySet()) {
        g.writeStringField(e.getKey(), e.getValue());
      }
      g.writeEndObject();
      if (embedderBlocks > 1) {
        g.writeNumberField("embedderBlocks", embedderBlocks);
      }
    });
  }

  @Override
  public void retrieved(String namespace, Instant at, Intent intent, float[] embedding, Retrieval r) {
    append("retrieval", namespace, at, false, g -> {
      g.writeStringField("retrievalId", r.id());
      if (intent.text() != null) {
        g.writeStringField("intent", intent.text());
      } else {
        g.writeNullField("intent");
      }
      if (embeddings) {
        g.writeArrayFieldStart("embedding");
        for (float f : embedding) {
          g.writeNumber(f);
        }
        g.writeEndArray();
      }
      g.writeArrayFieldStart("candidates");
      for (Candidate c : r.candidates()) {
        g.writeStartObject();
        g.writeStringField("id", c.memoryId());
        g.writeNumberField("similarity", c.similarity());
        g.writeNumberField("q", c.q());
        g.writeNumberField("score", c.score());
        g.writeBooleanField("selected", c.selected());
        g.writeNumberField("probability", c.probability());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeArrayFieldStart("selected");
      for (Memory m : r.selected()) {
        g.writeString(m.id());
      }
      g.writeEndArray();
      // How many attempts of each merged failure note were shown (a long note may be shown as its newest k2
      // only), so that an export rebuilds the text the agent saw from the note's remembered text.
      boolean any = false;
      for (Memory m : r.selected()) {
        int parts = m.parts().size();
        if (parts > 1) {
          if (!any) {
            g.writeObjectFieldStart("parts");
            any = true;
          }
          g.writeNumberField(m.id(), parts);
        }
      }
      if (any) {
        g.writeEndObject();
      }
    });
  }

  @Override
  public void rewarded(String namespace, Instant at, RewardResult result, @Nullable List<String> used) {
    append("reward", namespace, at, true, g -> {
      g.writeStringField("retrievalId", result.retrievalId());
      g.writeNumberField("reward", result.reward());
      if (Double.compare(result.target(), result.reward()) != 0) { // a Bellman/TD reward
        g.writeNumberField("target", result.target());
      }
      if (used == null) {
        g.writeNullField("usedMemoryIds");
      } else {
        g.writeArrayFieldStart("usedMemoryIds");
        for (String id : used) {
          g.writeString(id);
        }
        g.writeEndArray();
      }
      g.writeArrayFieldStart("updated");
      for (UtilityChange c : result.changes()) {
        g.writeStartObject();
        g.writeStringField("id", c.memoryId());
        g.writeNumberField("qBefore", c.qBefore());
        g.writeNumberField("qAfter", c.qAfter());
        g.writeNumberField("visits", c.visits());
        g.writeEndObject();
      }
      g.writeEndArray();
    });
  }

  @Override
  public void remembered(String namespace, Instant at, Memory m, boolean duplicate, @Nullable String retrievalId) {
    remembered(namespace, at, m, duplicate, retrievalId, true);
  }

  /** One line per memory and one fsync after the last (a sync makes every earlier byte durable). */
  @Override
  public void rememberedAll(String namespace, Instant at, List<Memory> memories) {
    for (int i = 0; i < memories.size(); i++) {
      remembered(namespace, at, memories.get(i), false, null, i == memories.size() - 1);
    }
  }

  private void remembered(String namespace, Instant at, Memory m, boolean duplicate, @Nullable String retrievalId,
      boolean durable) {
    append("remember", namespace, at, durable, g -> {
      g.writeStringField("memoryId", m.id());
      g.writeStringField("intentId", m.intentId());
      g.writeStringField("intent", m.intentText());
      g.writeStringField("experience", m.experience());
      g.writeStringField("outcome", m.outcome().name().toLowerCase(Locale.ROOT));
      g.writeNumberField("q", m.q());
      g.writeBooleanField("duplicate", duplicate);
      if (retrievalId != null) {
        g.writeStringField("retrievalId", retrievalId);
      }
    });
  }

  @Override
  public void edited(String namespace, Instant at, Memory m) {
    append("edit", namespace, at, true, g -> {
      g.writeStringField("memoryId", m.id());
      g.writeStringField("experience", m.experience());
    });
  }

  @Override
  public void forgot(String namespace, Instant at, String memoryId) {
    append("forget", namespace, at, true, g -> g.writeStringField("memoryId", memoryId));
  }

  @FunctionalInterface
  private interface Body {
    void write(JsonGenerator g) throws IOException;
  }

  private void append(String type, String namespace, Instant at, boolean durable, Body body) {
    long end;
    FileChannel ch;
    writeLock.lock();
    try {
      if (failure != null) {
        throw unavailable("an earlier write failed; no event is logged any more", failure);
      }
      if (closed) {
        throw unavailable("is closed", null);
      }
      ByteArrayOutputStream out = new ByteArrayOutputStream(512);
      try (JsonGenerator g = MAPPER.getFactory().createGenerator(out)) {
        g.writeStartObject();
        g.writeNumberField("v", VERSION);
        g.writeNumberField("seq", ++seq);
        g.writeStringField("type", type);
        g.writeStringField("at", at.toString());
        g.writeStringField("ns", namespace);
        body.write(g);
        g.writeEndObject();
      }
      out.write('\n');
      byte[] line = out.toByteArray();
      if (fileBytes > 0 && fileBytes + line.length > maxFileBytes) {
        rotate();
      }
      ByteBuffer buf = ByteBuffer.wrap(line);
      while (buf.hasRemaining()) {
        channel.write(buf);
      }
      fileBytes += line.length;
      written += line.length;
      end = written;
      ch = channel;
    } catch (IOException e) {
      failure = e;
      throw unavailable("cannot write " + file, e);
    } finally {
      writeLock.unlock();
    }
    if (durable) {
      syncTo(end, ch);
    }
  }

  /** Makes every byte up to {@code end} durable; concurrent callers share one fsync. */
  private void syncTo(long end, FileChannel ch) {
    syncLock.lock();
    try {
      if (synced.get() >= end) {
        return;
      }
      long target;
      writeLock.lock();
      try {
        target = written;
        ch = channel;
      } finally {
        writeLock.unlock();
      }
      try {
        ch.force(false);
      } catch (ClosedChannelException e) {
        // rotated or closed meanwhile: both force the file before closing it
      }
      synced.accumulateAndGet(target, Math::max);
    } catch (IOException e) {
      writeLock.lock();
      try {
        failure = e;
      } finally {
        writeLock.unlock();
      }
      throw unavailable("cannot fsync " + file, e);
    } finally {
      syncLock.unlock();
    }
  }

  private void backgroundSync() {
    long end;
    FileChannel ch;
    writeLock.lock();
    try {
      if (closed || failure != null) {
        return;
      }
      end = written;
      ch = channel;
    } finally {
      writeLock.unlock();
    }
    try {
      syncTo(end, ch);
    } catch (MemLoopException e) {
      // recorded in failure: the next append reports it
    }
  }

  /** With the write lock held: fsyncs and closes the current file, opens the next. */
  private void rotate() throws IOException {
    channel.force(false);
    channel.close(); // a sync still holding this channel fails with ClosedChannelException: these bytes are durable
    synced.accumulateAndGet(written, Math::max);
    openNext();
  }

  private void openNext() throws IOException {
    fileIndex++;
    file = dir.resolve(String.format(Locale.ROOT, "events-%d-%06d.jsonl", System.currentTimeMillis(), fileIndex));
    channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    fileBytes = 0;
  }

  @Override
  public void close() {
    syncer.shutdownNow();
    writeLock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      channel.force(false);
      channel.close();
    } catch (IOException e) {
      throw unavailable("cannot close " + file, e);
    } finally {
      writeLock.unlock();
    }
  }

  private static MemLoopException unavailable(String what, @Nullable Throwable cause) {
    return new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "eventLog", "eventLog: " + what
        + (cause == null ? "" : ": " + cause.getMessage()), cause);
  }
}
