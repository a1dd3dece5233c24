package io.memloop.store.lucene;

import io.memloop.Checks;
import io.memloop.MemLoopException;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.lucene.util.quantization.QuantizedByteVectorValues.ScalarEncoding;
import org.jspecify.annotations.Nullable;

/**
 * How the HNSW graph holds the group vectors it searches. Every format also keeps the full float vectors:
 * a search walks the graph comparing quantized vectors, asks for {@link #oversample} times more candidates than
 * a float graph would, and then rescores those candidates exactly with the float vectors, so the similarities a
 * retrieval sees (and its similarity gate) are exact whatever the format. Quantized formats trade index size on
 * disk (float vectors plus the quantized copy) for search cost: the graph walk reads 4 to 32 times fewer bytes
 * per comparison. Measured in BENCHMARKS.md ("Quantized vectors").
 *
 * <p>The store records its format in its metadata when created; stores created before formats existed are
 * {@link #FLOAT32}. Opening a store with another format rewrites its index in that format once.
 */
public enum VectorFormat {
  /** Lucene's float HNSW graph: 4 bytes per dimension searched. */
  FLOAT32("float32", 0, null, 1),
  /** 8-bit scalar quantization (Lucene's optimized scalar quantizer): 1 byte per dimension. */
  INT8("int8", 1, ScalarEncoding.UNSIGNED_BYTE, 1),
  /** 7-bit scalar quantization: 1 byte per dimension, a cheaper signed dot product than {@link #INT8}. */
  INT7("int7", 2, ScalarEncoding.SEVEN_BIT, 1),
  /** 4-bit scalar quantization: half a byte per dimension. */
  INT4("int4", 3, ScalarEncoding.PACKED_NIBBLE, 2),
  /** Better binary quantization with 2 bits per dimension (queries at 4 bits). */
  BBQ2("bbq2", 4, ScalarEncoding.DIBIT_QUERY_NIBBLE, 3),
  /** Better binary quantization, 1 bit per dimension (queries at 4 bits): the smallest graph vectors. */
  BBQ1("bbq1", 5, ScalarEncoding.SINGLE_BIT_QUERY_NIBBLE, 5);

  /** The format of new stores when none is asked for. */
  public static final VectorFormat DEFAULT = FLOAT32;

  private final String id;
  private final int code;
  private final @Nullable ScalarEncoding encoding;
  private final int oversample;

  VectorFormat(String id, int code, @Nullable ScalarEncoding encoding, int oversample) {
    this.id = id;
    this.code = code;
    this.encoding = encoding;
    this.oversample = oversample;
  }

  /** The name users type ({@code --vector-format int8}) and the store reports. */
  public String id() {
    return id;
  }

  /** The byte recorded in the store's metadata; never changes for a format. */
  int code() {
    return code;
  }

  /** Lucene's scalar encoding, or null for {@link #FLOAT32}. */
  @Nullable ScalarEncoding encoding() {
    return encoding;
  }

  /** How many more HNSW candidates than a float graph this format's search asks for before exact rescoring. */
  int oversample() {
    return oversample;
  }

  /** The format of a metadata code, or null for an unknown code. */
  static @Nullable VectorFormat ofCode(int code) {
    for (VectorFormat f : values()) {
      if (f.code == code) {
        return f;
      }
    }
    return null;
  }

  /**
   * The format named {@code text} ({@link #id()}, case-insensitive).
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code field} for an unknown name
   */
  public static VectorFormat parse(String field, String text) {
    String t = text.strip().toLowerCase(Locale.ROOT);
    for (VectorFormat f : values()) {
      if (f.id.equals(t)) {
        return f;
      }
    }
    throw MemLoopException.invalid(field, "'" + Checks.abbreviate(text) + "' is not a vector format (one of "
        + Arrays.stream(values()).map(VectorFormat::id).collect(Collectors.joining(", ")) + ")");
  }

  @Override
  public String toString() {
    return id;
  }
}
