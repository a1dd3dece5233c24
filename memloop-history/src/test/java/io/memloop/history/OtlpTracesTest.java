package io.memloop.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.history.EventLogImport.Skipped;
import io.memloop.history.OtlpTraces.Episode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OtlpTracesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long EPOCH = 1_700_000_000L;
  private static final String T1 = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String T2 = "5bf92f3577b34da6a3ce929d0e0e4737";
  private static final String T3 = "6bf92f3577b34da6a3ce929d0e0e4738";
  private static final String T4 = "7bf92f3577b34da6a3ce929d0e0e4739";
  private static final String T5 = "8bf92f3577b34da6a3ce929d0e0e473a";
  private static final String T9 = "9bf92f3577b34da6a3ce929d0e0e4799";
  private static final String SPANS = "resourceSpans[0].scopeSpans[0].spans[0]";

  @TempDir Path dir;
  private final List<Skipped> skipped = new ArrayList<>();

  // ------------------------------------------------------------ fixtures: OTLP JSON written by hand, piece by piece

  private static String q(String s) {
    try {
      return JSON.writeValueAsString(s);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String str(String key, String value) {
    return "{\"key\":" + q(key) + ",\"value\":{\"stringValue\":" + q(value) + "}}";
  }

  private static String dbl(String key, double value) {
    return "{\"key\":" + q(key) + ",\"value\":{\"doubleValue\":" + value + "}}";
  }

  private static String raw(String key, String anyValue) {
    return "{\"key\":" + q(key) + ",\"value\":" + anyValue + "}";
  }

  private static String op(String operation) {
    return str("gen_ai.operation.name", operation);
  }

  private static String user(String text) {
    return str("gen_ai.input.messages", "[{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":" + q(text) + "}]}]");
  }

  private static String assistant(String text) {
    return str("gen_ai.output.messages",
        "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":" + q(text) + "}],\"finish_reason\":\"stop\"}]");
  }

  private static String attrs(String... attributes) {
    return "\"attributes\":[" + String.join(",", attributes) + "]";
  }

  private static String evaluation(double score, String label) {
    return "\"events\":[{\"name\":\"gen_ai.evaluation.result\",\"timeUnixNano\":\"1\"," + attrs(
        str("gen_ai.evaluation.name", "correctness"), dbl("gen_ai.evaluation.score.value", score),
        str("gen_ai.evaluation.score.label", label)) + "}]";
  }

  /** A span starting {@code second} seconds after the test epoch; fields are further JSON members. */
  private static String span(String trace, String id, String parent, int second, String... fields) {
    return "{\"traceId\":" + q(trace) + ",\"spanId\":" + q(id) + ",\"parentSpanId\":" + q(parent)
        + ",\"name\":\"span " + id + "\",\"kind\":1,\"startTimeUnixNano\":\"" + (EPOCH + second) + "000000000\""
        + (fields.length == 0 ? "" : "," + String.join(",", fields)) + "}";
  }

  /** A trace request holding the spans, on one line. */
  private static String spans(String... spans) {
    return "{\"resourceSpans\":[{\"resource\":{\"attributes\":[]},\"scopeSpans\":[{\"scope\":{\"name\":\"t\"},\"spans\":["
        + String.join(",", spans) + "]}]}]}";
  }

  private static Instant at(int second) {
    return Instant.ofEpochSecond(EPOCH + second);
  }

  private Path write(String name, String... lines) {
    try {
      return Files.writeString(dir.resolve(name), String.join("\n", lines) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<Episode> read(Path input) {
    return OtlpTraces.read(input, skipped);
  }

  // ------------------------------------------------------------ tests

  @Test
  void aSuccessfulRunWithTwoToolCallsAndAPassingEvaluation() throws URISyntaxException {
    Path fixture = Path.of(Objects.requireNonNull(getClass().getResource("/otlp/agent-run.json")).toURI());

    List<Episode> episodes = read(fixture);

    assertThat(skipped).isEmpty();
    assertThat(episodes).containsExactly(new Episode("agent-run.json", 1, "0af7651916cd43dd8448eb211c80319c",
        "What is the weather in Paris right now?",
        """
        tool get_weather({"city":"Paris"}) -> {"temp_c":18, "sky":"sunny"}
        tool get_time({"tz":"Europe/Paris"}) -> 14:05
        answer: It is 18°C and sunny in Paris (14:05).""",
        Outcome.SUCCESS, 1.0, Instant.ofEpochSecond(1_700_000_000L)));
  }

  @Test
  void anErrorStatusOrErrorTypeOnTheRunIsAFailureAndFailedToolsShowTheirError() {
    String run = span(T1, "a000000000000001", "", 0, attrs(op("invoke_agent"), user("Find the invoice")),
        "\"status\":{\"code\":2,\"message\":\"agent crashed\"}");
    String search = span(T1, "a000000000000002", "a000000000000001", 1,
        attrs(op("execute_tool"), str("gen_ai.tool.name", "search"), str("gen_ai.tool.call.arguments", "{\"q\":\"invoice\"}")),
        "\"status\":{\"code\":\"STATUS_CODE_ERROR\",\"message\":\"timed out\"}");
    String fetch = span(T1, "a000000000000003", "a000000000000001", 2,
        attrs(op("execute_tool"), str("gen_ai.tool.name", "fetch"), str("error.type", "ConnectionError")),
        "\"status\":{\"code\":2}");
    String typed = span(T2, "a000000000000004", "", 5,
        attrs(op("invoke_agent"), user("Ping the host"), assistant("No answer."), str("error.type", "TimeoutError")));

    List<Episode> episodes = read(write("t.jsonl", spans(run, search, fetch), spans(typed)));

    assertThat(skipped).isEmpty();
    assertThat(episodes).containsExactly(
        new Episode("t.jsonl", 1, T1, "Find the invoice",
            "tool search({\"q\":\"invoice\"}) -> error: timed out\ntool fetch() -> error: ConnectionError",
            Outcome.FAILURE, null, at(0)),
        new Episode("t.jsonl", 2, T2, "Ping the host", "answer: No answer.", Outcome.FAILURE, null, at(5)));
  }

  @Test
  void memloopAttributesComeFirstAndBadOnesSkipTheRun() {
    String evaluated = span(T1, "b000000000000001", "", 0, attrs(op("invoke_agent"), user("Task one"), assistant("Done."),
        dbl("memloop.reward", 0.25), str("memloop.outcome", "failure")), evaluation(1.0, "pass"));
    String outcomeOnly = span(T2, "b000000000000002", "", 1, attrs(op("invoke_agent"), user("Task two"),
        assistant("Done too."), str("memloop.outcome", "Success")), evaluation(0.5, "meh"), "\"status\":{\"code\":2}");
    String nan = span(T3, "b000000000000003", "", 2,
        attrs(op("invoke_agent"), user("Task three"), assistant("x"), raw("memloop.reward", "{\"doubleValue\":\"NaN\"}")));
    String text = span(T4, "b000000000000004", "", 3,
        attrs(op("invoke_agent"), user("Task four"), assistant("x"), str("memloop.reward", "0.9")));
    String maybe = span(T5, "b000000000000005", "", 4,
        attrs(op("invoke_agent"), user("Task five"), assistant("x"), str("memloop.outcome", "maybe")));

    List<Episode> episodes = read(write("m.jsonl", spans(evaluated, outcomeOnly), spans(nan, text, maybe)));

    assertThat(episodes).containsExactly(
        new Episode("m.jsonl", 1, T1, "Task one", "answer: Done.", Outcome.FAILURE, 0.25, at(0)),
        new Episode("m.jsonl", 1, T2, "Task two", "answer: Done too.", Outcome.SUCCESS, 0.5, at(1)));
    assertThat(skipped).containsExactly(
        new Skipped("m.jsonl", 2, "trace " + T3 + " span b000000000000003: memloop.reward: NaN is not a finite number"),
        new Skipped("m.jsonl", 2, "trace " + T4 + " span b000000000000004: memloop.reward: \"0.9\" is not a finite number"),
        new Skipped("m.jsonl", 2,
            "trace " + T5 + " span b000000000000005: memloop.outcome: \"maybe\" is not success, failure or unknown"));
  }

  @Test
  void evaluationResultsAsLogRecordsOnAnotherLineAreCorrelatedByTrace() {
    String run = span(T1, "c000000000000001", "", 0, attrs(op("invoke_agent"), user("Book a table"), assistant("Booked for 8pm.")));
    String chat = span(T1, "c000000000000002", "c000000000000001", 1, attrs(op("chat")));
    String logs = "{\"resourceLogs\":[{\"resource\":{},\"scopeLogs\":[{\"scope\":{},\"logRecords\":["
        + "{\"timeUnixNano\":\"1\",\"eventName\":\"gen_ai.evaluation.result\",\"traceId\":\"" + T1
        + "\",\"spanId\":\"c000000000000002\"," + attrs(str("gen_ai.evaluation.name", "correctness"),
            dbl("gen_ai.evaluation.score.value", 0.0), str("gen_ai.evaluation.score.label", "incorrect")) + "},"
        + "{\"traceId\":\"" + T1.toUpperCase() + "\"," + attrs(str("event.name", "gen_ai.evaluation.result"),
            dbl("gen_ai.evaluation.score.value", 0.5), str("gen_ai.evaluation.score.label", "FAIL")) + "},"
        + "{\"eventName\":\"app.log\",\"body\":{\"stringValue\":\"hello\"}},"
        + "{\"eventName\":\"gen_ai.evaluation.result\",\"traceId\":\"" + T9 + "\"," + attrs(dbl("gen_ai.evaluation.score.value", 1.0)) + "},"
        + "{\"eventName\":\"gen_ai.evaluation.result\",\"traceId\":\"\"," + attrs(dbl("gen_ai.evaluation.score.value", 1.0)) + "}"
        + "]}]}]}";

    List<Episode> episodes = read(write("e.jsonl", spans(run, chat), logs));

    assertThat(episodes).containsExactly(
        new Episode("e.jsonl", 1, T1, "Book a table", "answer: Booked for 8pm.", Outcome.FAILURE, 0.25, at(0)));
    assertThat(skipped).containsExactly(
        new Skipped("e.jsonl", 2, "resourceLogs[0].scopeLogs[0].logRecords[4].traceId: missing (an evaluation result must name the trace it scores)"),
        new Skipped("e.jsonl", 2, "resourceLogs[0].scopeLogs[0].logRecords[3]: the evaluation result of trace " + T9
            + " matches no agent run"));
  }

  @Test
  void spansOfOneTraceSplitOverLinesAndFilesAreGrouped() {
    write("a.jsonl", spans(span(T1, "d000000000000001", "", 0, attrs(op("invoke_agent"), user("Rename the file")))),
        spans(span(T1, "d000000000000003", "d000000000000001", 3, attrs(op("chat"), assistant("Renamed report.txt.")))));
    write("b.jsonl", "", spans(span(T1, "d000000000000002", "d000000000000001", 2, attrs(op("execute_tool"),
        str("gen_ai.tool.name", "mv"), str("gen_ai.tool.call.arguments", "report.txt summary.txt"),
        str("gen_ai.tool.call.result", "ok")))));

    List<Episode> episodes = read(dir);

    assertThat(skipped).isEmpty();
    assertThat(episodes).containsExactly(new Episode("a.jsonl", 1, T1, "Rename the file",
        "tool mv(report.txt summary.txt) -> ok\nanswer: Renamed report.txt.", Outcome.UNKNOWN, null, at(0)));
  }

  @Test
  void openLlmetryFlatteningAndLegacyMessageEventsAreRead() {
    String flattened = span(T1, "e000000000000001", "", 0, attrs(str("gen_ai.system", "openai"),
        str("gen_ai.prompt.0.role", "system"), str("gen_ai.prompt.0.content", "You are terse."),
        str("gen_ai.prompt.1.role", "user"), str("gen_ai.prompt.1.content", "Summarise the Q3 report"),
        str("gen_ai.completion.0.role", "assistant"), str("gen_ai.completion.0.content", "Revenue grew 12%.")));
    String events = span(T2, "e000000000000002", "", 10, attrs(str("gen_ai.system", "anthropic")),
        "\"events\":[{\"name\":\"gen_ai.user.message\"," + attrs(str("content", "Translate 'chat' to English")) + "},"
            + "{\"name\":\"gen_ai.choice\"," + attrs(raw("message", "{\"kvlistValue\":{\"values\":["
            + str("role", "assistant") + "," + str("content", "cat") + "]}}")) + "}]");

    List<Episode> episodes = read(write("llm.jsonl", spans(events), spans(flattened)));

    assertThat(skipped).isEmpty();
    assertThat(episodes).containsExactly(
        new Episode("llm.jsonl", 2, T1, "Summarise the Q3 report", "answer: Revenue grew 12%.", Outcome.UNKNOWN, null, at(0)),
        new Episode("llm.jsonl", 1, T2, "Translate 'chat' to English", "answer: cat", Outcome.UNKNOWN, null, at(10)));
  }

  @Test
  void aNestedAgentBelongsToTheOuterRun() {
    String outer = span(T1, "f000000000000001", "", 0,
        attrs(op("invoke_agent"), user("Plan a trip to Rome"), assistant("Booked flight AZ123.")));
    String inner = span(T1, "f000000000000002", "f000000000000001", 1,
        attrs(op("invoke_agent"), str("gen_ai.agent.name", "flights"), user("Find flights to Rome")),
        evaluation(0.8, "Correct"));
    String tool = span(T1, "f000000000000003", "f000000000000002", 2, attrs(op("execute_tool"),
        str("gen_ai.tool.name", "search_flights"), raw("gen_ai.tool.call.arguments",
            "{\"kvlistValue\":{\"values\":[" + str("to", "FCO") + "]}}"), str("gen_ai.tool.call.result", "AZ123")));

    List<Episode> episodes = read(write("n.jsonl", spans(tool, inner, outer)));

    assertThat(skipped).isEmpty();
    assertThat(episodes).containsExactly(new Episode("n.jsonl", 1, T1, "Plan a trip to Rome",
        "tool search_flights({\"to\":\"FCO\"}) -> AZ123\nanswer: Booked flight AZ123.", Outcome.SUCCESS, 0.8, at(0)));
  }

  @Test
  void aTraceWithoutGenAiSpansIsSkippedWithItsReason() {
    String http = span(T1, "1000000000000001", "", 0, attrs(str("http.request.method", "GET")));
    String child = span(T1, "1000000000000002", "1000000000000001", 1, attrs(str("db.system", "postgresql")));

    List<Episode> episodes = read(write("plain.jsonl", spans(http), spans(child)));

    assertThat(episodes).isEmpty();
    assertThat(skipped).containsExactly(new Skipped("plain.jsonl", 1, "trace " + T1 + ": no GenAI span"));
  }

  @Test
  void aParentCycleSkipsTheTrace() {
    String a = span(T1, "1100000000000001", "1100000000000002", 0, attrs(op("invoke_agent"), user("Loop"), assistant("x")));
    String b = span(T1, "1100000000000002", "1100000000000001", 1, attrs(op("chat")));
    String ok = span(T2, "1100000000000003", "", 2, attrs(op("invoke_agent"), user("Fine"), assistant("y")));

    List<Episode> episodes = read(write("cycle.jsonl", spans(a, b, ok)));

    assertThat(episodes).extracting(Episode::traceId).containsExactly(T2);
    assertThat(skipped).containsExactly(new Skipped("cycle.jsonl", 1,
        "trace " + T1 + ": the parentSpanId links above span 1100000000000001 form a cycle (trace left out)"));
  }

  @Test
  void malformedRecordsAreSkippedWithTheirFieldAndTheRestIsRead() {
    String good = span(T1, "2000000000000001", "", 0, attrs(op("invoke_agent"), user("Add 3 and 4")));
    String add = span(T1, "2000000000000002", "2000000000000001", 1, attrs(op("execute_tool"), str("gen_ai.tool.name", "add"),
        raw("gen_ai.tool.call.arguments", "{\"kvlistValue\":{\"values\":[" + raw("a", "{\"intValue\":\"3\"}") + ","
            + raw("b", "{\"intValue\":4}") + "]}}"), raw("gen_ai.tool.call.result", "{\"intValue\":\"-7\"}")));
    String badTrace = span("xyz", "2000000000000003", "", 0, attrs(op("chat")));
    String noSpanId = "{\"traceId\":\"" + T2 + "\",\"name\":\"x\"}";
    String badInt = span(T2, "2000000000000004", "", 0, attrs(raw("n", "{\"intValue\":\"3.5\"}")));
    String zero = span("00000000000000000000000000000000", "2000000000000005", "", 0);
    String twoKinds = span(T2, "2000000000000006", "", 0, attrs(raw("n", "{\"intValue\":1,\"stringValue\":\"1\"}")));
    String badTime = "{\"traceId\":\"" + T2 + "\",\"spanId\":\"2000000000000007\",\"startTimeUnixNano\":\"12e9\"}";

    List<Episode> episodes = read(write("bad.jsonl",
        "{\"resourceSpans\": [",
        spans(badTrace, good, add),
        spans(noSpanId),
        spans(badInt),
        "[1, 2]",
        "{\"resourceMetrics\":[]}",
        spans(zero, twoKinds, badTime),
        "{\"resourceSpans\":[{\"scopeSpans\":{}}]}",
        "{\"resourceSpans\":[]} {\"resourceSpans\":[]}",
        "{\"resourceSpans\":[],\"resourceSpans\":[]}"));

    assertThat(episodes).containsExactly(
        new Episode("bad.jsonl", 2, T1, "Add 3 and 4", "tool add({\"a\":3,\"b\":4}) -> -7", Outcome.UNKNOWN, null, at(0)));
    assertThat(skipped).extracting(Skipped::line).containsExactly(1, 2, 3, 4, 5, 6, 7, 7, 7, 8, 9, 10);
    assertThat(skipped.get(0).reason()).startsWith("not valid JSON: ");
    assertThat(skipped.subList(1, 8)).extracting(Skipped::reason).containsExactly(
        SPANS + ".traceId: 'xyz' is not 32 hex characters",
        SPANS + ".spanId: missing",
        SPANS + ".attributes[0].value.intValue: not an int64 (a decimal string or an integer)",
        "not a JSON object",
        "no resourceSpans or resourceLogs: not an OTLP trace or log request",
        SPANS + ".traceId: all zero (an invalid id)",
        "resourceSpans[0].scopeSpans[0].spans[1].attributes[0].value: holds both stringValue and intValue (an AnyValue holds one)");
    assertThat(skipped.get(8).reason())
        .isEqualTo("resourceSpans[0].scopeSpans[0].spans[2].startTimeUnixNano: not a non-negative decimal string of nanoseconds");
    assertThat(skipped.get(9).reason()).isEqualTo("resourceSpans[0].scopeSpans: not an array");
    assertThat(skipped.get(10).reason()).startsWith("not valid JSON: Trailing token");
    assertThat(skipped.get(11).reason()).startsWith("not valid JSON: Duplicate field 'resourceSpans'");
  }

  @Test
  void aDirectoryIsReadFileByFileInNameOrder() throws IOException {
    String first = span(T1, "3000000000000001", "", 5, attrs(op("invoke_agent"), user("First task"), assistant("First answer")));
    String second = span(T2, "3000000000000002", "", 1, attrs(op("invoke_agent"), user("Second task"), assistant("Second answer")));
    String badId = span(T3, "zz", "", 2);
    write("d.json", "{ broken");
    write("c.txt", "not a trace");
    write("b.json", "", "", JSON.readTree(spans(first, second)).toPrettyString(), spans(badId));
    write("a.jsonl", spans(first), "oops");
    int secondObject = 3 + (int) JSON.readTree(spans(first, second)).toPrettyString().lines().count();

    List<Episode> episodes = read(dir);

    assertThat(episodes).containsExactly(
        new Episode("b.json", 3, T2, "Second task", "answer: Second answer", Outcome.UNKNOWN, null, at(1)),
        new Episode("a.jsonl", 1, T1, "First task", "answer: First answer", Outcome.UNKNOWN, null, at(5)));
    assertThat(skipped).extracting(Skipped::file, Skipped::line).containsExactly(
        tuple("a.jsonl", 2), tuple("b.json", 3), tuple("b.json", secondObject), tuple("d.json", 1));
    assertThat(skipped.get(1).reason()).isEqualTo(
        SPANS + ": span 3000000000000001 of trace " + T1 + " was already read at a.jsonl:1 (duplicate left out)");
    assertThat(skipped.get(2).reason()).isEqualTo(SPANS + ".spanId: 'zz' is not 16 hex characters");
    assertThat(skipped.get(3).reason()).startsWith("not valid JSON: ").endsWith("(the rest of the file is unreadable)");
  }

  @Test
  void invalidUtf8StopsTheFileAfterOneSkippedEntry() throws IOException {
    String one = spans(span(T1, "4000000000000001", "", 0, attrs(op("invoke_agent"), user("One"), assistant("1"))));
    String two = spans(span(T2, "4000000000000002", "", 1, attrs(op("invoke_agent"), user("Two"), assistant("2"))));
    byte[] bad = {'{', (byte) 0xC3, '(', '}', '\n'};
    Path file = dir.resolve("utf.jsonl");
    Files.write(file, (one + "\r\n").getBytes(StandardCharsets.UTF_8));
    Files.write(file, bad, java.nio.file.StandardOpenOption.APPEND);
    Files.write(file, (two + "\n").getBytes(StandardCharsets.UTF_8), java.nio.file.StandardOpenOption.APPEND);

    List<Episode> episodes = read(file);

    assertThat(episodes).extracting(Episode::traceId, Episode::intent).containsExactly(tuple(T1, "One"));
    assertThat(skipped).containsExactly(new Skipped("utf.jsonl", 2, "not valid UTF-8 (the rest of the file is not read)"));
  }

  @Test
  void toolCallsComeFromMessagesWhenThereIsNoToolSpanAndLongTextIsClipped() {
    String arguments = "{\"id\":\"" + "x".repeat(300) + "\"}";
    String run = span(T1, "5000000000000001", "", 0, attrs(op("invoke_agent"), user("Look it up")));
    String call = span(T1, "5000000000000002", "5000000000000001", 1, attrs(op("chat"), str("gen_ai.output.messages",
        "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"call_1\",\"name\":\"lookup\",\"arguments\":"
            + arguments + "}]}]")));
    String answer = span(T1, "5000000000000003", "5000000000000001", 2, attrs(op("chat"),
        str("gen_ai.input.messages", "[{\"role\":\"tool\",\"parts\":[{\"type\":\"tool_call_response\",\"id\":\"call_1\","
            + "\"response\":\"found\"}]}]"), assistant("y".repeat(1_500))));

    List<Episode> episodes = read(write("m.jsonl", spans(run, call, answer)));

    assertThat(skipped).isEmpty();
    assertThat(episodes).singleElement().satisfies(e -> {
      assertThat(e.experience()).isEqualTo("tool lookup(" + arguments.substring(0, 199) + "…) -> found\nanswer: "
          + "y".repeat(999) + "…");
      assertThat(e.intent()).isEqualTo("Look it up");
    });
  }

  @Test
  void aLongTrajectoryKeepsTheAnswerWithinFourThousandCharacters() {
    List<String> all = new ArrayList<>();
    all.add(span(T1, "6000000000000001", "", 0, attrs(op("invoke_agent"), user("Many calls"), assistant("Finished."))));
    for (int i = 0; i < 30; i++) {
      all.add(span(T1, String.format("61%014d", i), "6000000000000001", i + 1, attrs(op("execute_tool"),
          str("gen_ai.tool.name", "step"), str("gen_ai.tool.call.arguments", "a".repeat(150)),
          str("gen_ai.tool.call.result", "r" + i))));
    }

    List<Episode> episodes = read(write("long.jsonl", spans(all.toArray(String[]::new))));

    String line = "tool step(" + "a".repeat(150) + ") -> r";
    assertThat(episodes).singleElement().satisfies(e -> {
      assertThat(e.experience()).hasSizeLessThanOrEqualTo(4_000).startsWith(line + "0\n" + line + "1\n")
          .endsWith(" more tool calls\nanswer: Finished.");
      assertThat(e.experience().lines().filter(l -> l.startsWith("tool "))).hasSize(23);
      assertThat(e.experience()).contains("\n… 7 more tool calls\n");
    });
  }

  @Test
  void runsWithoutIntentTrajectoryOrStartTimeAreSkipped() {
    String noIntent = span(T1, "7000000000000001", "", 0, attrs(op("invoke_agent"), assistant("x")));
    String noTrajectory = span(T2, "7000000000000002", "", 0, attrs(op("invoke_agent"), user("Hello")));
    String noStart = "{\"traceId\":\"" + T3 + "\",\"spanId\":\"7000000000000003\"," + attrs(op("invoke_agent"), user("Hi"),
        assistant("Hello")) + "}";
    String badMessages = span(T4, "7000000000000004", "", 0, attrs(op("invoke_agent"), str("gen_ai.input.messages", "[{")));

    List<Episode> episodes = read(write("r.jsonl", spans(noIntent, noTrajectory, noStart, badMessages)));

    assertThat(episodes).isEmpty();
    assertThat(skipped).extracting(Skipped::reason).hasSize(4).startsWith(
        "trace " + T1 + " span 7000000000000001: no user message to take the intent from",
        "trace " + T2 + " span 7000000000000002: no tool call and no answer to take the experience from",
        "trace " + T3 + " span 7000000000000003: startTimeUnixNano: missing");
    assertThat(skipped.get(3).reason()).startsWith(
        "trace " + T4 + " span 7000000000000004: span 7000000000000004 gen_ai.input.messages: not valid JSON: "
            + "Unexpected end-of-input");
  }

  @Test
  void episodesAreOrderedByStartThenTraceId() {
    String later = span(T1, "8000000000000001", "", 9, attrs(op("invoke_agent"), user("Later"), assistant("a")));
    String tieB = span(T3, "8000000000000002", "", 2, attrs(op("invoke_agent"), user("Tie B"), assistant("b")));
    String tieA = span(T2, "8000000000000003", "", 2, attrs(op("invoke_agent"), user("Tie A"), assistant("c")));

    List<Episode> episodes = read(write("o.jsonl", spans(later, tieB, tieA)));

    assertThat(episodes).extracting(Episode::intent).containsExactly("Tie A", "Tie B", "Later");
  }

  @Test
  void anInputThatIsNeitherFileNorDirectoryOrAnEmptyDirectoryIsRefused() throws IOException {
    assertThatThrownBy(() -> OtlpTraces.read(dir.resolve("missing.jsonl"), skipped))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("--input"))
        .hasMessageContaining("missing.jsonl is neither a regular file nor a directory");
    Files.writeString(dir.resolve("notes.txt"), "x");
    assertThatThrownBy(() -> OtlpTraces.read(dir, skipped))
        .isInstanceOf(MemLoopException.class)
        .hasMessage("--input: " + dir + " holds no .json or .jsonl file");
    assertThat(skipped).isEmpty();
  }

  @Test
  void aRunWhoseUserMessageIsOverTheIntentBoundIsSkippedAsSuch() {
    String huge = span(T1, "9000000000000001", "", 0, attrs(op("invoke_agent"), user("x".repeat(1_000_009)), assistant("done")));
    String atBound = span(T2, "9000000000000002", "", 1,
        attrs(op("invoke_agent"), user("y".repeat(io.memloop.Checks.MAX_INTENT_CHARS)), assistant("done")));

    List<Episode> episodes = read(write("big.jsonl", spans(huge, atBound)));

    assertThat(episodes).extracting(Episode::traceId).containsExactly(T2);
    assertThat(skipped).containsExactly(new Skipped("big.jsonl", 1, "trace " + T1 + " span 9000000000000001: intent (the "
        + "first user message) is 1000009 characters, over the limit of 8192", Skipped.Kind.INTENT_TOO_LONG));
  }

  @Test
  void aSpanOrLogRecordWithTwoBadFieldsIsReportedAtTheFirstInReadingOrder() {
    // issue 26: decoding (OtlpJsonDecoder) and GenAI meaning (this class) are read apart, yet a record is still
    // reported at its first bad field: the evaluation event before the status, the missing trace before the span id
    String span = span(T1, "a000000000000001", "", 0, "\"events\":[{\"name\":\"gen_ai.evaluation.result\","
        + attrs(raw("gen_ai.evaluation.score.value", "{\"stringValue\":\"high\"}")) + "}]",
        "\"status\":{\"code\":\"BROKEN\"}");
    String log = "{\"resourceLogs\":[{\"scopeLogs\":[{\"logRecords\":[{\"eventName\":\"gen_ai.evaluation.result\","
        + "\"spanId\":7," + attrs(dbl("gen_ai.evaluation.score.value", 1)) + "}]}]}]}";

    List<Episode> episodes = read(write("two.jsonl", spans(span), log));

    assertThat(episodes).isEmpty();
    assertThat(skipped).extracting(Skipped::reason).containsExactly(
        SPANS + ".events[0].attributes[gen_ai.evaluation.score.value]: not a finite number",
        "resourceLogs[0].scopeLogs[0].logRecords[0].traceId: missing (an evaluation result must name the trace it scores)");
  }
}
