package io.memloop.store.lucene;

import static io.memloop.store.lucene.StoreFixtures.insert;
import static io.memloop.store.lucene.StoreFixtures.randomUnit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.store.IntentMatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The index's vector format: recorded when a store is created, kept on reopen, converted when asked, old stores float. */
class VectorFormatTest {
  private static final int DIM = 16;
  private static final int N = 300; // over Lucene's brute-force threshold: a real graph

  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(VectorFormat.class)
  void newStore_recordsItsFormat_andKeepsItWhenReopenedWithoutOne(VectorFormat format) throws IOException {
    Path dir = tmp.resolve(format.id());
    List<float[]> vectors = fill(dir, LuceneStoreOptions.builder().vectorFormat(format).build());
    assertThat(StoreMeta.read(dir.resolve(StoreFiles.META)).vectorFormat()).isEqualTo(format);
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.vectorFormat()).isEqualTo(format);
      assertExactSelfMatches(store, vectors);
    }
    assertThat(segmentFormats(dir)).as("segments written in %s", format)
        .containsOnly(format == VectorFormat.FLOAT32 ? "Lucene99HnswVectorsFormat" : org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat.NAME);
  }

  @Test
  void newStore_withoutAFormat_getsTheDefault() throws IOException {
    Path dir = tmp.resolve("default");
    fill(dir, LuceneStoreOptions.defaults());
    assertThat(StoreMeta.read(dir.resolve(StoreFiles.META)).vectorFormat()).isEqualTo(VectorFormat.DEFAULT);
  }

  @Test
  void anotherFormat_isRecorded_andTheIndexRewrittenInIt_withNothingLost() throws IOException {
    Path dir = tmp.resolve("convert");
    List<float[]> vectors = fill(dir, LuceneStoreOptions.builder().vectorFormat(VectorFormat.FLOAT32).build());
    try (LuceneStore store = LuceneStore.open(dir, LuceneStoreOptions.builder().vectorFormat(VectorFormat.INT4).build())) {
      assertThat(store.vectorFormat()).isEqualTo(VectorFormat.INT4);
      assertExactSelfMatches(store, vectors);
    }
    assertThat(StoreMeta.read(dir.resolve(StoreFiles.META)).vectorFormat()).isEqualTo(VectorFormat.INT4);
    assertThat(segmentFormats(dir)).containsOnly(org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat.NAME);
    try (LuceneStore store = LuceneStore.open(dir)) { // and back, by the recorded format
      assertThat(store.vectorFormat()).isEqualTo(VectorFormat.INT4);
      assertExactSelfMatches(store, vectors);
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 3})
  void storeOfAnEarlierFormat_isFloat32_andUpgradedOnlyWhenItsMetadataIsRewritten(int version) throws IOException {
    Path dir = tmp.resolve("v" + version);
    List<float[]> vectors = fill(dir, LuceneStoreOptions.builder().vectorFormat(VectorFormat.FLOAT32).build());
    ModelRecordTest.downgrade(dir, version);
    byte[] old = Files.readAllBytes(dir.resolve(StoreFiles.META));
    try (LuceneStore store = LuceneStore.open(dir)) {
      assertThat(store.vectorFormat()).isEqualTo(VectorFormat.FLOAT32);
      assertExactSelfMatches(store, vectors);
    }
    assertThat(Files.readAllBytes(dir.resolve(StoreFiles.META))).isEqualTo(old);
    try (LuceneStore store = LuceneStore.open(dir, LuceneStoreOptions.builder().vectorFormat(VectorFormat.INT8).build())) {
      assertThat(store.vectorFormat()).isEqualTo(VectorFormat.INT8);
      assertExactSelfMatches(store, vectors);
    }
    StoreMeta meta = StoreMeta.read(dir.resolve(StoreFiles.META));
    assertThat(meta.formatVersion()).isEqualTo(StoreMeta.CURRENT_VERSION);
    assertThat(meta.vectorFormat()).isEqualTo(VectorFormat.INT8);
  }

  @Test
  void unknownFormatCode_isReportedAsDamage_notGuessed() throws IOException {
    Path dir = tmp.resolve("unknown");
    fill(dir, LuceneStoreOptions.defaults());
    Path meta = dir.resolve(StoreFiles.META);
    byte[] b = Files.readAllBytes(meta);
    b[b.length - 5] = 99; // the format byte, just before the checksum
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b, 0, b.length - 4);
    java.nio.ByteBuffer.wrap(b, b.length - 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt((int) crc.getValue());
    Files.write(meta, b);
    assertThatThrownBy(() -> StoreMeta.read(meta)).isInstanceOf(MemLoopException.class)
        .hasMessageContaining("unknown vector format 99");
  }

  @Test
  void parse_namesTheFieldAndTheChoices() {
    assertThat(VectorFormat.parse("vectorFormat", " INT8 ")).isEqualTo(VectorFormat.INT8);
    assertThatThrownBy(() -> VectorFormat.parse("--vector-format", "int3"))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT))
        .hasMessageContainingAll("--vector-format", "'int3'", "float32, int8, int7, int4, bbq2, bbq1");
    assertThatThrownBy(() -> LuceneStoreOptions.builder().searchOversample(65).build())
        .hasMessageContaining("searchOversample");
  }

  /** N memories of random unit vectors, each its own intent, in a store opened with {@code options}, force-merged. */
  private static List<float[]> fill(Path dir, LuceneStoreOptions options) {
    SplittableRandom rnd = new SplittableRandom(7);
    List<float[]> vectors = new ArrayList<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM, options)) {
      for (int i = 0; i < N; i++) {
        float[] v = randomUnit(rnd, DIM);
        vectors.add(v);
        insert(store, "ns", v, "e" + i, 0);
      }
      store.forceMerge(1);
    }
    return vectors;
  }

  /** Every stored vector finds itself first with its exact similarity (rescoring makes quantized searches exact). */
  private static void assertExactSelfMatches(LuceneStore store, List<float[]> vectors) {
    assertThat(store.counts("ns", java.time.Instant.now()).memories()).isEqualTo(vectors.size());
    for (int i = 0; i < vectors.size(); i += 7) {
      List<IntentMatch> hits = store.recall("ns", vectors.get(i), 3, -1);
      assertThat(hits.getFirst().memories().getFirst().experience()).isEqualTo("e" + i);
      assertThat(hits.getFirst().similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    }
  }

  /** The vector format name of every segment's vector field (each segment is read in the format that wrote it). */
  private static List<String> segmentFormats(Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(dir.resolve("index"));
        org.apache.lucene.index.DirectoryReader r = org.apache.lucene.index.DirectoryReader.open(d)) {
      for (org.apache.lucene.index.LeafReaderContext leaf : r.leaves()) {
        org.apache.lucene.index.FieldInfo f = leaf.reader().getFieldInfos().fieldInfo(IndexView.GROUP_VECTOR);
        if (f != null) {
          out.add(f.getAttribute("PerFieldKnnVectorsFormat.format"));
        }
      }
    }
    assertThat(out).as("segments with vectors").isNotEmpty();
    return out;
  }
}
