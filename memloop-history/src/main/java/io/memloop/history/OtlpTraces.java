package io.memloop.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
 * <p>This class holds the GenAI meaning only: which spans form a run and what a run's intent, experience, outcome
 * and reward are. The files' framing ({@code OtlpJsonFiles}) and the OTLP encoding ({@code OtlpJsonDecoder}, to
 * neutral {@code OtlpSpan} and {@code OtlpLogRecord} values) are read apart from it.
 *
 * <p>Malformed input never throws: every record, span or run left out is added to the skipped list with its
 * file, line and reason, and the rest is still read.
 */
public final class OtlpTraces {
  private static final int MAX_TOOL_TEXT = 200;
  private static final int MAX_ANSWER = 1_000;
  private static final int MAX_EXPERIENCE = 4_000;
  private static final String EVALUATION = "gen_ai.evaluation.result";
  private static final Set<String> MODEL_CALLS = Set.of("chat", "text_completion", "generate_content");
  private static final Set<String> SUCCESS_LABELS = Set.of("pass", "passed", "correct", "success", "true", "yes");
  private static final Set<String> FAILURE_LABELS = Set.of("fail", "failed", "incorrect", "failure", "false", "no");
  private static final Pattern PROMPT = Pattern.compile("gen_ai\\.(prompt|completion)\\.(\\d{1,9})\\.content");
  private static final Pattern LINE_BREAK = Pattern.compile("\\h*\\R\\s*");
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper MAPPER = OtlpJsonFiles.MAPPER;
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
    OtlpJsonDecoder decoder = new OtlpJsonDecoder(skipped, EVALUATION::equals,
        "an evaluation result must name the trace it scores", reader.new Collector());
    OtlpJsonFiles files = new OtlpJsonFiles(skipped, decoder::request);
    for (Path file : OtlpJsonFiles.files(input)) {
      files.readFile(file);
    }
    return reader.episodes();
  }

  // ---------------------------------------------------------------- collecting spans and evaluation results

  /** Groups the decoded spans by trace, and keeps the evaluation results the log records carry. */
  private final class Collector implements OtlpJsonDecoder.Sink {
    @Override
    public void checkEvent(OtlpSpan.Event e, String path) throws OtlpJsonDecoder.Malformed {
      if (e.name().equals(EVALUATION)) {
        evaluation(e.attributes(), path);
      }
    }

    @Override
    public void span(OtlpSpan s) throws OtlpJsonDecoder.Malformed {
      List<Event> events = new ArrayList<>(s.events().size());
      for (int i = 0; i < s.events().size(); i++) {
        OtlpSpan.Event e = s.events().get(i); // checked already (checkEvent): evaluation cannot throw here
        Eval eval = e.name().equals(EVALUATION) ? evaluation(e.attributes(), s.path() + ".events[" + i + "]") : null;
        events.add(new Event(e.name(), e.attributes(), eval));
      }
      Span span = new Span(s.file(), s.line(), s.traceId(), s.spanId(), s.parentId(), s.name(), s.startNanos(),
          s.attributes(), events, s.status(), s.statusMessage());
      Map<String, Span> trace = traces.computeIfAbsent(s.traceId(), t -> new LinkedHashMap<>());
      Span first = trace.putIfAbsent(s.spanId(), span);
      if (first != null) {
        throw new OtlpJsonDecoder.Malformed(s.path(), "span " + s.spanId() + " of trace " + s.traceId()
            + " was already read at " + first.file() + ":" + first.line() + " (duplicate left out)");
      }
    }

    @Override
    public void logRecord(OtlpLogRecord r) throws OtlpJsonDecoder.Malformed {
      Map<String, JsonNode> attrs = new LinkedHashMap<>(r.attributes());
      if (r.body() instanceof ObjectNode fields) { // the GenAI convention's event body: its fields as attributes
        for (var f : fields.properties()) {
          attrs.putIfAbsent(f.getKey(), f.getValue());
        }
      }
      logEvals.add(new LogEval(r.file(), r.line(), r.path(), r.traceId(), r.spanId(), evaluation(attrs, r.path())));
    }
  }

  private static Eval evaluation(Map<String, JsonNode> attrs, String path) throws OtlpJsonDecoder.Malformed {
    Double score = null;
    JsonNode v = attrs.get("gen_ai.evaluation.score.value");
    if (v != null && !v.isNull()) {
      if (!v.isNumber() || !Double.isFinite(v.asDouble())) {
        throw new OtlpJsonDecoder.Malformed(path + ".attributes[gen_ai.evaluation.score.value]", "not a finite number");
      }
      score = v.asDouble();
    }
    String label = null;
    JsonNode l = attrs.get("gen_ai.evaluation.score.label");
    if (l != null && !l.isNull()) {
      if (!l.isTextual() && !l.isBoolean()) {
        throw new OtlpJsonDecoder.Malformed(path + ".attributes[gen_ai.evaluation.score.label]", "not a string");
      }
      label = l.asText();
    }
    return new Eval(score, label);
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
      String shown = r.isNumber() ? String.valueOf(r.asDouble()) : OtlpJsonDecoder.clip(r.toString(), 40);
      throw new Reject("memloop.reward: " + shown + " is not a finite number");
    }
    return r.asDouble();
  }

  private static Outcome statusOutcome(Span run) {
    JsonNode errorType = run.attrs().get("error.type");
    return run.status() == OtlpSpan.ERROR || (errorType != null && !errorType.isNull()) ? Outcome.FAILURE : Outcome.UNKNOWN;
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
    String last = answer == null ? null : "answer: " + OtlpJsonDecoder.clip(answer, MAX_ANSWER);
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
    return OtlpJsonDecoder.clip(b.toString(), MAX_EXPERIENCE);
  }

  private static String toolLine(Span s) {
    JsonNode name = s.attrs().get("gen_ai.tool.name");
    String tool = name != null && name.isTextual() && !name.asText().isBlank() ? name.asText() : s.name();
    String result;
    JsonNode errorType = s.attrs().get("error.type");
    if (s.status() == OtlpSpan.ERROR || (errorType != null && !errorType.isNull())) {
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
    return OtlpJsonDecoder.clip(LINE_BREAK.matcher(s.strip()).replaceAll(" "), max);
  }
}
