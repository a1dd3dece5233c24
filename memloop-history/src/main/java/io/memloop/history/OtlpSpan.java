package io.memloop.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One span as OTLP states it, with no meaning attached ({@link OtlpJsonDecoder} makes it; {@link OtlpTraces} reads
 * GenAI runs out of it). Attribute values are OTLP {@code AnyValue}s as JSON values: an empty one as null, bytes
 * as their base64 text, an int64 as a number.
 *
 * @param file the name of the file the span was read from
 * @param line the line of that file (for a {@code *.json} file, the line where the request starts)
 * @param path where in the request, e.g. {@code resourceSpans[0].scopeSpans[1].spans[2]}
 * @param traceId 32 lowercase hex characters, never all zero
 * @param spanId 16 lowercase hex characters, never all zero
 * @param parentId null for a root (absent, empty or all zero)
 * @param name empty when absent
 * @param startNanos {@code startTimeUnixNano}; 0 when absent
 * @param attributes by key, in the order given; keys unique
 * @param events the span events, in the order given
 * @param status {@code status.code}: {@link #UNSET}, {@link #OK} or {@link #ERROR}
 * @param statusMessage empty when absent
 */
record OtlpSpan(String file, int line, String path, String traceId, String spanId, @Nullable String parentId,
    String name, long startNanos, Map<String, JsonNode> attributes, List<Event> events, int status,
    String statusMessage) {
  /** {@code STATUS_CODE_UNSET}. */
  static final int UNSET = 0;
  /** {@code STATUS_CODE_OK}. */
  static final int OK = 1;
  /** {@code STATUS_CODE_ERROR}. */
  static final int ERROR = 2;

  /** A span event: its name (empty when absent) and attributes. */
  record Event(String name, Map<String, JsonNode> attributes) {}
}
