package io.memloop;

/**
 * The embedding model that made a store's vectors: its stable name ({@link io.memloop.embed.Embedder#modelId()})
 * and the number of components of its vectors. A store records the model it was first opened with, and the engine
 * refuses to open it with another one ({@link MemLoop.Builder#build()}): vectors of two models share no geometry,
 * so a search mixing them finds nothing or noise without any error.
 *
 * @param id the model's stable name: single-line text of 1 to {@value #MAX_ID_CHARS} characters
 * @param dimension the number of components of the model's vectors, at least 1
 */
public record EmbeddingModel(String id, int dimension) {
  /** The longest model name a store records. */
  public static final int MAX_ID_CHARS = 256;

  public EmbeddingModel {
    if (id == null || id.isBlank() || id.length() > MAX_ID_CHARS || id.chars().anyMatch(Character::isISOControl)) {
      throw MemLoopException.invalid("model.id",
          "must be single-line text of 1 to " + MAX_ID_CHARS + " characters, got '" + Checks.abbreviate(id) + "'");
    }
    if (dimension < 1) {
      throw MemLoopException.invalid("model.dimension", "must be at least 1, got " + dimension);
    }
  }

  /** The model of {@code embedder}: its {@code modelId()} and {@code dimension()}. */
  public static EmbeddingModel of(io.memloop.embed.Embedder embedder) {
    return new EmbeddingModel(embedder.modelId(), embedder.dimension());
  }

  /**
   * This model, after checking that it can have made the vectors of a store of {@code storeDimension} components
   * (for {@link io.memloop.store.MemoryStore#recordModel}).
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code model} when the dimensions differ
   */
  public EmbeddingModel requireFits(int storeDimension) {
    if (dimension != storeDimension) {
      throw MemLoopException.invalid("model", "model " + this + " gives " + dimension
          + "-d vectors but the store holds " + storeDimension + "-d vectors");
    }
    return this;
  }

  /** How messages name the model: {@code 'hashing-v1-384' (384-d)}. */
  @Override
  public String toString() {
    return "'" + id + "' (" + dimension + "-d)";
  }
}
