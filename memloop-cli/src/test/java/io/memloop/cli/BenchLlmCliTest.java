package io.memloop.cli;

import io.memloop.cli.CliRun.Result;

import io.memloop.server.Json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.chat.ChatMessage;
import io.memloop.embeddings.ScriptedServer;
import io.memloop.embeddings.ScriptedServer.Reply;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code memloop bench --policy openai} end to end against a scripted chat server on loopback: the
 * server plays a model that reuses what worked on the same task when the prompt shows it, and picks
 * the first listed procedure otherwise.
 */
class BenchLlmCliTest {
  private static final Pattern TASK = Pattern.compile("^Task: (.+)$", Pattern.MULTILINE);
  private static final Pattern OPTION = Pattern.compile("^- `(.+)`$", Pattern.MULTILINE);

  @TempDir Path dir;

  private static Result run(String... args) {
    return CliRun.run(args);
  }

  /**
   * What the scripted model answers to a conversation whose first user message is {@code prompt}:
   * the procedure that worked on this very task if a successful experience says so, else the first
   * listed procedure that no failed experience of this task rules out.
   */
  static String answer(String prompt) {
    Matcher task = TASK.matcher(prompt);
    task.find();
    String same = "Task: " + Pattern.quote(task.group(1)) + "\\n.*\\n\\s*";
    Matcher worked = Pattern.compile(same + "What worked: `([^`]+)`").matcher(prompt);
    if (worked.find()) {
      return "`" + worked.group(1) + "`";
    }
    Set<String> avoid = new HashSet<>();
    Matcher failed = Pattern.compile(same + "What went wrong: `([^`]+)`").matcher(prompt);
    while (failed.find()) {
      avoid.add(failed.group(1));
    }
    Matcher option = OPTION.matcher(prompt);
    String choice = "";
    while (option.find()) {
      if (choice.isEmpty() || (avoid.contains(choice) && !avoid.contains(option.group(1)))) {
        choice = option.group(1);
      }
    }
    return "I will run `" + choice + "`.";
  }

  @Test
  void openAiPolicy_drivesTheBenchThroughTheChatEndpoint_andLearnsFromMemory() throws IOException {
    try (ScriptedServer server = ScriptedServer.start((request, call) ->
        Reply.of(200, ScriptedServer.chatCompletion(answer(request.messages().get(1).content()), "stop", 100, 5)))) {
      Path out = dir.resolve("report");
      Result r = run("bench", "--policy", "openai", "--base-url", server.baseUrl(), "--model", "scripted", "--quick",
          "--env", "recurring-ops", "--seeds", "7", "--epochs", "3", "--strategies", "no-memory,similarity",
          "--no-progress", "--out", out.toString());
      assertThat(r.code()).as(r.err()).isZero();
      assertThat(r.out()).contains("policy openai:scripted", "LLM usage: " + server.requests().size() + " requests");

      JsonNode summary = Json.MAPPER.readTree(out.resolve("summary.json").toFile());
      assertThat(summary.get("policy").asText()).isEqualTo("openai:scripted");
      assertThat(summary.get("llmUsage").get("requests").asLong()).isEqualTo(server.requests().size());
      assertThat(summary.get("llmUsage").get("promptTokens").asLong()).isEqualTo(100L * server.requests().size());
      JsonNode ops = summary.get("environments").get("recurring-ops");
      int tasks = ops.get("tasks").asInt();
      int heldOut = ops.get("heldOut").asInt();
      assertThat(heldOut).isPositive();
      double none = ops.get("strategies").get("no-memory").get("lastEpochAccuracy").get("mean").asDouble();
      double similarity = ops.get("strategies").get("similarity").get("lastEpochAccuracy").get("mean").asDouble();
      assertThat(similarity).isGreaterThan(none + 0.2);

      List<String> transcripts = Files.readAllLines(out.resolve("transcripts.jsonl"));
      assertThat(transcripts).hasSize(2 * (3 * tasks + heldOut)); // two strategies, 3 epochs, then transfer
      assertThat(server.requests()).hasSize(transcripts.size()); // every reply was readable: one request each
      JsonNode first = Json.MAPPER.readTree(transcripts.getFirst());
      assertThat(first.get("environment").asText()).isEqualTo("recurring-ops");
      assertThat(first.get("messages").get(0).get("role").asText()).isEqualTo("system");
      assertThat(first.get("messages").get(2).get("role").asText()).isEqualTo("assistant");

      ScriptedServer.Recorded request = server.requests().getFirst();
      assertThat(request.path()).isEqualTo("/v1/chat/completions");
      assertThat(request.json().get("model").asText()).isEqualTo("scripted");
      assertThat(request.json().get("temperature").asDouble()).isZero();
      assertThat(request.json().has("seed")).isTrue();
      assertThat(request.messages()).extracting(ChatMessage::role)
          .containsExactly(ChatMessage.Role.SYSTEM, ChatMessage.Role.USER);
    }
  }

  /**
   * With --extract, every training episode of a strategy with memory is distilled by the same model; the scripted
   * distiller keeps the result line it is given (so the scripted policy can still reuse it) under a marker.
   */
  @Test
  void extract_distilsEveryTrainingEpisodeWithTheModel_andTheDistilledTextIsWhatIsRemembered() throws IOException {
    Pattern result = Pattern.compile("^result: (.*)\\z", Pattern.MULTILINE | Pattern.DOTALL);
    try (ScriptedServer server = ScriptedServer.start((request, call) -> {
      String first = request.messages().getFirst().content();
      if (first.startsWith("You distil")) {
        Matcher m = result.matcher(first.substring(first.indexOf("What the agent did")));
        String kept = m.find() ? m.group(1).substring(0, m.group(1).indexOf("\n\n") < 0 ? m.group(1).length()
            : m.group(1).indexOf("\n\n")) : "nothing";
        return Reply.of(200, ScriptedServer.chatCompletion("1. distilled\n" + kept, "stop", 50, 5));
      }
      return Reply.of(200, ScriptedServer.chatCompletion(answer(request.messages().get(1).content()), "stop", 100, 5));
    })) {
      Path out = dir.resolve("extract");
      Result r = run("bench", "--policy", "openai", "--base-url", server.baseUrl(), "--model", "scripted", "--extract",
          "--quick", "--env", "recurring-ops", "--seeds", "7", "--epochs", "3", "--strategies", "no-memory,similarity",
          "--no-progress", "--out", out.toString());
      assertThat(r.code()).as(r.err()).isZero();
      JsonNode summary = Json.MAPPER.readTree(out.resolve("summary.json").toFile());
      JsonNode ops = summary.get("environments").get("recurring-ops");
      int tasks = ops.get("tasks").asInt();
      long distillations = server.requests().stream().filter(q -> q.messages().getFirst().content().startsWith("You distil")).count();
      assertThat(distillations).isEqualTo(3L * tasks); // similarity's training episodes only
      assertThat(summary.get("llmUsage").get("experiencesDistilled").asLong()).isEqualTo(distillations);
      assertThat(summary.get("llmUsage").get("experiencesKeptRaw").asLong()).isZero();
      assertThat(server.requests()).filteredOn(q -> q.messages().size() > 1)
          .anySatisfy(q -> assertThat(q.messages().get(1).content()).contains("1. distilled"));
      double none = ops.get("strategies").get("no-memory").get("lastEpochAccuracy").get("mean").asDouble();
      double similarity = ops.get("strategies").get("similarity").get("lastEpochAccuracy").get("mean").asDouble();
      assertThat(similarity).isGreaterThan(none + 0.2);
      assertThat(r.out()).contains("experience extraction: " + distillations + " distilled, 0 kept raw");
    }
  }

  @Test
  void openAiPolicy_serverFailing_isOneLineAndExit6() throws IOException {
    try (ScriptedServer server = ScriptedServer.start((request, call) -> Reply.of(503, "{\"error\":{\"message\":\"loading\"}}"))) {
      Result r = run("bench", "--policy", "openai", "--base-url", server.baseUrl(), "--model", "m", "--max-retries", "0",
          "--quick", "--env", "recurring-ops", "--seeds", "1", "--epochs", "1", "--strategies", "no-memory",
          "--no-progress", "--out", dir.resolve("r").toString());
      assertThat(r.code()).as(r.err()).isEqualTo(6);
      assertThat(r.err().lines()).hasSize(1);
      assertThat(r.err()).startsWith("memloop: ").contains("HTTP 503", "/v1/chat/completions").doesNotContain("\tat ");
    }
  }

  @Test
  void policyOptions_areValidated_namingTheOption() {
    String[][] cases = {
        {"--policy", "gpt"}, {"--model", "m"}, {"--policy", "openai", "--model", "m"},
        {"--policy", "openai", "--base-url", "http://localhost:11434/v1", "--model", "m"},
        {"--policy", "openai", "--base-url", "http://localhost:11434"},
        {"--policy", "openai", "--base-url", "http://localhost:11434", "--model", "m", "--temperature", "3"},
        {"--policy", "openai", "--base-url", "http://localhost:11434", "--model", "m", "--format-retries", "-1"},
        {"--parallel", "0"}};
    String[] named = {"--policy", "--model", "--base-url", "--base-url", "--model", "--temperature", "--format-retries",
        "--parallel"};
    for (int i = 0; i < cases.length; i++) {
      String[] args = new String[cases[i].length + 2];
      args[0] = "bench";
      System.arraycopy(cases[i], 0, args, 1, cases[i].length);
      args[args.length - 1] = "--no-progress";
      Result r = run(args);
      assertThat(r.code()).as("%s: %s", List.of(cases[i]), r.err()).isEqualTo(2);
      assertThat(r.err().lines()).hasSize(1);
      assertThat(r.err()).as(List.of(cases[i]).toString()).startsWith("memloop: " + named[i] + ": ");
    }
  }
}
