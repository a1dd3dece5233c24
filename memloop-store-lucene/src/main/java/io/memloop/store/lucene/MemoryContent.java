package io.memloop.store.lucene;

import io.memloop.Memory;
import io.memloop.Outcome;
import java.time.Instant;

/**
 * The immutable part of a memory: what Lucene keeps on disk (a binary doc value) and the log records on
 * insert. Its encoding is the same in both places:
 *
 * <pre>
 *   byte  content version (1)
 *   int+  UTF-8 intent text, int+ UTF-8 experience
 *   byte  outcome (0 success, 1 failure, 2 unknown)
 *   long  created-at epoch seconds, int nanos
 *   int+  float[] intent embedding
 * </pre>
 *
 * The mutable part (Q, visits, updated-at) lives in {@link MemoryTable}.
 */
record MemoryContent(
    String intentText, String experience, Outcome outcome, Instant createdAt, float[] embedding) {
  static final int VERSION = 1;

  byte[] encode() {
    ByteWriter w = new ByteWriter(64 + 4 * embedding.length + 3 * (intentText.length() + experience.length()));
    w.putByte(VERSION).putString(intentText).putString(experience).putByte(code(outcome))
        .putInstant(createdAt).putFloats(embedding);
    return w.toByteArray();
  }

  static MemoryContent decode(byte[] b, int off, int len) throws ByteReader.Malformed {
    ByteReader r = new ByteReader(b, off, len);
    int version = r.getByte();
    if (version != VERSION) {
      throw new ByteReader.Malformed("unknown memory content version " + version + " (expected " + VERSION + ")");
    }
    String intent = r.getString();
    String experience = r.getString();
    Outcome outcome = outcome(r.getByte());
    Instant createdAt = r.getInstant();
    float[] embedding = r.getFloats();
    r.expectEnd("memory content");
    return new MemoryContent(intent, experience, outcome, createdAt, embedding);
  }

  /** The full memory: this content plus identity and the current utility. */
  Memory toMemory(String id, String namespace, String intentId, double q, long visits, Instant updatedAt) {
    return new Memory(id, namespace, intentId, intentText, embedding.clone(), experience, outcome, q, visits,
        createdAt, updatedAt);
  }

  static int code(Outcome o) {
    return switch (o) {
      case SUCCESS -> 0;
      case FAILURE -> 1;
      case UNKNOWN -> 2;
    };
  }

  static Outcome outcome(int code) throws ByteReader.Malformed {
    return switch (code) {
      case 0 -> Outcome.SUCCESS;
      case 1 -> Outcome.FAILURE;
      case 2 -> Outcome.UNKNOWN;
      default -> throw new ByteReader.Malformed("unknown outcome code " + code);
    };
  }
}
