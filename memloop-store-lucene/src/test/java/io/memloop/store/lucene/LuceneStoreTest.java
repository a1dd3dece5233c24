package io.memloop.store.lucene;

import io.memloop.store.MemoryStore;
import io.memloop.store.MemoryStoreContract;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared store contract. Commit, refresh and checkpoint intervals are small so that the suite
 * crosses index commits, searcher refreshes and log rotations, not just the in-memory tail.
 */
class LuceneStoreTest extends MemoryStoreContract {
  @TempDir Path dir;

  static final LuceneStoreOptions SMALL = LuceneStoreOptions.builder()
      .commitEveryInserts(64).refreshEveryInserts(16).checkpointEveryBytes(64 << 10).build();

  @Override
  protected MemoryStore newStore(int dimension) {
    return LuceneStore.open(dir.resolve("store"), dimension, SMALL);
  }

  @Override
  protected Optional<MemoryStore> reopen(MemoryStore store) {
    store.close();
    return Optional.of(LuceneStore.open(dir.resolve("store"), store.dimension(), SMALL));
  }
}
