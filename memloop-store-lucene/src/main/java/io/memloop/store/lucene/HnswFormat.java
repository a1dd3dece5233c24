package io.memloop.store.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene104.Lucene104Codec;
import org.apache.lucene.codecs.lucene104.Lucene104HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Lucene's HNSW format of a {@link VectorFormat} ({@link Lucene99HnswVectorsFormat} for float vectors, {@link
 * Lucene104HnswScalarQuantizedVectorsFormat} for the quantized ones) with our graph parameters and a dimension
 * cap of {@link StoreMeta#MAX_DIMENSION} instead of Lucene's 1024 (common embedding models have 1536 or 3072
 * dimensions). It writes under Lucene's own format name, so readers resolve each segment to the stock format
 * that wrote it through SPI (an index may hold segments of several formats while it is being converted); the
 * graph parameters and the quantization only matter when writing.
 */
final class HnswFormat extends KnnVectorsFormat {
  private final KnnVectorsFormat delegate;

  HnswFormat(VectorFormat vectors, int maxConn, int beamWidth) {
    this(vectors.encoding() == null
        ? new Lucene99HnswVectorsFormat(maxConn, beamWidth)
        : new Lucene104HnswScalarQuantizedVectorsFormat(vectors.encoding(), maxConn, beamWidth));
  }

  private HnswFormat(KnnVectorsFormat delegate) {
    super(delegate.getName());
    this.delegate = delegate;
  }

  /** The codec the store writes with: Lucene's current default with this vector format. */
  static Lucene104Codec codec(VectorFormat vectors, int maxConn, int beamWidth) {
    HnswFormat format = new HnswFormat(vectors, maxConn, beamWidth);
    return new Lucene104Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return format;
      }
    };
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    return delegate.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return delegate.fieldsReader(state);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return StoreMeta.MAX_DIMENSION;
  }

  @Override
  public String toString() {
    return "HnswFormat(" + delegate + ", maxDimensions=" + StoreMeta.MAX_DIMENSION + ")";
  }
}
