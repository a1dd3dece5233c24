package io.memloop.embed;

import java.util.List;

/**
 * Turns texts into embeddings.
 *
 * <p><b>Thread safety:</b> implementations must allow concurrent calls. Batching is the caller's
 * tool for throughput: {@link #embedAll} should be much cheaper per text than {@link #embed}.
 *
 * <p>Failures are reported as {@link io.memloop.MemLoopException} with reason
 * {@code EMBEDDING_FAILED}.
 */
public interface Embedder extends AutoCloseable {

  /** Number of components of every returned vector. */
  int dimension();

  /** A stable name of the model, recorded with stores so a store is not read with another model. */
  String modelId();

  /** Embeddings of {@code texts}, in order. Vectors need not be normalised. */
  List<float[]> embedAll(List<String> texts);

  default float[] embed(String text) {
    return embedAll(List.of(text)).get(0);
  }

  @Override
  default void close() {}

  /**
   * How many equal-size blocks each vector is the concatenation of, one per model ({@code
   * io.memloop.embeddings.ConcatenatedEmbedder}); 1 for a single model. An engine built with this embedder splits
   * vectors into as many where {@link io.memloop.MemLoopConfig#similarityBlocks()} is 0 (every preset), so that Phase B
   * learns which block to trust.
   */
  default int blocks() {
    return 1;
  }
}
