package io.memloop.bench;

import io.memloop.embed.Embedder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic stand-in for a sentence model, so tests need no model file: signed feature hashing
 * of word unigrams and bigrams. Swapping one word of a twelve-word sentence changes one unigram and
 * two bigrams, which keeps near-identical sentences close (cosine about 0.8–0.9) and unrelated ones
 * near 0, like MiniLM does for the ops tasks.
 */
final class HashingEmbedder implements Embedder {
  private final int dimension;

  HashingEmbedder(int dimension) {
    this.dimension = dimension;
  }

  HashingEmbedder() {
    this(64);
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String modelId() {
    return "hashing-bow-" + dimension;
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      out.add(embedOne(text));
    }
    return out;
  }

  private float[] embedOne(String text) {
    String[] words = text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+");
    float[] v = new float[dimension];
    String previous = null;
    for (String w : words) {
      if (w.isEmpty()) {
        continue;
      }
      add(v, w);
      if (previous != null) {
        add(v, previous + " " + w);
      }
      previous = w;
    }
    v[0] += 1e-3f; // never the zero vector
    return v;
  }

  private void add(float[] v, String feature) {
    long h = Seeds.mix(fnv1a(feature));
    int slot = (int) Math.floorMod(h, (long) dimension);
    v[slot] += (h >>> 63) == 0 ? 1f : -1f;
  }

  private static long fnv1a(String s) {
    long h = 0xcbf29ce484222325L;
    for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ b) * 0x100000001b3L;
    }
    return h;
  }
}
