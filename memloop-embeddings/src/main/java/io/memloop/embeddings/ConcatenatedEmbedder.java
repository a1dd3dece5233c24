package io.memloop.embeddings;

import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.List;

/**
 * Several embedding models at once: each text's vector is the concatenation of one block per model, each block
 * L2-normalised and scaled by {@code 1/sqrt(blocks)}, so the whole vector has unit norm and its cosine to another is
 * the mean of the blocks' cosines. Phase A recalls by that mean; with {@code similarityBlocks} set to the number of
 * models, Phase B weighs each block by what the namespace's rewards taught it (a dense model tells a paraphrase from
 * another task, a lexical one a changed word or number; which matters more differs from one domain to another).
 *
 * <p>Every block must have the same dimension, so that the engine can split a vector without knowing the models.
 * The model id is the models' ids joined by {@code +}. Thread-safe when every model is.
 */
public final class ConcatenatedEmbedder implements Embedder {
  private final List<Embedder> models;
  private final int block;

  /**
   * @param models two or more models of one dimension, in block order; closed with this embedder
   * @throws MemLoopException INVALID_ARGUMENT naming {@code embedder} when fewer than two are given or dimensions differ
   */
  public ConcatenatedEmbedder(List<Embedder> models) {
    if (models.size() < 2) {
      throw MemLoopException.invalid("embedder", "a concatenation needs two models or more, got " + models.size());
    }
    this.models = List.copyOf(models);
    this.block = models.get(0).dimension();
    for (Embedder m : models) {
      if (m.dimension() != block) {
        throw MemLoopException.invalid("embedder", "every model of a concatenation must have one dimension: '"
            + models.get(0).modelId() + "' has " + block + ", '" + m.modelId() + "' has " + m.dimension());
      }
    }
  }

  /** How many blocks each vector has: the {@code similarityBlocks} knob's value for this embedder. */
  @Override
  public int blocks() {
    return models.size();
  }

  @Override
  public int dimension() {
    return block * models.size();
  }

  @Override
  public String modelId() {
    StringBuilder id = new StringBuilder();
    for (Embedder m : models) {
      id.append(id.isEmpty() ? "" : "+").append(m.modelId());
    }
    return id.toString();
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i++) {
      out.add(new float[dimension()]);
    }
    double scale = 1 / Math.sqrt(models.size());
    for (int b = 0; b < models.size(); b++) {
      List<float[]> part = models.get(b).embedAll(texts);
      for (int i = 0; i < texts.size(); i++) {
        float[] v = part.get(i);
        double norm = 0;
        for (float f : v) {
          norm += (double) f * f;
        }
        double k = norm == 0 ? 0 : scale / Math.sqrt(norm);
        float[] o = out.get(i);
        for (int j = 0; j < block; j++) {
          o[b * block + j] = (float) (v[j] * k);
        }
      }
    }
    return out;
  }

  @Override
  public void close() {
    for (Embedder m : models) {
      m.close();
    }
  }
}
