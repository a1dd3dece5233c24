package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.EmbeddingModel;
import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25: the store records its embedding model in {@code memloop.meta} (format v3). Stores written before
 * (metadata v1 and v2) have none: they open as before, unchanged, and adopt the model of the first engine that
 * opens them; from then on another model is refused.
 */
class ModelRecordTest {
  static final int DIM = 8;

  @TempDir Path tmp;

  /** A deterministic model of {@code DIM}-d vectors named {@code id}. */
  static Embedder model(String id) {
    return new Embedder() {
      @Override public int dimension() { return DIM; }
      @Override public String modelId() { return id; }
      @Override public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>();
        for (String t : texts) {
          out.add(randomUnit(new SplittableRandom(t.hashCode()), DIM));
        }
        return out;
      }
    };
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void oldFormatStore_opensUnchanged_andAdoptsTheModelItIsFirstOpenedWith(int version) throws IOException {
    Path dir = tmp.resolve("v" + version);
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      insert(store, "team-a", randomUnit(new SplittableRandom(1), DIM), "experience", 0);
    }
    downgrade(dir, version);
    byte[] oldMeta = Files.readAllBytes(dir.resolve(StoreFiles.META));

    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.model()).isEmpty();
    }
    if (version == 2) { // a v1 store is migrated on open (it gains an id); a v2 one is left as it was
      assertThat(Files.readAllBytes(dir.resolve(StoreFiles.META))).isEqualTo(oldMeta);
    }

    EmbeddingModel a = new EmbeddingModel("model-a", DIM);
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(dir, DIM)).embedder(model("model-a")).build()) {
      assertThat(loop.store().model()).contains(a);
      assertThat(loop.get("team-a", "m2")).isPresent();
    }
    StoreMeta meta = StoreMeta.read(dir.resolve(StoreFiles.META));
    assertThat(meta.formatVersion()).isEqualTo(StoreMeta.CURRENT_VERSION);
    assertThat(meta.model()).isEqualTo(a);
    assertThat(meta.storeId()).isNotNull();

    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.model()).contains(a);
      assertThat(store.get("team-a", "m2")).isPresent();
      assertThatThrownBy(() -> MemLoop.builder().store(store).embedder(model("model-b")).build())
          .isInstanceOfSatisfying(MemLoopException.class,
              e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.CONFLICT))
          .hasMessageContainingAll("'model-a' (8-d)", "'model-b' (8-d)");
    }
  }

  @Test
  void recordedModel_keepsTheSettingsFlags_andSettingsKeepTheModel() throws IOException {
    Path dir = tmp.resolve("a");
    EmbeddingModel a = new EmbeddingModel("model-a", DIM);
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      store.recordModel(a);
      store.saveSettings("team-a", java.util.Map.of("k1", "5"));
    }
    StoreMeta meta = StoreMeta.read(dir.resolve(StoreFiles.META));
    assertThat(meta.model()).isEqualTo(a);
    assertThat(meta.settingsRecorded()).isTrue();
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.model()).contains(a);
      assertThat(store.settings("team-a")).contains(java.util.Map.of("k1", "5"));
    }
  }

  /** Rewrites {@code dir}'s metadata in format {@code version} (1: no id or flags; 2: no model; 3: no vector format). */
  static void downgrade(Path dir, int version) throws IOException {
    StoreMeta meta = StoreMeta.read(dir.resolve(StoreFiles.META));
    ByteWriter w = new ByteWriter(128);
    w.putInt(StoreMeta.MAGIC).putInt(version).putInt(meta.dimension()).putInstant(meta.createdAt()).putString(meta.createdBy());
    if (version == 2) {
      w.putLong(meta.storeId().getMostSignificantBits()).putLong(meta.storeId().getLeastSignificantBits())
          .putByte(meta.settingsRecorded() ? 1 : 0);
    }
    if (version == 3) {
      w.putLong(meta.storeId().getMostSignificantBits()).putLong(meta.storeId().getLeastSignificantBits())
          .putByte((meta.settingsRecorded() ? 1 : 0) | (meta.model() != null ? 4 : 0));
      if (meta.model() != null) {
        w.putString(meta.model().id()).putInt(meta.model().dimension());
      }
    }
    CRC32C crc = new CRC32C();
    crc.update(w.array(), 0, w.length());
    w.putInt((int) crc.getValue());
    Files.write(dir.resolve(StoreFiles.META), w.toByteArray());
  }
}
