package io.memloop.bench;

import io.memloop.embed.Embedder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic stand-in for a sentence model, so tests need no model file: signed feature hashing
 * of word unigrams and bigrams. On the ops catalogue it lands near MiniLM: sentences differing in
 * one word (another subject) measure about 0.86, twins differing in a phrase about 0.55 (MiniLM:
 * 0.74), unrelated tasks about 0.1.
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
