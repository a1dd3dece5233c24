package io.memloop.cli;

import io.memloop.Checks;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.MiniLmEmbedder;
import io.memloop.embeddings.OpenAiEmbedder;
import io.memloop.store.MemoryStore;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.lucene.VectorFormat;
import io.memloop.store.solr.SolrStore;
import io.memloop.store.solr.SolrStoreOptions;
import io.memloop.EmbeddingModel;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.IntSupplier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** Opens the store and engine a command works on, from its {@link EngineOptions}. */
final class Session {
  private Session() {}

  /**
   * Opens the engine. {@code create} allows creating a new store. {@code intent}, when the command
   * has one, was validated by the caller: its embedding's length is a new store's dimension when no
   * other is set, and a text-only intent needs a model that fits the store. Every option is checked
   * before the disk is touched, so a rejected call creates nothing.
   */
  static MemLoop open(EngineOptions o, boolean create, @Nullable Intent intent) {
    return open(o, create, intent, io.memloop.events.EventSink.NONE);
  }

  /** {@link #open(EngineOptions, boolean, Intent)}, the engine reporting to {@code also} as well as to its event log. */
  static MemLoop open(EngineOptions o, boolean create, @Nullable Intent intent, io.memloop.events.EventSink also) {
    MemLoopConfig config = o.config();
    LuceneStoreOptions options = o.storeOptions();
    Checks.requireNamespace(o.namespace);
    if (o.isSolrStore()) {
      SolrStoreOptions.parse(o.store, "--store");
      if (o.vectorFormat != null) {
        throw MemLoopException.invalid("--vector-format", "applies to the embedded store only (a SolrCloud collection's "
            + "vectors are as its schema says)");
      }
    } else {
      Path dir = storeDirectory(o);
      VectorFormat asked = options.vectorFormat();
      if (asked != null) {
        LuceneStore.recordedVectorFormat(dir).filter(f -> f != asked).ifPresent(f -> o.notice(
            "rewriting the index of " + o.storeLabel() + " from " + f + " to " + asked + " vectors, once (about a minute per "
                + "100,000 memories)"));
      }
    }
    o.checkEventLog();
    Embedder embedder = embedder(o);
    float[] supplied = intent == null ? null : intent.embedding();
    // A new store's dimension is checked against the intent before the store is made: a rejected call creates nothing.
    MemoryStore store = openStore(o.store, "--store", options,
        create ? () -> embeddable(requireFits(newStoreDimension(o, embedder, supplied),
            "the new store" + (o.dimension == null ? "" : " (--dimension " + o.dimension + ")"), intent, embedder), intent, embedder)
            : null);
    boolean modelFits = embedder != null && embedder.dimension() == store.dimension();
    io.memloop.events.EventSink events;
    try {
      requireDimension(o, store.dimension());
      requireFits(store.dimension(), "the store", intent, embedder);
      events = also == io.memloop.events.EventSink.NONE ? o.eventSink() : io.memloop.events.EventSink.all(o.eventSink(), also);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
    try {
      return o.engineBuilder(config).store(store).embedder(modelFits ? embedder : null).events(events).build();
    } catch (MemLoopException e) {
      MemLoopException refusal = e.reason() == MemLoopException.Reason.CONFLICT && "embedder".equals(e.field())
          && embedder != null ? otherModel(o, store, embedder, e) : e;
      closeQuietly(events);
      store.close();
      throw refusal;
    } catch (RuntimeException e) {
      closeQuietly(events);
      store.close();
      throw e;
    }
  }

  /**
   * The engine's refusal of a store recorded with another model, in the CLI's words: which {@code --embedder} opens the
   * store, and how to move it to the model asked for.
   */
  private static MemLoopException otherModel(EngineOptions o, MemoryStore store, Embedder embedder, MemLoopException e) {
    Optional<EmbeddingModel> recorded = store.model();
    if (recorded.isEmpty()) {
      return e;
    }
    EmbeddingModel asked = EmbeddingModel.of(embedder);
    return new MemLoopException(e.reason(), "--embedder", "--embedder: the store at " + o.storeLabel()
        + " holds vectors of model " + recorded.get() + ", not of model " + asked + " (--embedder " + o.embedder
        + "); give " + embedderFlags(recorded.get()) + ", or copy the store re-embedded with this model: memloop migrate "
        + "--from " + o.storeLabel() + " --to NEW_STORE --all --re-embed --embedder " + o.embedder, e);
  }

  /** The flags that make the CLI embed with {@code model}, as far as its name tells them. */
  static String embedderFlags(EmbeddingModel model) {
    String id = model.id();
    if (id.equals(MiniLmEmbedder.MODEL_ID)) {
      return "--embedder minilm";
    }
    if (id.equals(new io.memloop.embeddings.HashingEmbedder().modelId())) {
      return "--embedder hashing";
    }
    if (id.startsWith("openai:")) {
      return "--embedder openai --openai-model " + id.substring("openai:".length()) + " --openai-dimension "
          + model.dimension() + " (with its --openai-base-url)";
    }
    return "the embedder that made it";
  }

  private static void closeQuietly(io.memloop.events.@Nullable EventSink events) {
    if (events == null) {
      return;
    }
    try {
      events.close();
    } catch (Exception ignored) {
      // the refusal is what the user needs to see
    }
  }

  /**
   * The store at {@code location} (a directory or a Solr location; {@code field} names it in errors): an existing one
   * as it is (it keeps its dimension); a missing one created with the dimension {@code dimensionForNew} gives (asked
   * only then), or, without it, NOT_FOUND.
   */
  static MemoryStore openStore(String location, String field, LuceneStoreOptions options, @Nullable IntSupplier dimensionForNew) {
    if (SolrStoreOptions.isSolrLocation(location)) {
      SolrStoreOptions solr = SolrStoreOptions.parse(location, field);
      try {
        return SolrStore.open(solr, OptionalInt.empty());
      } catch (MemLoopException e) {
        if (dimensionForNew == null || e.reason() != MemLoopException.Reason.NOT_FOUND) {
          throw e;
        }
      }
      return SolrStore.open(solr, OptionalInt.of(dimensionForNew.getAsInt()));
    }
    Path dir = Path.of(location);
    if (LuceneStore.exists(dir)) {
      try {
        return LuceneStore.open(dir, options);
      } catch (MemLoopException e) {
        throw withUrlHint(e);
      }
    }
    if (dimensionForNew == null) {
      throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, field, field + ": no MemLoop store at "
          + dir.toAbsolutePath().normalize() + " (remember something first, or point " + field + " at an existing store)");
    }
    return LuceneStore.open(dir, dimensionForNew.getAsInt(), options);
  }

  /**
   * The store's "in use by another process" failure, telling how to work beside that process: a data command can go
   * through a running {@code memloop serve} with {@code --url}. Any other failure as it is.
   */
  static MemLoopException withUrlHint(MemLoopException e) {
    String m = String.valueOf(e.getMessage());
    if (e.reason() != MemLoopException.Reason.STORE_UNAVAILABLE || !m.contains("in use by another process")) {
      return e;
    }
    return new MemLoopException(e.reason(), e.field(), m + "; if it is 'memloop serve', run the command through it:"
        + " --url http://HOST:PORT (or " + RemoteOptions.URL_ENV + "), with its API key in " + RemoteOptions.KEY_ENV
        + " or --key-file", e);
  }

  /**
   * {@code --dimension}, when given, must be the dimension of the store the command works on: it only chooses a new
   * store's dimension and is never ignored silently.
   */
  static void requireDimension(EngineOptions o, int storeDimension) {
    if (o.dimension != null && o.dimension != storeDimension) {
      throw MemLoopException.invalid("--dimension", "is " + o.dimension + " but the store at " + o.storeLabel() + " holds "
          + storeDimension + "-d vectors (--dimension only chooses a new store's dimension; omit it)");
    }
  }

  /** {@code dimension}, after checking that {@code intent} can be searched in {@code what} holding such vectors. */
  private static int requireFits(int dimension, String what, @Nullable Intent intent, @Nullable Embedder embedder) {
    if (intent == null) {
      return dimension;
    }
    float[] supplied = intent.embedding();
    if (supplied != null && supplied.length != dimension) {
      throw MemLoopException.invalid("--embedding", "has " + supplied.length + " dimensions but " + what + " holds "
          + dimension + "-d vectors");
    }
    if (supplied == null && (embedder == null || embedder.dimension() != dimension)) {
      throw MemLoopException.invalid("--intent", "cannot be embedded: " + what + " holds " + dimension
          + "-d vectors and " + (embedder == null ? "--embedder is none" : "the model gives " + embedder.dimension() + "-d vectors")
          + "; give --embedding, or the --embedder the store was made with");
    }
    return dimension;
  }

  /**
   * A new store's dimension, once the intent that needs the model has been embedded: a model that fails (exit 6) must
   * fail before the store is made. The engine embeds the text again; this costs one embedding per store, at its birth.
   */
  private static int embeddable(int dimension, @Nullable Intent intent, @Nullable Embedder embedder) {
    if (intent != null && intent.embedding() == null && intent.text() != null && embedder != null) {
      embedder.embed(intent.text());
    }
    return dimension;
  }

  private static int newStoreDimension(EngineOptions o, @Nullable Embedder embedder, float @Nullable [] supplied) {
    return o.dimension != null ? o.dimension
        : supplied != null ? supplied.length
        : embedder != null ? embedder.dimension()
        : requireDimension();
  }

  /** {@code --store}: a directory, or a path where one can be made; never empty. */
  static Path storeDirectory(EngineOptions o) {
    if (o.isSolrStore()) {
      throw MemLoopException.invalid("--store", "this command works on an embedded store directory, not a SolrCloud "
          + "collection (copy namespaces between the two with 'memloop migrate')");
    }
    String s = o.store;
    if (s.isBlank()) {
      throw MemLoopException.invalid("--store", "must not be empty");
    }
    Path dir = o.storePath();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw MemLoopException.invalid("--store", dir + " is not a directory");
    }
    if (o.dimension != null && (o.dimension < 1 || o.dimension > Embeddings.MAX_DIMENSION)) {
      throw MemLoopException.invalid("--dimension", "must be in [1, " + Embeddings.MAX_DIMENSION + "], got " + o.dimension);
    }
    return dir;
  }

  private static int requireDimension() {
    throw MemLoopException.invalid("--dimension", "is required to create a store when --embedder none and no --embedding is given");
  }

  static @Nullable Embedder embedder(EngineOptions o) {
    return switch (o.embedder.toLowerCase(Locale.ROOT)) {
      case "minilm" -> new LazyEmbedder(MiniLmEmbedder.DIMENSION, MiniLmEmbedder.MODEL_ID, MiniLmEmbedder::create);
      case "hashing" -> new io.memloop.embeddings.HashingEmbedder();
      case "minilm+hashing" -> new io.memloop.embeddings.ConcatenatedEmbedder(java.util.List.of(
          new LazyEmbedder(MiniLmEmbedder.DIMENSION, MiniLmEmbedder.MODEL_ID, MiniLmEmbedder::create),
          new io.memloop.embeddings.HashingEmbedder()));
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
          "unknown model '" + o.embedder + "' (expected minilm, openai, hashing, minilm+hashing or none)");
    };
  }
}
