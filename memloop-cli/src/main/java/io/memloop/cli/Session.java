package io.memloop.cli;

import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.MiniLmEmbedder;
import io.memloop.embeddings.OpenAiEmbedder;
import io.memloop.store.MemoryStore;
import io.memloop.store.lucene.LuceneStore;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Opens the store and engine a command works on, from its {@link EngineOptions}. */
final class Session {
  private Session() {}

  /**
   * Opens the engine. {@code create} allows creating a new store; {@code suppliedDimension} is the
   * length of an embedding the user passed, used as the new store's dimension when no other is set.
   */
  static MemLoop open(EngineOptions o, boolean create, @Nullable Integer suppliedDimension) {
    MemLoopConfig config = o.config(); // validate flags before touching the disk
    Embedder embedder = embedder(o);
    MemoryStore store;
    if (LuceneStore.exists(o.store)) {
      store = LuceneStore.open(o.store);
    } else if (create) {
      int dim = o.dimension != null ? o.dimension
          : suppliedDimension != null ? suppliedDimension
          : embedder != null ? embedder.dimension()
          : requireDimension();
      store = LuceneStore.open(o.store, dim);
    } else {
      throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, "--store",
          "--store: no MemLoop store at " + o.store.toAbsolutePath().normalize()
              + " (remember something first, or point --store at an existing store)");
    }
    boolean modelFits = embedder != null && embedder.dimension() == store.dimension();
    return MemLoop.builder().store(store).embedder(modelFits ? embedder : null).config(config).build();
  }

  private static int requireDimension() {
    throw MemLoopException.invalid("--dimension", "is required to create a store when --embedder none and no --embedding is given");
  }

  static @Nullable Embedder embedder(EngineOptions o) {
    return switch (o.embedder.toLowerCase(Locale.ROOT)) {
      case "minilm" -> new LazyEmbedder(MiniLmEmbedder.DIMENSION, MiniLmEmbedder.MODEL_ID, MiniLmEmbedder::create);
      case "none" -> null;
      case "openai" -> {
        if (o.openAiBaseUrl == null || o.openAiModel == null || o.openAiDimension == null) {
          throw MemLoopException.invalid("--embedder",
              "openai needs --openai-base-url, --openai-model and --openai-dimension");
        }
        String url = o.openAiBaseUrl;
        String model = o.openAiModel;
        int dim = o.openAiDimension;
        String apiKey = System.getenv("MEMLOOP_OPENAI_API_KEY");
        yield new LazyEmbedder(dim, "openai:" + model, () -> OpenAiEmbedder.builder()
            .baseUrl(url)
            .model(model)
            .dimension(dim)
            .apiKey(apiKey)
            .build());
      }
      default -> throw MemLoopException.invalid("--embedder",
          "unknown model '" + o.embedder + "' (expected minilm, openai or none)");
    };
  }
}
