package io.memloop.store.solr;

import io.memloop.Memory;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.Utility;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.solr.common.SolrDocument;

/**
 * How values live in a document's fields: instants as epoch nanoseconds, the memory's embedding as little-endian
 * float bytes, the intent vector as a float list (or a query literal), a memory's words as indexed terms, and a
 * memory or its utility read back from a document.
 */
final class Fields {
  /** The fields a {@link Memory} is read from. */
  static final String MEMORY_FIELDS =
      "id,intent,intent_text,embedding,experience,outcome,created,q,visits,updated";
  /** Longest word indexed as it is; Lucene refuses terms over 32,766 bytes (a char is at most 3 UTF-8 bytes). */
  private static final int MAX_WORD_CHARS = 4096;

  private Fields() {}

  static Memory memory(String ns, SolrDocument d) {
    return new Memory(
        Routing.shortId((String) d.getFieldValue("id")),
        ns,
        (String) d.getFieldValue("intent"),
        (String) d.getFieldValue("intent_text"),
        floats((byte[]) d.getFieldValue("embedding")),
        (String) d.getFieldValue("experience"),
        Outcome.valueOf((String) d.getFieldValue("outcome")),
        ((Number) d.getFieldValue("q")).doubleValue(),
        ((Number) d.getFieldValue("visits")).longValue(),
        Instant.parse((String) d.getFieldValue("created")),
        instant(((Number) d.getFieldValue("updated")).longValue()));
  }

  static Utility utility(SolrDocument d) {
    return new Utility(((Number) d.getFieldValue("q")).doubleValue(), ((Number) d.getFieldValue("visits")).longValue());
  }

  static long version(SolrDocument d) {
    return ((Number) d.getFieldValue("_version_")).longValue();
  }

  /** The distinct words of a memory's texts, as {@link MemoryQuery#words} defines them, as {@link #term}s. */
  static List<String> words(String intentText, String experience) {
    Set<String> out = new LinkedHashSet<>(MemoryQuery.words(intentText));
    out.addAll(MemoryQuery.words(experience));
    return out.stream().map(Fields::term).toList();
  }

  /**
   * The indexed term of a word: the word, or for a very long one its start, {@code '#'} (never part of a word) and a
   * hash of the whole word, so that long words still match exactly (up to a 64-bit hash collision).
   */
  static String term(String word) {
    if (word.length() <= MAX_WORD_CHARS) {
      return word;
    }
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < word.length(); i++) {
      h = (h ^ word.charAt(i)) * 0x100000001b3L;
    }
    return word.substring(0, MAX_WORD_CHARS) + "#" + Long.toHexString(h) + "." + word.length();
  }

  /** Epoch nanoseconds (saturated), how instants live in numeric fields. */
  static long nanos(Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    } catch (ArithmeticException e) {
      return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  static Instant instant(long nanos) {
    return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
  }

  static List<Float> floats(float[] v) {
    List<Float> out = new ArrayList<>(v.length);
    for (float f : v) {
      out.add(f);
    }
    return out;
  }

  static String vectorLiteral(float[] v) {
    StringBuilder b = new StringBuilder(v.length * 12).append('[');
    for (int i = 0; i < v.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(v[i]);
    }
    return b.append(']').toString();
  }

  static byte[] bytes(float[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(v);
    return b.array();
  }

  static float[] floats(byte[] b) {
    float[] v = new float[b.length / Float.BYTES];
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    return v;
  }
}
