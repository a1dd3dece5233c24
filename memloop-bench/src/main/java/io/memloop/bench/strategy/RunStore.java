package io.memloop.bench.strategy;

import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import io.memloop.store.lucene.VectorFormat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Where an engine run of the benchmark keeps its memories: the in-memory store (the default: fast, and what every
 * reported table uses) or the embedded Lucene store in a vector format, as {@code memloop serve} keeps them, in a
 * temporary directory of its own that is deleted when the run ends. The Lucene store searches an HNSW graph and
 * syncs every reward to disk, so a run on it checks that a store and its vector format leave the learning as it is.
 *
 * @param format the Lucene store's vector format; null for the in-memory store
 */
public record RunStore(@Nullable VectorFormat format) {
  /** The in-memory store. */
  public static final RunStore MEMORY = new RunStore(null);

  /** The embedded Lucene store with vectors in {@code format}. */
  public static RunStore lucene(VectorFormat format) {
    return new RunStore(Objects.requireNonNull(format, "format"));
  }

  /** Whether this is the in-memory store. */
  public boolean inMemory() {
    return format == null;
  }

  /** {@code memory} or {@code lucene/FORMAT}, as reports name it. */
  public String label() {
    return format == null ? "memory" : "lucene/" + format.id();
  }

  /** A fresh, empty store and what to do once it is closed. */
  record Opened(MemoryStore store, Runnable cleanup) {}

  Opened open(int dimension) {
    if (format == null) {
      return new Opened(new InMemoryStore(dimension), () -> {});
    }
    Path dir;
    try {
      dir = Files.createTempDirectory("memloop-bench-");
    } catch (IOException e) {
      throw new UncheckedIOException("creating a temporary directory for a Lucene store", e);
    }
    try {
      LuceneStore store = LuceneStore.open(dir, dimension, LuceneStoreOptions.builder().vectorFormat(format).build());
      return new Opened(store, () -> deleteTree(dir));
    } catch (RuntimeException e) {
      deleteTree(dir);
      throw e;
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      // a temporary directory left behind is harmless; the OS cleans its temp area
    }
  }
}
