package io.memloop.store.lucene;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntConsumer;
import java.util.stream.Stream;

/** Shared helpers for the store tests: seeded vectors, simple writes, directory fingerprints. */
final class StoreFixtures {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private StoreFixtures() {}

  static float[] randomUnit(SplittableRandom rnd, int dim) {
    float[] v = new float[dim];
    for (int i = 0; i < dim; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "test");
  }

  static Memory insert(MemoryStore store, String ns, float[] v, String experience, double q) {
    return store.insert(new NewMemory(ns, "intent " + experience, v, experience, Outcome.SUCCESS, q, T0), 0.95);
  }

  static RetrievalRecord select(MemoryStore store, String ns, String... memoryIds) {
    List<Candidate> candidates = Stream.of(memoryIds).map(id -> new Candidate(id, 0.9, 0, 1, true, 1)).toList();
    return store.saveRetrieval(new RetrievalRecordDraft(ns, T0, T0.plusSeconds(3600), candidates));
  }

  /** Runs {@code body(0..threads-1)} on that many named threads and rethrows the first failure. */
  static void inParallel(int threads, IntConsumer body) {
    List<Thread> started = new ArrayList<>();
    List<Throwable> failures = new CopyOnWriteArrayList<>();
    for (int t = 0; t < threads; t++) {
      int index = t;
      Thread th = new Thread(() -> body.accept(index), "test-writer-" + t);
      th.setUncaughtExceptionHandler((x, e) -> failures.add(e));
      th.start();
      started.add(th);
    }
    for (Thread th : started) {
      try {
        th.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    if (!failures.isEmpty()) {
      throw new AssertionError("a writer failed", failures.get(0));
    }
  }

  /** Every file under {@code dir} (relative path) with its SHA-256, to prove a failed open changed nothing. */
  static Map<String, String> fingerprint(Path dir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) files::iterator) {
        if (Files.isRegularFile(p)) {
          out.put(dir.relativize(p).toString(), sha256(Files.readAllBytes(p)));
        }
      }
    }
    return out;
  }

  private static String sha256(byte[] b) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /** The one log segment of a store that has not been checkpointed since it was created. */
  static Path onlySegment(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
      List<Path> segments = files.toList();
      if (segments.size() != 1) {
        throw new AssertionError("expected one log segment, found " + segments);
      }
      return segments.get(0);
    }
  }

  /**
   * Tears the last record of a log segment the way a crash during its write would: cuts {@code
   * keep} bytes into it (or drops it whole if negative) and sets the segment's synced watermark back
   * to the record's start, where the disk's copy of the header would be (the watermark lags the
   * data's fsync). Returns the torn record's start offset.
   */
  static long tearLastRecord(Path segment, long keep) throws IOException {
    byte[] b = java.nio.file.Files.readAllBytes(segment);
    java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long pos = WriteAheadLog.HEADER_BYTES;
    long lastStart = pos;
    while (pos < b.length) {
      lastStart = pos;
      pos += WriteAheadLog.FRAME_BYTES + buf.getInt((int) pos);
    }
    long segmentNumber = buf.getLong(8);
    long baseLsn = buf.getLong(16);
    try (java.nio.channels.FileChannel ch = java.nio.channels.FileChannel.open(segment, java.nio.file.StandardOpenOption.WRITE)) {
      ch.truncate(keep < 0 ? lastStart : lastStart + keep);
      WriteAheadLog.markSynced(ch, segmentNumber, baseLsn, lastStart - WriteAheadLog.HEADER_BYTES);
    }
    return lastStart;
  }

  /** Total bytes of the log segments. */
  static long logBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
      long n = 0;
      for (Path p : (Iterable<Path>) files::iterator) {
        n += Files.size(p);
      }
      return n;
    }
  }
}
