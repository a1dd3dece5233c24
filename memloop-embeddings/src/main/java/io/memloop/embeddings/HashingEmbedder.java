package io.memloop.embeddings;

import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import io.memloop.policy.TextChannel;
import java.util.ArrayList;
import java.util.List;

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
    return TextChannel.vector(text, dimension); // the engine's text similarity uses the same vector
  }
}
