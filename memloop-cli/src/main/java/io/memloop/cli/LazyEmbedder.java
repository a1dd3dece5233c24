package io.memloop.cli;

import io.memloop.embed.Embedder;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Loads the real model on first use: commands that get caller-supplied embeddings, or that only
 * reward or count, never pay for loading the ONNX runtime.
 */
final class LazyEmbedder implements Embedder {
  private final int dimension;
  private final String modelId;
  private final Supplier<Embedder> factory;
  private @Nullable Embedder delegate;

  LazyEmbedder(int dimension, String modelId, Supplier<Embedder> factory) {
    this.dimension = dimension;
    this.modelId = modelId;
    this.factory = factory;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public String modelId() {
    return modelId;
  }

  @Override
  public List<float[]> embedAll(List<String> texts) {
    return delegate().embedAll(texts);
  }

  private synchronized Embedder delegate() {
    if (delegate == null) {
      delegate = factory.get();
    }
    return delegate;
  }

  @Override
  public synchronized void close() {
    if (delegate != null) {
      delegate.close();
    }
  }
}
