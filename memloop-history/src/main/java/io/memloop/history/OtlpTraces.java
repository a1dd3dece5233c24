package io.memloop.history;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Imports agent runs from OpenTelemetry traces that follow the GenAI semantic conventions, in the OTLP JSON
 * encoding ({@code ExportTraceServiceRequest} bodies, as the Collector's {@code file} exporter writes them): a
 * {@code *.jsonl} file holds one request per line, a {@code *.json} file one request (or several, one after the
 * other). Spans are grouped by trace across the whole input, and each agent run (a top-level
 * {@code invoke_agent} span, or the root of a trace with GenAI spans but none of them) becomes one
 * {@link Episode}: the first user message as the intent, the tool calls and the final answer as the experience,
 * and the outcome and reward from MemLoop's own attributes, {@code gen_ai.evaluation.result} events (span
 * events, or log records of an {@code ExportLogsServiceRequest} correlated by trace) or the run's error status.
 *
 * <p>Malformed input never throws: every record, span or run left out is added to the skipped list with its
 * file, line and reason, and the rest is still read.
 */
public final class OtlpTraces {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  /** Reads one value of a sequence of concatenated values (a {@code *.json} file). */
  private static final ObjectReader SEQUENCE = MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int MAX_LINE_CHARS = 16 << 20;
  /** A line of more bytes has more than {@link #MAX_LINE_CHARS} characters (UTF-8 takes at most 3 bytes a char; 1 for a CR). */
  private static final int MAX_LINE_BYTES = 3 * MAX_LINE_CHARS + 1;
  private static final int MAX_TOOL_TEXT = 200;
  private static final int MAX_ANSWER = 1_000;
  private static final int MAX_EXPERIENCE = 4_000;
  private static final String EVALUATION = "gen_ai.evaluation.result";
  private static final Set<String> MODEL_CALLS = Set.of("chat", "text_completion", "generate_content");
  private static final Set<String> SUCCESS_LABELS = Set.of("pass", "passed", "correct", "success", "true", "yes");
  private static final Set<String> FAILURE_LABELS = Set.of("fail", "failed", "incorrect", "failure", "false", "no");
  private static final List<String> ANY_VALUE_KINDS =
      List.of("stringValue", "boolValue", "intValue", "doubleValue", "arrayValue", "kvlistValue", "bytesValue");
  private static final Pattern PROMPT = Pattern.compile("gen_ai\\.(prompt|completion)\\.(\\d{1,9})\\.content");
  private static final Pattern LINE_BREAK = Pattern.compile("\\h*\\R\\s*");
  private static final Pattern DECIMAL = Pattern.compile("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
  private static final Comparator<Span> ORDER = Comparator.comparingLong(Span::start).thenComparing(Span::spanId);

  /**
   * One agent run read from traces.
   *
   * @param file the name of the file the run's span was read from
   * @param line the line of that file (for a {@code *.json} file, the line where the request starts)
   * @param traceId the trace, 32 lowercase hex characters
   * @param intent the first user message of the run, trimmed
   * @param experience the run's trajectory: a line per tool call, then the final answer
   * @param outcome how the run ended, {@link Outcome#UNKNOWN} when the trace does not say
   * @param reward null when the trace carries no numeric score
   * @param at when the run's span started
   */
  public record Episode(String file, int line, String traceId, String intent, String experience, Outcome outcome,
      @Nullable Double reward, Instant at) {}

  /** An evaluation result: a score, a label, or both. */
  private record Eval(@Nullable Double score, @Nullable String label) {}

  private record Event(String name, Map<String, JsonNode> attrs, @Nullable Eval eval) {}

  private record Span(String file, int line, String traceId, String spanId, @Nullable String parentId, String name,
      long start, Map<String, JsonNode> attrs, List<Event> events, int status, String statusMessage) {
    String operation() {
      JsonNode op = attrs.get("gen_ai.operation.name");
      return op != null && op.isTextual() ? op.asText() : "";
    }

    boolean genAi() {
      return attrs.keySet().stream().anyMatch(k -> k.startsWith("gen_ai."))
          || events.stream().anyMatch(e -> e.name().startsWith("gen_ai."));
    }

    String ref() {
      return "trace " + traceId + " span " + spanId;
    }
  }

  /** A {@code gen_ai.evaluation.result} log record. */
  private record LogEval(String file, int line, String path, String traceId, @Nullable String spanId, Eval eval) {}

  /** A malformed field: its path and the problem. */
  private static final class Bad extends Exception {
    Bad(String path, String problem) {
      super(path + ": " + problem, null, false, false);
    }
  }

  /** A run that cannot become an episode, and why. */
  private static final class Reject extends Exception {
    final EventLogImport.Skipped.Kind kind;

    Reject(String reason) {
      this(reason, EventLogImport.Skipped.Kind.MALFORMED);
    }

    Reject(String reason, EventLogImport.Skipped.Kind kind) {
      super(reason, null, false, false);
      this.kind = kind;
    }
  }

  private final List<EventLogImport.Skipped> skipped;
  /** Spans by trace, then by span id, in reading order. */
  private final Map<String, Map<String, Span>> traces = new LinkedHashMap<>();
  private final List<LogEval> logEvals = new ArrayList<>();

  private OtlpTraces(List<EventLogImport.Skipped> skipped) {
    this.skipped = skipped;
  }

  /**
   * Reads a file or a directory (its {@code *.json} and {@code *.jsonl} files, in name order). A file whose name
   * does not end in {@code .json} is read as JSON lines. Bad records, spans and runs are added to
   * {@code skipped} with their file, line (1-based; for a {@code *.json} file the line where the request
   * starts) and reason.
   *
   * @return the episodes in order of start time, then trace id, then span id
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} when the input is neither a regular file
   *     nor a directory, a directory holds no {@code .json} or {@code .jsonl} file, or a file cannot be read
   */
  public static List<Episode> read(Path input, List<EventLogImport.Skipped> skipped) {
    Objects.requireNonNull(input, "input");
    OtlpTraces reader = new OtlpTraces(Objects.requireNonNull(skipped, "skipped"));
    for (Path file : files(input)) {
      reader.readFile(file);
    }
    return reader.episodes();
  }

  private static List<Path> files(Path input) {
    if (Files.isRegularFile(input)) {
      return List.of(input);
    }
    if (!Files.isDirectory(input)) {
      throw MemLoopException.invalid("--input", input + " is neither a regular file nor a directory");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(input)) {
      files = s.filter(p -> isTraceFile(p.getFileName().toString()) && Files.isRegularFile(p))
          .sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
    } catch (IOException e) {
      throw MemLoopException.invalid("--input", "cannot list " + input + ": " + e.getMessage());
    }
    if (files.isEmpty()) {
      throw MemLoopException.invalid("--input", input + " holds no .json or .jsonl file");
    }
    return files;
  }

  private static boolean isTraceFile(String name) {
    return name.endsWith(".json") || name.endsWith(".jsonl");
  }

  // ---------------------------------------------------------------- reading files

  /** Receives each line of a file; returns false to stop reading it. */
  @FunctionalInterface
  private interface LineSink {
    boolean line(int n, String text);
  }

  private void readFile(Path file) {
    String name = file.getFileName().toString();
    if (name.endsWith(".json")) {
      StringBuilder text = new StringBuilder();
      boolean complete = lines(file, name, (n, line) -> {
        text.append(line).append('\n');
        return true;
      });
      if (complete) {
        documents(name, text.toString());
      }
    } else {
      lines(file, name, (n, line) -> {
        if (!line.isBlank()) {
          jsonLine(name, n, line);
        }
        return true;
      });
    }
  }

  /**
   * Feeds the lines of a file, each decoded strictly as UTF-8 (a line is never held beyond its limit); false when
   * it stopped early: on a line that is not UTF-8, or on a line too long in a {@code *.json} file.
   */
  private boolean lines(Path file, String name, LineSink sink) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try (InputStream in = Files.newInputStream(file)) {
      byte[] chunk = new byte[1 << 16];
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      boolean tooLong = false;
      int n = 0;
      for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
        int from = 0;
        for (int i = 0; i < read; i++) {
          if (chunk[i] == '\n') {
            tooLong = append(line, chunk, from, i - from, tooLong);
            if (!emit(name, ++n, line, tooLong, decoder, sink)) {
              return false;
            }
            line.reset();
            tooLong = false;
            from = i + 1;
          }
        }
        tooLong = append(line, chunk, from, read - from, tooLong);
      }
      return (line.size() == 0 && !tooLong) || emit(name, n + 1, line, tooLong, decoder, sink);
    } catch (IOException e) {
      throw MemLoopException.invalid("--input", "cannot read " + file + ": " + e.getMessage());
    }
  }

  /** Adds bytes to a line unless it is already too long; whether it is too long now. */
  private static boolean append(ByteArrayOutputStream line, byte[] bytes, int from, int length, boolean tooLong) {
    if (tooLong || line.size() + (long) length > MAX_LINE_BYTES) {
      return true;
    }
    line.write(bytes, from, length);
    return false;
  }

  private boolean emit(String file, int n, ByteArrayOutputStream bytes, boolean tooLong, CharsetDecoder decoder,
      LineSink sink) {
    boolean json = file.endsWith(".json");
    if (tooLong) {
      skip(file, n, "longer than 16 Mi characters");
      return !json;
    }
    byte[] b = bytes.toByteArray();
    int length = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
    String text;
    try {
      text = decoder.decode(ByteBuffer.wrap(b, 0, length)).toString();
    } catch (CharacterCodingException e) {
      skip(file, n, json ? "not valid UTF-8 (the file is not read)" : "not valid UTF-8 (the rest of the file is not read)");
      return false;
    }
    if (n == 1 && text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (text.length() > MAX_LINE_CHARS) {
      skip(file, n, "longer than 16 Mi characters");
      return !json;
    }
    return sink.line(n, text);
  }

  private void jsonLine(String file, int line, String text) {
    JsonNode doc;
    try {
      doc = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      skip(file, line, "not valid JSON: " + e.getOriginalMessage());
      return;
    }
    document(file, line, doc);
  }

  /** The requests of a {@code *.json} file, one after the other; a syntax error ends the file. */
  private void documents(String file, String text) {
    try (JsonParser p = MAPPER.createParser(text)) {
      while (true) {
        int start = 0;
        try {
          if (p.nextToken() == null) {
            return;
          }
          start = p.currentTokenLocation().getLineNr();
          JsonToken first = p.currentToken();
          JsonNode doc = SEQUENCE.readTree(p);
          if (first != JsonToken.START_OBJECT || doc == null) {
            skip(file, Math.max(start, 1), "not a JSON object");
          } else {
            document(file, Math.max(start, 1), doc);
          }
        } catch (JsonProcessingException e) {
          int line = start > 0 ? start : e.getLocation() != null ? Math.max(e.getLocation().getLineNr(), 1) : 1;
          skip(file, line, "not valid JSON: " + e.getOriginalMessage() + " (the rest of the file is unreadable)");
          return;
        }
      }
    } catch (IOException e) {
      skip(file, 1, "not valid JSON: " + e.getMessage());
    }
  }

  /** One request: a trace request, a log request (for evaluation results), or both. */
  private void document(String file, int line, JsonNode doc) {
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

  /** Receives one span or log record with its path. */
  @FunctionalInterface
  private interface RecordSink {
    void record(String file, int line, JsonNode node, String path) throws Bad;
  }

  /** Visits {@code doc.l1[i].l2[j].l3[k]}; a malformed level is skipped with its path, the rest still read. */
  private void walk(String file, int line, JsonNode doc, String l1, String l2, String l3, RecordSink sink) {
    List<JsonNode> outer;
    try {
      outer = array(doc, l1, l1);
    } catch (Bad b) {
      skip(file, line, b.getMessage());
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
                sink.record(file, line, records.get(k), p3);
              } catch (Bad b) {
                skip(file, line, b.getMessage());
              }
            }
          } catch (Bad b) {
            skip(file, line, b.getMessage());
          }
        }
      } catch (Bad b) {
        skip(file, line, b.getMessage());
      }
    }
  }

  // ---------------------------------------------------------------- parsing spans and log records

  private void span(String file, int line, JsonNode s, String path) throws Bad {
    object(s, path);
    String traceId = Objects.requireNonNull(hexId(s, "traceId", 32, path, true));
    String spanId = Objects.requireNonNull(hexId(s, "spanId", 16, path, true));
    String parentId = hexId(s, "parentSpanId", 16, path, false);
    String name = optionalText(s, "name", path);
    long start = nanos(s, "startTimeUnixNano", path);
    nanos(s, "endTimeUnixNano", path);
    Map<String, JsonNode> attrs = attributes(s, path);
    List<Event> events = events(s, path);
    JsonNode status = s.get("status");
    int code = 0;
    String message = "";
    if (status != null && !status.isNull()) {
      object(status, path + ".status");
      code = statusCode(status.get("code"), path + ".status.code");
      message = optionalText(status, "message", path + ".status");
    }
    Span span = new Span(file, line, traceId, spanId, parentId, name, start, attrs, events, code, message);
    Map<String, Span> trace = traces.computeIfAbsent(traceId, t -> new LinkedHashMap<>());
    Span first = trace.putIfAbsent(spanId, span);
    if (first != null) {
      throw new Bad(path, "span " + spanId + " of trace " + traceId + " was already read at " + first.file() + ":"
          + first.line() + " (duplicate left out)");
    }
  }

  private static List<Event> events(JsonNode s, String path) throws Bad {
    List<JsonNode> raw = array(s, "events", path + ".events");
    List<Event> events = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      String p = path + ".events[" + i + "]";
      JsonNode e = object(raw.get(i), p);
      String name = optionalText(e, "name", p);
      nanos(e, "timeUnixNano", p);
      Map<String, JsonNode> attrs = attributes(e, p);
      events.add(new Event(name, attrs, name.equals(EVALUATION) ? evaluation(attrs, p) : null));
    }
    return events;
  }

  private void logRecord(String file, int line, JsonNode r, String path) throws Bad {
    object(r, path);
    JsonNode eventName = r.get("eventName");
    if (!(eventName != null && EVALUATION.equals(eventName.asText())) && !namesEvaluation(r.get("attributes"))) {
      return; // only evaluation results are read from logs
    }
    String traceId = hexId(r, "traceId", 32, path, false);
    if (traceId == null) {
      throw new Bad(path + ".traceId", "missing (an evaluation result must name the trace it scores)");
    }
    String spanId = hexId(r, "spanId", 16, path, false);
    Map<String, JsonNode> attrs = attributes(r, path);
    JsonNode body = anyValue(r.get("body"), path + ".body");
    if (body instanceof ObjectNode fields) {
      for (var f : fields.properties()) {
        attrs.putIfAbsent(f.getKey(), f.getValue());
      }
    }
    logEvals.add(new LogEval(file, line, path, traceId, spanId, evaluation(attrs, path)));
  }

  /** Whether an attribute list holds {@code event.name = gen_ai.evaluation.result} (read leniently). */
  private static boolean namesEvaluation(@Nullable JsonNode attributes) {
    if (attributes == null || !attributes.isArray()) {
      return false;
    }
    for (JsonNode kv : attributes) {
      if ("event.name".equals(kv.path("key").asText()) && EVALUATION.equals(kv.path("value").path("stringValue").asText())) {
        return true;
      }
    }
    return false;
  }

  private static Eval evaluation(Map<String, JsonNode> attrs, String path) throws Bad {
    Double score = null;
    JsonNode v = attrs.get("gen_ai.evaluation.score.value");
    if (v != null && !v.isNull()) {
      if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
        throw new Bad(path + ".attributes[gen_ai.evaluation.score.value]", "not a finite number");
      }
      score = v.asDouble();
    }
    String label = null;
    JsonNode l = attrs.get("gen_ai.evaluation.score.label");
    if (l != null && !l.isNull()) {
      if (!l.isTextual() && !l.isBoolean()) {
        throw new Bad(path + ".attributes[gen_ai.evaluation.score.label]", "not a string");
      }
      label = l.asText();
    }
    return new Eval(score, label);
  }

  private static Map<String, JsonNode> attributes(JsonNode owner, String path) throws Bad {
    List<JsonNode> list = array(owner, "attributes", path + ".attributes");
    Map<String, JsonNode> attrs = new LinkedHashMap<>();
    for (int i = 0; i < list.size(); i++) {
      String p = path + ".attributes[" + i + "]";
      JsonNode kv = object(list.get(i), p);
      String key = key(kv, p);
      if (attrs.containsKey(key)) {
        throw new Bad(p + ".key", "duplicate '" + key + "'");
      }
      attrs.put(key, anyValue(kv.get("value"), p + ".value"));
    }
    return attrs;
  }

  private static String key(JsonNode kv, String path) throws Bad {
    JsonNode k = kv.get("key");
    if (k == null || !k.isTextual() || k.asText().isEmpty()) {
      throw new Bad(path + ".key", "missing or not a non-empty string");
    }
    return k.asText();
  }

  /** An OTLP AnyValue as a JSON value (an empty AnyValue as null, bytes as their base64 text). */
  private static JsonNode anyValue(@Nullable JsonNode v, String path) throws Bad {
    if (v == null || v.isNull()) {
      return NullNode.getInstance();
    }
    object(v, path);
    String kind = null;
    for (String k : ANY_VALUE_KINDS) {
      if (v.hasNonNull(k)) {
        if (kind != null) {
          throw new Bad(path, "holds both " + kind + " and " + k + " (an AnyValue holds one)");
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
          throw new Bad(p, "not a boolean");
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
            throw new Bad(q + ".key", "duplicate '" + key + "'");
          }
          o.set(key, anyValue(values.get(i).get("value"), q + ".value"));
        }
        yield o;
      }
    };
  }

  private static long int64(JsonNode x, String path) throws Bad {
    if (x.isIntegralNumber() && x.canConvertToLong()) {
      return x.asLong();
    }
    if (x.isTextual() && x.asText().matches("-?\\d{1,19}")) {
      try {
        return Long.parseLong(x.asText());
      } catch (NumberFormatException e) {
        throw new Bad(path, "out of the int64 range");
      }
    }
    throw new Bad(path, "not an int64 (a decimal string or an integer)");
  }

  private static double dbl(JsonNode x, String path) throws Bad {
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
    throw new Bad(path, "not a number");
  }

  private static String bytes(JsonNode x, String path) throws Bad {
    String s = text(x, path);
    try {
      Base64.getDecoder().decode(s);
    } catch (IllegalArgumentException e) {
      try {
        Base64.getUrlDecoder().decode(s);
      } catch (IllegalArgumentException e2) {
        throw new Bad(path, "not base64");
      }
    }
    return s;
  }

  /** A trace or span id, lowercased; null when it is optional and absent or empty (or an all-zero parent). */
  private static @Nullable String hexId(JsonNode owner, String field, int length, String path, boolean required)
      throws Bad {
    JsonNode v = owner.get(field);
    String p = path + "." + field;
    if (v == null || v.isNull() || (v.isTextual() && v.asText().isEmpty())) {
      if (required) {
        throw new Bad(p, "missing");
      }
      return null;
    }
    String s = text(v, p);
    if (s.length() != length || !s.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 128)) {
      throw new Bad(p, "'" + clip(s, 40) + "' is not " + length + " hex characters");
    }
    if (s.chars().allMatch(c -> c == '0')) {
      if (required || field.equals("traceId")) {
        throw new Bad(p, "all zero (an invalid id)");
      }
      return null;
    }
    return s.toLowerCase(Locale.ROOT);
  }

  /** Nanoseconds since the epoch (a decimal string or an integer); 0 when absent. */
  private static long nanos(JsonNode owner, String field, String path) throws Bad {
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
        throw new Bad(p, "out of range");
      }
    }
    throw new Bad(p, "not a non-negative decimal string of nanoseconds");
  }

  private static int statusCode(@Nullable JsonNode code, String path) throws Bad {
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
    throw new Bad(path, "not 0, 1, 2 or a STATUS_CODE_ name");
  }

  private static JsonNode object(JsonNode v, String path) throws Bad {
    if (!v.isObject()) {
      throw new Bad(path, "not an object");
    }
    return v;
  }

  /** The elements of an array field; none when it is absent or null. */
  private static List<JsonNode> array(JsonNode owner, String field, String path) throws Bad {
    JsonNode v = owner.get(field);
    if (v == null || v.isNull()) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new Bad(path, "not an array");
    }
    List<JsonNode> out = new ArrayList<>(v.size());
    v.forEach(out::add);
    return out;
  }

  private static String text(JsonNode v, String path) throws Bad {
    if (!v.isTextual()) {
      throw new Bad(path, "not a string");
    }
    return v.asText();
  }

  private static String optionalText(JsonNode owner, String field, String path) throws Bad {
    JsonNode v = owner.get(field);
    return v == null || v.isNull() ? "" : text(v, path + "." + field);
  }

  private void skip(String file, int line, String reason) {
    skipped.add(new EventLogImport.Skipped(file, line, reason));
  }

  // ---------------------------------------------------------------- building episodes

  private record Ranked(Episode episode, String spanId) {}

  private List<Episode> episodes() {
    Map<String, List<LogEval>> evalsByTrace = new HashMap<>();
    for (LogEval e : logEvals) {
      evalsByTrace.computeIfAbsent(e.traceId(), t -> new ArrayList<>()).add(e);
    }
    Set<LogEval> matched = Collections.newSetFromMap(new IdentityHashMap<>());
    List<Ranked> ranked = new ArrayList<>();
    for (var trace : traces.entrySet()) {
      trace(trace.getKey(), trace.getValue(), evalsByTrace.getOrDefault(trace.getKey(), List.of()), matched, ranked);
    }
    for (LogEval e : logEvals) {
      if (!matched.contains(e)) {
        skip(e.file(), e.line(), e.path() + ": the evaluation result of trace " + e.traceId()
            + (e.spanId() == null ? "" : " span " + e.spanId()) + " matches no agent run");
      }
    }
    ranked.sort(Comparator.comparing((Ranked r) -> r.episode().at()).thenComparing(r -> r.episode().traceId())
        .thenComparing(Ranked::spanId));
    return ranked.stream().map(Ranked::episode).toList();
  }

  /** Finds the runs of one trace and turns each into an episode or a skipped entry. */
  private void trace(String traceId, Map<String, Span> spans, List<LogEval> evals, Set<LogEval> matched,
      List<Ranked> out) {
    Map<String, List<Span>> children = new HashMap<>();
    List<Span> roots = new ArrayList<>();
    for (Span s : spans.values()) {
      if (s.parentId() != null && spans.containsKey(s.parentId())) {
        children.computeIfAbsent(s.parentId(), p -> new ArrayList<>()).add(s);
      } else {
        roots.add(s);
      }
    }
    children.values().forEach(c -> c.sort(ORDER));
    roots.sort(ORDER);
    List<Span> runs = new ArrayList<>();
    Set<String> reached = new LinkedHashSet<>();
    for (Span root : roots) {
      topAgents(root, children, runs, reached);
    }
    if (reached.size() < spans.size()) {
      Span lost = spans.values().stream().filter(s -> !reached.contains(s.spanId())).min(ORDER).orElseThrow();
      skip(lost.file(), lost.line(), "trace " + traceId + ": the parentSpanId links above span " + lost.spanId()
          + " form a cycle (trace left out)");
      return;
    }
    if (runs.isEmpty()) {
      for (Span root : roots) {
        if (subtree(root, children).stream().anyMatch(Span::genAi)) {
          runs.add(root);
        }
      }
    }
    if (runs.isEmpty()) {
      Span first = spans.values().iterator().next();
      skip(first.file(), first.line(), "trace " + traceId + ": no GenAI span");
      return;
    }
    for (Span run : runs) {
      List<Span> all = subtree(run, children);
      all.sort(ORDER);
      Set<String> ids = new HashSet<>();
      all.forEach(s -> ids.add(s.spanId()));
      List<Eval> scores = new ArrayList<>();
      for (Span s : all) {
        s.events().stream().map(Event::eval).filter(Objects::nonNull).forEach(scores::add);
      }
      for (LogEval e : evals) {
        if (e.spanId() == null || ids.contains(e.spanId())) {
          matched.add(e);
          scores.add(e.eval());
        }
      }
      try {
        out.add(new Ranked(episode(run, all, scores), run.spanId()));
      } catch (Reject r) {
        skipped.add(new EventLogImport.Skipped(run.file(), run.line(), run.ref() + ": " + r.getMessage(), r.kind));
      }
    }
  }

  /** Collects the {@code invoke_agent} spans with no {@code invoke_agent} ancestor, and every span reached. */
  private static void topAgents(Span root, Map<String, List<Span>> children, List<Span> runs, Set<String> reached) {
    Deque<Span> stack = new ArrayDeque<>();
    Deque<Boolean> inside = new ArrayDeque<>();
    stack.push(root);
    inside.push(false);
    while (!stack.isEmpty()) {
      Span s = stack.pop();
      boolean in = inside.pop();
      reached.add(s.spanId());
      boolean agent = s.operation().equals("invoke_agent");
      if (agent && !in) {
        runs.add(s);
      }
      List<Span> kids = children.getOrDefault(s.spanId(), List.of());
      for (int i = kids.size() - 1; i >= 0; i--) {
        stack.push(kids.get(i));
        inside.push(in || agent);
      }
    }
  }

  private static List<Span> subtree(Span root, Map<String, List<Span>> children) {
    List<Span> out = new ArrayList<>();
    Deque<Span> stack = new ArrayDeque<>();
    stack.push(root);
    while (!stack.isEmpty()) {
      Span s = stack.pop();
      out.add(s);
      children.getOrDefault(s.spanId(), List.of()).forEach(stack::push);
    }
    return out;
  }

  private static Episode episode(Span run, List<Span> all, List<Eval> evals) throws Reject {
    if (run.start() <= 0) {
      throw new Reject("startTimeUnixNano: missing");
    }
    Outcome given = givenOutcome(run);
    Double reward = givenReward(run);
    String intent = intent(run, all);
    if (intent == null) {
      throw new Reject("no user message to take the intent from");
    }
    String tooLong = io.memloop.Checks.intentLengthProblem(intent).orElse(null);
    if (tooLong != null) { // the bound every way in enforces: the engine would refuse this intent
      throw new Reject("intent (the first user message) " + tooLong, EventLogImport.Skipped.Kind.INTENT_TOO_LONG);
    }
    String experience = experience(run, all);
    Outcome outcome = given != null ? given : evals.isEmpty() ? statusOutcome(run) : labelOutcome(evals);
    if (reward == null) {
      reward = meanScore(evals);
    }
    return new Episode(run.file(), run.line(), run.traceId(), intent, experience, outcome, reward,
        Instant.ofEpochSecond(0, run.start()));
  }

  private static @Nullable Outcome givenOutcome(Span run) throws Reject {
    JsonNode o = run.attrs().get("memloop.outcome");
    if (o == null || o.isNull()) {
      return null;
    }
    return switch (o.isTextual() ? o.asText().trim().toLowerCase(Locale.ROOT) : "") {
      case "success" -> Outcome.SUCCESS;
      case "failure" -> Outcome.FAILURE;
      case "unknown" -> Outcome.UNKNOWN;
      default -> throw new Reject("memloop.outcome: " + o + " is not success, failure or unknown");
    };
  }

  private static @Nullable Double givenReward(Span run) throws Reject {
    JsonNode r = run.attrs().get("memloop.reward");
    if (r == null || r.isNull()) {
      return null;
    }
    if (!r.isNumber() || !Double.isFinite(r.asDouble())) {
      String shown = r.isNumber() ? String.valueOf(r.asDouble()) : clip(r.toString(), 40);
      throw new Reject("memloop.reward: " + shown + " is not a finite number");
    }
    return r.asDouble();
  }

  private static Outcome statusOutcome(Span run) {
    JsonNode errorType = run.attrs().get("error.type");
    return run.status() == 2 || (errorType != null && !errorType.isNull()) ? Outcome.FAILURE : Outcome.UNKNOWN;
  }

  /** The outcome the evaluation labels agree on; UNKNOWN when none is usable or they conflict. */
  private static Outcome labelOutcome(List<Eval> evals) {
    Set<Outcome> seen = new LinkedHashSet<>();
    for (Eval e : evals) {
      String label = e.label() == null ? "" : e.label().trim().toLowerCase(Locale.ROOT);
      if (SUCCESS_LABELS.contains(label)) {
        seen.add(Outcome.SUCCESS);
      } else if (FAILURE_LABELS.contains(label)) {
        seen.add(Outcome.FAILURE);
      }
    }
    return seen.size() == 1 ? seen.iterator().next() : Outcome.UNKNOWN;
  }

  private static @Nullable Double meanScore(List<Eval> evals) {
    double sum = 0;
    int n = 0;
    for (Eval e : evals) {
      if (e.score() != null) {
        sum += e.score();
        n++;
      }
    }
    return n == 0 ? null : sum / n;
  }

  // ---------------------------------------------------------------- intent, answer and tool calls

  private static @Nullable String intent(Span run, List<Span> all) throws Reject {
    String t = firstUserText(messages(run, "gen_ai.input.messages"));
    for (int i = 0; i < all.size() && t == null; i++) {
      Span s = all.get(i);
      if (s != run && MODEL_CALLS.contains(s.operation())) {
        t = firstUserText(messages(s, "gen_ai.input.messages"));
      }
    }
    for (int i = 0; i < all.size() && t == null; i++) {
      t = flattened(all.get(i), "prompt", "user");
    }
    for (int i = 0; i < all.size() && t == null; i++) {
      for (Event e : all.get(i).events()) {
        if (t == null && e.name().equals("gen_ai.user.message")) {
          t = eventContent(e);
        }
      }
    }
    return t;
  }

  private static @Nullable String answer(Span run, List<Span> all) throws Reject {
    String a = lastAssistantText(messages(run, "gen_ai.output.messages"));
    for (int i = all.size() - 1; i >= 0 && a == null; i--) {
      Span s = all.get(i);
      if (s != run && MODEL_CALLS.contains(s.operation())) {
        a = lastAssistantText(messages(s, "gen_ai.output.messages"));
      }
    }
    for (int i = all.size() - 1; i >= 0 && a == null; i--) {
      a = flattened(all.get(i), "completion", "assistant");
    }
    for (int i = all.size() - 1; i >= 0 && a == null; i--) {
      List<Event> events = all.get(i).events();
      for (int j = events.size() - 1; j >= 0 && a == null; j--) {
        if (events.get(j).name().equals("gen_ai.choice")) {
          a = eventContent(events.get(j));
        }
      }
    }
    return a;
  }

  private static String experience(Span run, List<Span> all) throws Reject {
    List<String> tools = new ArrayList<>();
    for (Span s : all) {
      if (s.operation().equals("execute_tool")) {
        tools.add(toolLine(s));
      }
    }
    if (tools.isEmpty()) {
      tools = toolCallsFromMessages(run, all);
    }
    String answer = answer(run, all);
    if (tools.isEmpty() && answer == null) {
      throw new Reject("no tool call and no answer to take the experience from");
    }
    List<String> lines = new ArrayList<>(tools);
    String last = answer == null ? null : "answer: " + clip(answer, MAX_ANSWER);
    if (last != null) {
      lines.add(last);
    }
    String text = String.join("\n", lines);
    if (text.length() <= MAX_EXPERIENCE) {
      return text;
    }
    // too long: keep the answer, and the first tool calls that fit with a line telling how many were left out
    int budget = MAX_EXPERIENCE - (last == null ? 0 : last.length() + 1) - 40;
    StringBuilder b = new StringBuilder();
    int kept = 0;
    while (kept < tools.size() && b.length() + tools.get(kept).length() + 1 <= budget) {
      b.append(tools.get(kept++)).append('\n');
    }
    b.append("… ").append(tools.size() - kept).append(" more tool calls");
    if (last != null) {
      b.append('\n').append(last);
    }
    return clip(b.toString(), MAX_EXPERIENCE);
  }

  private static String toolLine(Span s) {
    JsonNode name = s.attrs().get("gen_ai.tool.name");
    String tool = name != null && name.isTextual() && !name.asText().isBlank() ? name.asText() : s.name();
    String result;
    JsonNode errorType = s.attrs().get("error.type");
    if (s.status() == 2 || (errorType != null && !errorType.isNull())) {
      String why = errorType != null && !errorType.isNull() ? render(errorType) : s.statusMessage();
      result = why.isBlank() ? "error" : "error: " + oneLine(why, MAX_TOOL_TEXT);
    } else {
      JsonNode r = s.attrs().get("gen_ai.tool.call.result");
      result = r == null || r.isNull() ? "(no result)" : oneLine(render(r), MAX_TOOL_TEXT);
    }
    return toolLine(tool, s.attrs().get("gen_ai.tool.call.arguments"), result);
  }

  private static String toolLine(String name, @Nullable JsonNode arguments, String result) {
    String args = arguments == null || arguments.isNull() ? "" : oneLine(render(arguments), MAX_TOOL_TEXT);
    return "tool " + oneLine(name.isBlank() ? "?" : name, MAX_TOOL_TEXT) + "(" + args + ") -> " + result;
  }

  /**
   * Tool calls from the model calls' messages when the run has no {@code execute_tool} span: the
   * {@code tool_call} parts (by id, in order of appearance) with the {@code tool_call_response} of the same id.
   */
  private static List<String> toolCallsFromMessages(Span run, List<Span> all) throws Reject {
    Map<String, JsonNode> calls = new LinkedHashMap<>();
    Map<String, JsonNode> responses = new HashMap<>();
    int anonymous = 0;
    for (Span s : all) {
      if (s != run && !MODEL_CALLS.contains(s.operation())) {
        continue;
      }
      for (String key : List.of("gen_ai.input.messages", "gen_ai.output.messages")) {
        JsonNode messages = messages(s, key);
        for (JsonNode m : messages == null ? NODES.arrayNode() : messages) {
          for (JsonNode part : m.path("parts")) {
            String type = part.path("type").asText();
            String id = part.path("id").isTextual() ? part.path("id").asText() : "";
            if (type.equals("tool_call") && !id.isEmpty()) {
              calls.putIfAbsent(id, part);
            } else if (type.equals("tool_call") && key.equals("gen_ai.output.messages")) {
              calls.put("\u0000" + anonymous++, part); // no id: taken from outputs only, inputs repeat them
            } else if (type.equals("tool_call_response") && !id.isEmpty()) {
              responses.putIfAbsent(id, part.has("response") ? part.get("response") : part.path("result"));
            }
          }
        }
      }
    }
    List<String> lines = new ArrayList<>();
    for (var call : calls.entrySet()) {
      JsonNode response = responses.get(call.getKey());
      String result = response == null || response.isMissingNode() || response.isNull() ? "(no result)"
          : oneLine(render(response), MAX_TOOL_TEXT);
      lines.add(toolLine(call.getValue().path("name").asText(), call.getValue().get("arguments"), result));
    }
    return lines;
  }

  /** A span's messages attribute as an array of messages; null when absent. */
  private static @Nullable JsonNode messages(Span s, String key) throws Reject {
    JsonNode v = s.attrs().get(key);
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isTextual()) {
      try {
        v = MAPPER.readTree(v.asText());
      } catch (JsonProcessingException e) {
        throw new Reject("span " + s.spanId() + " " + key + ": not valid JSON: " + e.getOriginalMessage());
      }
    }
    if (v == null || !v.isArray()) {
      throw new Reject("span " + s.spanId() + " " + key + ": not an array of messages");
    }
    return v;
  }

  private static @Nullable String firstUserText(@Nullable JsonNode messages) {
    if (messages != null) {
      for (JsonNode m : messages) {
        String t = m.path("role").asText().equals("user") ? messageText(m) : null;
        if (t != null) {
          return t;
        }
      }
    }
    return null;
  }

  private static @Nullable String lastAssistantText(@Nullable JsonNode messages) {
    for (int i = messages == null ? -1 : messages.size() - 1; i >= 0; i--) {
      JsonNode m = messages.get(i);
      String role = m.path("role").asText();
      String t = role.isEmpty() || role.equals("assistant") ? messageText(m) : null;
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  /** The text parts of a message (or its plain {@code content}), joined by newlines; null when blank. */
  private static @Nullable String messageText(JsonNode m) {
    List<String> texts = new ArrayList<>();
    JsonNode parts = m.has("parts") ? m.get("parts") : m.path("content");
    if (parts.isTextual()) {
      texts.add(parts.asText());
    }
    for (JsonNode p : parts.isArray() ? parts : NODES.arrayNode()) {
      if (p.path("type").asText().equals("text")) {
        JsonNode c = p.has("content") ? p.get("content") : p.path("text");
        if (c.isTextual()) {
          texts.add(c.asText());
        }
      }
    }
    return nonBlank(String.join("\n", texts));
  }

  /**
   * The OpenLLMetry flattening {@code gen_ai.<kind>.<i>.content} with {@code gen_ai.<kind>.<i>.role}: the
   * content of the lowest index with the role (or no role), or null.
   */
  private static @Nullable String flattened(Span s, String kind, String role) {
    Map<Integer, String> byIndex = new TreeMap<>();
    for (var a : s.attrs().entrySet()) {
      Matcher m = PROMPT.matcher(a.getKey());
      if (m.matches() && m.group(1).equals(kind) && a.getValue().isTextual()) {
        byIndex.put(Integer.parseInt(m.group(2)), a.getValue().asText());
      }
    }
    for (var e : byIndex.entrySet()) {
      JsonNode r = s.attrs().get("gen_ai." + kind + "." + e.getKey() + ".role");
      String t = r == null || !r.isTextual() || r.asText().equals(role) ? nonBlank(e.getValue()) : null;
      if (t != null) {
        return t;
      }
    }
    return null;
  }

  /** The content of a legacy message event: {@code content}, or the {@code content} of {@code message} or {@code body}. */
  private static @Nullable String eventContent(Event e) {
    JsonNode c = e.attrs().get("content");
    if (c != null && c.isTextual()) {
      return nonBlank(c.asText());
    }
    for (String key : List.of("message", "body")) {
      JsonNode v = e.attrs().get(key);
      if (v != null && v.isTextual()) {
        try {
          v = MAPPER.readTree(v.asText());
        } catch (JsonProcessingException ex) {
          v = null;
        }
      }
      if (v != null && v.path("content").isTextual()) {
        return nonBlank(v.get("content").asText());
      }
    }
    return null;
  }

  /** A value as text: a string as it is, anything else as compact JSON. */
  private static String render(JsonNode v) {
    return v.isTextual() ? v.asText() : v.toString();
  }

  private static @Nullable String nonBlank(String s) {
    String t = s.strip();
    return t.isEmpty() ? null : t;
  }

  /** On one line (each line break, with the blanks around it, becomes a space), at most {@code max} characters. */
  private static String oneLine(String s, int max) {
    return clip(LINE_BREAK.matcher(s.strip()).replaceAll(" "), max);
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
