package io.memloop.embeddings;

import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A lexical embedding with no model file: feature hashing ("the hashing trick") of a text's lowercase
 * words, word pairs and character trigrams into a fixed number of signed buckets, L2-normalised.
 * Texts that share words and spellings get high cosine; meaning without shared words is invisible.
 *
 * <p>It is the benchmark's second, very different embedding model (MemLoop's defaults must not depend
 * on one model's similarity scale), and a dependable fallback where no neural model can run. Stateless,
 * deterministic across runs and platforms, thread-safe; about a microsecond per word.
 */
public final class HashingEmbedder implements Embedder {
  /** The default dimension, the same as all-MiniLM-L6-v2's. */
  public static final int DEFAULT_DIMENSION = 384;

  private final int dimension;

  public HashingEmbedder(int dimension) {
    if (dimension < 16 || dimension > 65_536) {
      throw MemLoopException.invalid("dimension", "must be in [16, 65536], got " + dimension);
    }
    this.dimension = dimension;
  }

  public HashingEmbedder() {
    this(DEFAULT_DIMENSION);
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String modelId() {
    return "hashing-v1-" + dimension;
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String t : texts) {
      if (t == null || t.isBlank()) {
        throw MemLoopException.invalid("text", "must not be blank");
      }
      out.add(embedOne(t));
    }
    return out;
  }

  private float[] embedOne(String text) {
    float[] v = new float[dimension];
    List<String> words = words(text);
    String previous = null;
    for (String w : words) {
      add(v, "w:" + w, 1.0f);
      if (previous != null) {
        add(v, "b:" + previous + " " + w, 1.0f);
      }
      String padded = "<" + w + ">";
      for (int i = 0; i + 3 <= padded.length(); i++) {
        add(v, "c:" + padded.substring(i, i + 3), 0.5f);
      }
      previous = w;
    }
    double norm = 0;
    for (float x : v) {
      norm += x * x;
    }
    if (norm == 0) { // no letters or digits at all: one fixed bucket, so the vector is still unit length
      v[0] = 1;
      return v;
    }
    float inv = (float) (1 / Math.sqrt(norm));
    for (int i = 0; i < v.length; i++) {
      v[i] *= inv;
    }
    return v;
  }

  private void add(float[] v, String feature, float weight) {
    long h = mix(fnv1a(feature));
    int bucket = (int) Long.remainderUnsigned(h, dimension);
    v[bucket] += (h >>> 63) == 0 ? weight : -weight;
  }

  /** Lowercase runs of letters and digits. */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    String lower = text.toLowerCase(Locale.ROOT);
    for (int i = 0; i < lower.length(); ) {
      int cp = lower.codePointAt(i);
      if (Character.isLetterOrDigit(cp)) {
        cur.appendCodePoint(cp);
      } else if (!cur.isEmpty()) {
        out.add(cur.toString());
        cur.setLength(0);
      }
      i += Character.charCount(cp);
    }
    if (!cur.isEmpty()) {
      out.add(cur.toString());
    }
    return out;
  }

  private static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x100000001b3L;
    }
    return h;
  }

  /** SplitMix64's finaliser: spreads FNV's low-entropy bits over all 64. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
