package io.memloop.history;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One log record as OTLP states it, with no meaning attached ({@link OtlpJsonDecoder} makes it, and only for the
 * events its reader asked for). Attribute values and the body are OTLP {@code AnyValue}s as JSON values.
 *
 * @param file the name of the file the record was read from
 * @param line the line of that file (for a {@code *.json} file, the line where the request starts)
 * @param path where in the request, e.g. {@code resourceLogs[0].scopeLogs[0].logRecords[3]}
 * @param traceId 32 lowercase hex characters, never all zero (a record without one is not decoded)
 * @param spanId 16 lowercase hex characters; null when absent, empty or all zero
 * @param attributes by key, in the order given; keys unique
 * @param body null (a JSON null) when absent
 */
record OtlpLogRecord(String file, int line, String path, String traceId, @Nullable String spanId,
    Map<String, JsonNode> attributes, JsonNode body) {}
