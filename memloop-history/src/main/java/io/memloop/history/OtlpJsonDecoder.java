package io.memloop.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Decodes OTLP JSON requests ({@code ExportTraceServiceRequest} and {@code ExportLogsServiceRequest} bodies, as the
 * Collector's {@code file} exporter writes them) into {@link OtlpSpan}s and {@link OtlpLogRecord}s: the OTLP
 * encoding (ids in hex, int64 and nanoseconds as decimal strings, {@code AnyValue}, status codes by number or
 * name) checked and undone, and nothing interpreted. What a span means is {@link OtlpTraces}' business.
 *
 * <p>Malformed input never throws: a bad request level, span or log record is added to the skipped list with its
 * file, line and the path and problem of the first bad field, and the rest is still read. A {@link Sink} may
 * refuse a record the same way, by throwing {@link Malformed}. Not thread-safe: one decoder per input.
 */
final class OtlpJsonDecoder {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> ANY_VALUE_KINDS =
      List.of("stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue");
  private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");

  /** Receives each decoded span and log record, in reading order. */
  interface Sink {
    /**
     * Checks a span event as soon as it is decoded, before the rest of its span (so that the first bad field in
     * reading order is the one reported); throws to leave the span out as malformed.
     */
    void checkEvent(OtlpSpan.Event event, String path) throws Malformed;

    /** Takes a span; throws to leave it out as malformed. */
    void span(OtlpSpan span) throws Malformed;

    /** Takes a log record of an event that was asked for; throws to leave it out as malformed. */
    void logRecord(OtlpLogRecord record) throws Malformed;
  }

  /** A malformed field: its path and the problem; the record holding it is left out. */
  static final class Malformed extends Exception {
    Malformed(String path, String problem) {
      super(path + ": " + problem, null, false, false);
    }
  }

  private final List<EventLogImport.Skipped> skipped;
  private final Predicate<String> logEvents;
  private final String whyTraced;
  private final Sink sink;

  /**
   * @param logEvents the event names of the log records to decode ({@code eventName}, or an {@code event.name}
   *     attribute); every other log record is passed over unread
   * @param whyTraced why those log records must name a trace (OTLP makes it optional): the reason a record without
   *     one is left out with
   */
  OtlpJsonDecoder(List<EventLogImport.Skipped> skipped, Predicate<String> logEvents, String whyTraced, Sink sink) {
    this.skipped = skipped;
    this.logEvents = logEvents;
    this.whyTraced = whyTraced;
    this.sink = sink;
  }

  /** One request: a trace request, a log request (its records of the events asked for), or both. */
  void request(String file, int line, JsonNode doc) {
    if (!doc.isObject()) {
      skip(file, line, "not a JSON object");
      return;
    }
    boolean hasSpans = doc.has("resourceSpans");
    boolean hasLogs = doc.has("resourceLogs");
    if (!hasSpans && !hasLogs) {
      skip(file, line, "no resourceSpans or resourceLogs: not an OTLP trace or log request");
      return;
    }
    if (hasSpans) {
      walk(file, line, doc, "resourceSpans", "scopeSpans", "spans", this::span);
    }
    if (hasLogs) {
      walk(file, line, doc, "resourceLogs", "scopeLogs", "logRecords", this::logRecord);
    }
  }

  /** Receives one span or log record of a request with its path. */
  @FunctionalInterface
  private interface RecordSink {
    void record(String file, int line, JsonNode node, String path) throws Malformed;
  }

  /** Visits {@code doc.l1[i].l2[j].l3[k]}; a malformed level is skipped with its path, the rest still read. */
  private void walk(String file, int line, JsonNode doc, String l1, String l2, String l3, RecordSink each) {
    List<JsonNode> outer;
    try {
      outer = array(doc, l1, l1);
    } catch (Malformed m) {
      skip(file, line, m.getMessage());
      return;
    }
    for (int i = 0; i < outer.size(); i++) {
      String p1 = l1 + "[" + i + "]";
      try {
        List<JsonNode> scopes = array(object(outer.get(i), p1), l2, p1 + "." + l2);
        for (int j = 0; j < scopes.size(); j++) {
          String p2 = p1 + "." + l2 + "[" + j + "]";
          try {
            List<JsonNode> records = array(object(scopes.get(j), p2), l3, p2 + "." + l3);
            for (int k = 0; k < records.size(); k++) {
              String p3 = p2 + "." + l3 + "[" + k + "]";
              try {
                each.record(file, line, records.get(k), p3);
              } catch (Malformed m) {
                skip(file, line, m.getMessage());
              }
            }
          } catch (Malformed m) {
            skip(file, line, m.getMessage());
          }
        }
      } catch (Malformed m) {
        skip(file, line, m.getMessage());
      }
    }
  }

  // ---------------------------------------------------------------- spans and log records

  private void span(String file, int line, JsonNode s, String path) throws Malformed {
    object(s, path);
    String traceId = Objects.requireNonNull(hexId(s, "traceId", 32, path, true));
    String spanId = Objects.requireNonNull(hexId(s, "spanId", 16, path, true));
    String parentId = hexId(s, "parentSpanId", 16, path, false);
    String name = optionalText(s, "name", path);
    long start = nanos(s, "startTimeUnixNano", path);
    nanos(s, "endTimeUnixNano", path);
    Map<String, JsonNode> attrs = attributes(s, path);
    List<OtlpSpan.Event> events = events(s, path);
    JsonNode status = s.get("status");
    int code = OtlpSpan.UNSET;
    String message = "";
    if (status != null && !status.isNull()) {
      object(status, path + ".status");
      code = statusCode(status.get("code"), path + ".status.code");
      message = optionalText(status, "message", path + ".status");
    }
    sink.span(new OtlpSpan(file, line, path, traceId, spanId, parentId, name, start, attrs, events, code, message));
  }

  private List<OtlpSpan.Event> events(JsonNode s, String path) throws Malformed {
    List<JsonNode> raw = array(s, "events", path + ".events");
    List<OtlpSpan.Event> events = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      String p = path + ".events[" + i + "]";
      JsonNode e = object(raw.get(i), p);
      String name = optionalText(e, "name", p);
      nanos(e, "timeUnixNano", p);
      OtlpSpan.Event event = new OtlpSpan.Event(name, attributes(e, p));
      sink.checkEvent(event, p);
      events.add(event);
    }
    return events;
  }

  private void logRecord(String file, int line, JsonNode r, String path) throws Malformed {
    object(r, path);
    JsonNode eventName = r.get("eventName");
    if (!(eventName != null && logEvents.test(eventName.asText())) && !namesEvent(r.get("attributes"))) {
      return; // not an event the reader asked for: not decoded, so not checked either
    }
    String traceId = hexId(r, "traceId", 32, path, false);
    if (traceId == null) {
      throw new Malformed(path + ".traceId", "missing (" + whyTraced + ")");
    }
    String spanId = hexId(r, "spanId", 16, path, false);
    Map<String, JsonNode> attrs = attributes(r, path);
    JsonNode body = anyValue(r.get("body"), path + ".body");
    sink.logRecord(new OtlpLogRecord(file, line, path, traceId, spanId, attrs, body));
  }

  /** Whether an attribute list holds an {@code event.name} the reader asked for (read leniently). */
  private boolean namesEvent(@Nullable JsonNode attributes) {
    if (attributes == null || !attributes.isArray()) {
      return false;
    }
    for (JsonNode kv : attributes) {
      if ("event.name".equals(kv.path("key").asText()) && logEvents.test(kv.path("value").path("stringValue").asText())) {
        return true;
      }
    }
    return false;
  }

  // ---------------------------------------------------------------- the OTLP JSON encoding

  private static Map<String, JsonNode> attributes(JsonNode owner, String path) throws Malformed {
    List<JsonNode> list = array(owner, "attributes", path + ".attributes");
    Map<String, JsonNode> attrs = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      String p = path + ".attributes[" + i + "]";
      JsonNode kv = object(list.get(i), p);
      String key = key(kv, p);
      if (attrs.containsKey(key)) {
        throw new Malformed(p + ".key", "duplicate '" + key + "'");
      }
      attrs.put(key, anyValue(kv.get("value"), p + ".value"));
    }
    return attrs;
  }

  private static String key(JsonNode kv, String path) throws Malformed {
    JsonNode k = kv.get("key");
    if (k == null || !k.isTextual() || k.asText().isEmpty()) {
      throw new Malformed(path + ".key", "missing or not a non-empty string");
    }
    return k.asText();
  }

  /** An OTLP AnyValue as a JSON value (an empty AnyValue as null, bytes as their base64 text). */
  private static JsonNode anyValue(@Nullable JsonNode v, String path) throws Malformed {
    if (v == null || v.isNull()) {
      return NullNode.getInstance();
    }
    object(v, path);
    String kind = null;
    for (String k : ANY_VALUE_KINDS) {
      if (v.hasNonNull(k)) {
        if (kind != null) {
          throw new Malformed(path, "holds both " + kind + " and " + k + " (an AnyValue holds one)");
        }
        kind = k;
      }
    }
    if (kind == null) {
      return NullNode.getInstance();
    }
    JsonNode x = v.get(kind);
    String p = path + "." + kind;
    return switch (kind) {
      case "stringValue" -> NODES.textNode(text(x, p));
      case "boolValue" -> {
        if (!x.isBoolean()) {
          throw new Malformed(p, "not a boolean");
        }
        yield x;
      }
      case "intValue" -> NODES.numberNode(int64(x, p));
      case "doubleValue" -> NODES.numberNode(dbl(x, p));
      case "bytesValue" -> NODES.textNode(bytes(x, p));
      case "arrayValue" -> {
        ArrayNode a = NODES.arrayNode();
        List<JsonNode> values = array(object(x, p), "values", p + ".values");
        for (int i = 0; i < values.size(); i++) {
          a.add(anyValue(values.get(i), p + ".values[" + i + "]"));
        }
        yield a;
      }
      default -> {
        ObjectNode o = NODES.objectNode();
        List<JsonNode> values = array(object(x, p), "values", p + ".values");
        for (int i = 0; i < values.size(); i++) {
          String q = p + ".values[" + i + "]";
          String key = key(object(values.get(i), q), q);
          if (o.has(key)) {
            throw new Malformed(q + ".key", "duplicate '" + key + "'");
          }
          o.set(key, anyValue(values.get(i).get("value"), q + ".value"));
        }
        yield o;
      }
    };
  }

  private static long int64(JsonNode x, String path) throws Malformed {
    if (x.isIntegralNumber() && x.canConvertToLong()) {
      return x.asLong();
    }
    if (x.isTextual() && x.asText().matches("-?\\d{1,19}")) {
      try {
        return Long.parseLong(x.asText());
      } catch (NumberFormatException e) {
        throw new Malformed(path, "out of the int64 range");
      }
    }
    throw new Malformed(path, "not an int64 (a decimal string or an integer)");
  }

  private static double dbl(JsonNode x, String path) throws Malformed {
    if (x.isNumber()) {
      return x.asDouble();
    }
    if (x.isTextual()) {
      String s = x.asText();
      switch (s) {
        case "NaN" -> {
          return Double.NaN;
        }
        case "Infinity" -> {
          return Double.POSITIVE_INFINITY;
        }
        case "-Infinity" -> {
          return Double.NEGATIVE_INFINITY;
        }
        default -> {
          if (DECIMAL.matcher(s).matches()) {
            return Double.parseDouble(s);
          }
        }
      }
    }
    throw new Malformed(path, "not a number");
  }

  private static String bytes(JsonNode x, String path) throws Malformed {
    String s = text(x, path);
    try {
      Base64.getDecoder().decode(s);
    } catch (IllegalArgumentException e) {
      try {
        Base64.getUrlDecoder().decode(s);
      } catch (IllegalArgumentException e2) {
        throw new Malformed(path, "not base64");
      }
    }
    return s;
  }

  /** A trace or span id, lowercased; null when it is optional and absent or empty (or an all-zero parent). */
  private static @Nullable String hexId(JsonNode owner, String field, int length, String path, boolean required)
      throws Malformed {
    JsonNode v = owner.get(field);
    String p = path + "." + field;
    if (v == null || v.isNull() || (v.isTextual() && v.asText().isEmpty())) {
      if (required) {
        throw new Malformed(p, "missing");
      }
      return null;
    }
    String s = text(v, p);
    if (s.length() != length || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128)) {
      throw new Malformed(p, "'" + clip(s, 40) + "' is not " + length + " hex characters");
    }
    if (s.chars().allMatch(c -> c == '0')) {
      if (required || field.equals("traceId")) {
        throw new Malformed(p, "all zero (an invalid id)");
      }
      return null;
    }
    return s.toLowerCase(Locale.ROOT);
  }

  /** Nanoseconds since the epoch (a decimal string or an integer); 0 when absent. */
  private static long nanos(JsonNode owner, String field, String path) throws Malformed {
    JsonNode v = owner.get(field);
    if (v == null || v.isNull()) {
      return 0;
    }
    String p = path + "." + field;
    if (v.isIntegralNumber() && v.canConvertToLong() && v.asLong() >= 0) {
      return v.asLong();
    }
    if (v.isTextual() && v.asText().matches("\\d{1,19}")) {
      try {
        return Long.parseLong(v.asText());
      } catch (NumberFormatException e) {
        throw new Malformed(p, "out of range");
      }
    }
    throw new Malformed(p, "not a non-negative decimal string of nanoseconds");
  }

  private static int statusCode(@Nullable JsonNode code, String path) throws Malformed {
    if (code == null || code.isNull()) {
      return 0;
    }
    if (code.isIntegralNumber() && code.canConvertToInt() && code.asInt() >= 0 && code.asInt() <= 2) {
      return code.asInt();
    }
    if (code.isTextual()) {
      switch (code.asText()) {
        case "STATUS_CODE_UNSET" -> {
          return 0;
        }
        case "STATUS_CODE_OK" -> {
          return 1;
        }
        case "STATUS_CODE_ERROR" -> {
          return 2;
        }
        default -> {
          // reported below
        }
      }
    }
    throw new Malformed(path, "not 0, 1, 2 or a STATUS_CODE_ name");
  }

  private static JsonNode object(JsonNode v, String path) throws Malformed {
    if (!v.isObject()) {
      throw new Malformed(path, "not an object");
    }
    return v;
  }

  /** The elements of an array field; none when it is absent or null. */
  private static List<JsonNode> array(JsonNode owner, String field, String path) throws Malformed {
    JsonNode v = owner.get(field);
    if (v == null || v.isNull()) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new Malformed(path, "not an array");
    }
    List<JsonNode> out = new ArrayList<>(v.size());
    v.forEach(out::add);
    return out;
  }

  private static String text(JsonNode v, String path) throws Malformed {
    if (!v.isTextual()) {
      throw new Malformed(path, "not a string");
    }
    return v.asText();
  }

  private static String optionalText(JsonNode owner, String field, String path) throws Malformed {
    JsonNode v = owner.get(field);
    return v == null || v.isNull() ? "" : text(v, path + "." + field);
  }

  private void skip(String file, int line, String reason) {
    skipped.add(new EventLogImport.Skipped(file, line, reason));
  }

  /** At most {@code max} characters, the last one an ellipsis when cut; never splits a surrogate pair. */
  static String clip(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    int cut = max - 1;
    if (cut > 0 && Character.isHighSurrogate(s.charAt(cut - 1))) {
      cut--;
    }
    return s.substring(0, cut) + "…";
  }
}
