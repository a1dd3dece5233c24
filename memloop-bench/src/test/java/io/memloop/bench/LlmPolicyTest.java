package io.memloop.bench;

import io.memloop.embeddings.HashingEmbedder;
import static io.memloop.bench.Fixtures.env;
import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.chat.ChatMessage;
import io.memloop.chat.ChatModel;
import io.memloop.chat.ChatReply;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LlmPolicyTest {
  private static final HashingEmbedder EMBEDDER = new HashingEmbedder(64);

  /** A chat model answering with {@code reply(messages, call)}; counts requests and keeps the conversations. */
  private static final class Scripted implements ChatModel {
    final BiFunction<List<ChatMessage>, Integer, String> reply;
    final AtomicInteger calls = new AtomicInteger();
    final List<List<ChatMessage>> seen = Collections.synchronizedList(new ArrayList<>());

    Scripted(BiFunction<List<ChatMessage>, Integer, String> reply) {
      this.reply = reply;
    }

    @Override
    public String modelId() {
      return "test:scripted";
    }

    @Override
    public ChatReply complete(List<ChatMessage> messages, long seed) {
      seen.add(messages);
      return new ChatReply(reply.apply(messages, calls.incrementAndGet()), "stop", 10, 2);
    }
  }

  private static String firstUser(List<ChatMessage> messages) {
    return messages.get(1).content();
  }

  @Test
  void experiences_sectionsBySuccessAndFailure_inRankOrder() {
    String text = LlmPrompts.experiences(List.of(
        memory("fail A", Outcome.FAILURE), memory("win B\nsecond line", Outcome.SUCCESS),
        memory("win C", Outcome.SUCCESS), memory("prior D", Outcome.UNKNOWN)));
    assertThat(text).containsSubsequence(
        "## Successful experiences", "1. win B\n   second line", "2. win C",
        "## Failed experiences", "1. fail A", "## Other notes", "1. prior D");
    assertThat(LlmPrompts.experiences(List.of())).isEqualTo("No experiences from earlier tasks are available for this task.");
    assertThat(LlmPrompts.experiences(List.of(memory("win", Outcome.SUCCESS)))).doesNotContain("## Failed");
  }

  @Test
  void oneOf_readsBacktickedBareOrSingleMention_andExplainsTheRest() {
    LlmPolicy.ReplyParser<String> p = LlmPrompts.oneOf(List.of("restart pods", "drain node", "roll back"), "procedure");
    assertThat(p.parse("I would run `Drain node.` here").value()).isEqualTo("drain node");
    assertThat(p.parse("`kubectl` then `roll back`").value()).isEqualTo("roll back");
    assertThat(p.parse("  Restart Pods. ").value()).isEqualTo("restart pods");
    assertThat(p.parse("The answer is to roll back the deployment").value()).isEqualTo("roll back");
    assertThat(p.parse("restart pods or drain node").problem()).isEqualTo(
        "it names 2 of the listed procedures; name exactly one, between backticks.");
    assertThat(p.parse("no idea").problem()).isEqualTo("it names none of the listed procedures.");
    assertThat(p.parse("no idea").value()).isNull();
  }

  @Test
  void readQuery_takesOneSelectFromAFenceOrTheText() {
    assertThat(SqlEnvironment.readQuery("Here:\n```sql\nSELECT name\nFROM t -- all rows\nWHERE x = 1;\n```").value())
        .isEqualTo("SELECT name FROM t WHERE x = 1");
    assertThat(SqlEnvironment.readQuery("with a as (select 1) select * from a").value())
        .isEqualTo("with a as (select 1) select * from a");
    assertThat(SqlEnvironment.readQuery("DELETE FROM customers").problem()).contains("not a SELECT query");
    assertThat(SqlEnvironment.readQuery("SELECT 1; DROP TABLE t").problem()).contains("more than one statement");
    assertThat(SqlEnvironment.readQuery("```sql\n```").problem()).isEqualTo("it holds no query.");
  }

  @Test
  void readCommand_toleratesDecoration_andRejectsProse() {
    assertThat(TextWorldEnvironment.readCommand("> Go to Kitchen.").value()).isEqualTo(TextWorldAction.go("kitchen"));
    assertThat(TextWorldEnvironment.readCommand("Command: `take apple from fridge`").value())
        .isEqualTo(TextWorldAction.take("apple", "fridge"));
    assertThat(TextWorldEnvironment.readCommand("\n\nlook\nthen I will open the fridge").value())
        .isEqualTo(TextWorldAction.look());
    assertThat(TextWorldEnvironment.readCommand("I think we should explore").problem())
        .startsWith("'i think we should explore' is not a command");
  }

  @Test
  void conversation_correctsAnUnreadableReply_thenUsesTheNext() {
    RecurringTasksEnvironment env = env(1, 4, 2, 0, 0.05);
    Task task = env.tasks().getFirst();
    Scripted model = new Scripted((m, call) -> call == 1 ? "Let me think about it." : "`" + env.answerOf(task) + "`");
    LlmPolicy llm = new LlmPolicy(model, 2, null);
    Episode e = env.attempt(task, List.of(), llm, new SplittableRandom(1));
    assertThat(e.success()).isTrue();
    assertThat(e.transcript()).extracting(ChatMessage::role).containsExactly(
        ChatMessage.Role.SYSTEM, ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT, ChatMessage.Role.USER,
        ChatMessage.Role.ASSISTANT);
    assertThat(e.transcript().get(3).content())
        .isEqualTo("I could not use that reply: it names none of the listed procedures. Reply again, in the format asked.");
    assertThat(llm.usage()).isEqualTo(new LlmPolicy.Usage(2, 1, 0, 0, 20, 4, 0, 0));
  }

  @Test
  void conversation_givesUpAfterTheFormatRetries_asAFailedEpisode() {
    RecurringTasksEnvironment env = env(1, 4, 2, 0, 0.05);
    Task task = env.tasks().getFirst();
    Scripted model = new Scripted((m, call) -> "something else entirely");
    LlmPolicy llm = new LlmPolicy(model, 3, null);
    Episode e = env.attempt(task, List.of(), llm, new SplittableRandom(1));
    assertThat(e.success()).isFalse();
    assertThat(e.reward()).isEqualTo(-1);
    assertThat(e.experience()).contains("What went wrong: no procedure was chosen");
    assertThat(CopyFirstPolicy.quoted(e.experience())).isEmpty(); // the frozen policy ignores the note
    assertThat(model.calls).hasValue(4);
    assertThat(llm.usage().unreadable()).isEqualTo(1);
    assertThat(llm.usage().corrections()).isEqualTo(3);
  }

  @Test
  void thinkingBlock_isSkippedBeforeParsing() {
    assertThat(LlmPolicy.withoutThinking("<think>maybe `drain node`?\nno.</think>\n`roll back`")).isEqualTo("`roll back`");
    assertThat(LlmPolicy.withoutThinking("`roll back` <think>x</think>")).isEqualTo("`roll back` <think>x</think>");
  }

  @Test
  void recurringOps_promptListsProceduresAndExperiences_andRemembersLikeTheFrozenPolicy() {
    RecurringTasksEnvironment env = env(2, 4, 2, 0, 0.05);
    Task task = env.tasks().getFirst();
    String answer = env.answerOf(task);
    Scripted model = new Scripted((m, call) -> "`" + answer + "`");
    Memory shown = memory(CopyFirstPolicy.failureExperience(task.intent(), "x"), Outcome.FAILURE);
    Episode e = env.attempt(task, List.of(shown), new LlmPolicy(model, 2, null), new SplittableRandom(1));
    assertThat(e.success()).isTrue();
    assertThat(e.experience()).isEqualTo(CopyFirstPolicy.successExperience(task.intent(), answer));
    String prompt = firstUser(model.seen.getFirst());
    assertThat(prompt).startsWith("Task: " + task.intent() + "\n\nProcedures:\n");
    env.proceduresOf(task).forEach(p -> assertThat(prompt).contains("- `" + p + "`"));
    assertThat(prompt).contains("## Failed experiences", shown.experience().replace("\n", "\n   "));
    assertThat(model.seen.getFirst().getFirst().content()).isEqualTo(RecurringTasksEnvironment.LLM_SYSTEM);

    String wrong = env.proceduresOf(task).stream().filter(p -> !p.equals(answer)).findFirst().orElseThrow();
    Episode f = env.attempt(task, List.of(), new LlmPolicy(new Scripted((m, c) -> wrong), 0, null), new SplittableRandom(1));
    assertThat(f.success()).isFalse();
    assertThat(f.experience()).isEqualTo(CopyFirstPolicy.failureExperience(task.intent(), wrong));
  }

  @Test
  void hardQuestions_verifiesTheChosenOption() {
    HardQuestionsEnvironment env = HardQuestionsEnvironment.generate(3, HardQuestionsEnvironment.Knobs.defaults());
    Task task = env.tasks().getFirst();
    Scripted right = new Scripted((m, c) -> "The answer is `" + env.answerOf(task) + "`.");
    Episode e = env.attempt(task, List.of(), new LlmPolicy(right, 2, null), new SplittableRandom(1));
    assertThat(e.success()).isTrue();
    assertThat(e.experience()).isEqualTo(HardQuestionPolicy.successExperience(task.intent(), env.answerOf(task)));
    env.optionsOf(task).forEach(o -> assertThat(firstUser(right.seen.getFirst())).contains("- `" + o + "`"));
    String wrong = env.optionsOf(task).stream().filter(o -> !o.equals(env.answerOf(task))).findFirst().orElseThrow();
    Episode f = env.attempt(task, List.of(), new LlmPolicy(new Scripted((m, c) -> "`" + wrong + "`"), 2, null),
        new SplittableRandom(1));
    assertThat(f.success()).isFalse();
    assertThat(f.experience()).isEqualTo(HardQuestionPolicy.failureExperience(task.intent(), wrong));
  }

  @Test
  void sql_runsTheModelsQueryOnTheDatabase_readOnly() {
    try (SqlEnvironment env = SqlEnvironment.generate(5, new SqlEnvironment.Knobs(12, 0.4, 4, 0.05))) {
      Task task = env.tasks().getFirst();
      Scripted gold = new Scripted((m, c) -> "```sql\n" + env.goldSqlOf(task) + ";\n```");
      Episode e = env.attempt(task, List.of(), new LlmPolicy(gold, 2, null), new SplittableRandom(1));
      assertThat(e.success()).isTrue();
      assertThat(e.experience()).isEqualTo(SqlPolicy.successExperience(task.intent(), env.goldSqlOf(task)));
      assertThat(gold.seen.getFirst().getFirst().content()).contains("CREATE TABLE customers", "CREATE TABLE employees");

      Scripted sneaky = new Scripted((m, c) -> c == 1 ? "DELETE FROM orders" : "SELECT * FROM orders; DELETE FROM orders");
      Episode f = env.attempt(task, List.of(), new LlmPolicy(sneaky, 1, null), new SplittableRandom(1));
      assertThat(f.success()).isFalse();
      assertThat(f.experience()).contains("No query was written");
      assertThat(env.answers(task, env.goldSqlOf(task))).isTrue(); // the data is intact
    }
  }

  @Test
  void textWorld_playsTheModelsCommandsStepByStep() {
    TextWorldEnvironment env = TextWorldEnvironment.generate(2, TextWorldEnvironment.Knobs.defaults());
    Task task = env.tasks().getFirst();
    List<TextWorldAction> plan = env.layoutOf(task).optimalPlan(env.goalOf(task));
    Scripted follower = new Scripted((m, c) -> plan.get(
        (int) m.stream().filter(x -> x.role() == ChatMessage.Role.ASSISTANT).count()).text() + ".");
    Episode e = env.attempt(task, List.of(), new LlmPolicy(follower, 2, null), new SplittableRandom(1));
    assertThat(e.success()).isTrue();
    assertThat(follower.calls).hasValue(plan.size());
    assertThat(e.experience()).isEqualTo(env.successExperience(task, plan.size()));
    assertThat(firstUser(follower.seen.getFirst())).contains("Task: " + task.intent(), "Step budget: " + env.budgetOf(task));
    assertThat(follower.seen.get(1).getLast().content()).endsWith("[step 1 of " + env.budgetOf(task) + "]");

    Scripted babbler = new Scripted((m, c) -> "I am not sure what to do.");
    Episode f = env.attempt(task, List.of(), new LlmPolicy(babbler, 0, null), new SplittableRandom(1));
    assertThat(f.success()).isFalse();
    assertThat(babbler.calls).hasValue(env.budgetOf(task)); // each unreadable reply wasted a step
    assertThat(f.experience()).contains("out of steps (" + env.budgetOf(task) + " of " + env.budgetOf(task) + ")");
  }

  @Test
  void learningLoop_withAReadingModel_learnsFromMemory_andKeepsEveryTranscript() {
    double memrl = 0;
    double none = 0;
    for (long seed : LongStream.rangeClosed(1, 3).toArray()) {
      RecurringTasksEnvironment env = env(seed, 8, 2, 0, 0.05);
      List<Transcript> transcripts = Collections.synchronizedList(new ArrayList<>());
      LlmPolicy llm = new LlmPolicy(new ReadingChatModel(), 2, transcripts::add);
      LearningLoop loop = new LearningLoop(env, IntentEmbeddings.of(EMBEDDER, env), 4, llm);
      memrl += Metrics.curve(loop.run(Strategy.preset(Preset.MEMRL), seed)).lastEpochAccuracy() / 3;
      none += Metrics.curve(loop.run(Strategy.noMemory(), seed)).lastEpochAccuracy() / 3;
      assertThat(transcripts).hasSize(2 * 4 * env.tasks().size());
      assertThat(transcripts.getFirst()).satisfies(t -> {
        assertThat(t.environment()).isEqualTo(RecurringTasksEnvironment.NAME);
        assertThat(t.strategy()).isEqualTo("memrl");
        assertThat(t.epoch()).isEqualTo(1);
        assertThat(t.taskId()).isEqualTo(env.tasks().getFirst().id());
        assertThat(t.messages()).hasSize(3);
      });
    }
    assertThat(none).isLessThan(0.4);
    assertThat(memrl).isGreaterThan(none + 0.3);
  }

  @Test
  void benchRun_stopsOnAModelFailure() {
    ChatModel down = new Scripted((m, c) -> {
      throw new MemLoopException(MemLoopException.Reason.MODEL_FAILED, "", "POST http://127.0.0.1:1/v1/chat/completions failed");
    });
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(1L, 2L)).withEpochs(1)
        .withEnvironments(List.of(RecurringTasksEnvironment.NAME)).withStrategies(List.of("no-memory", "memrl"));
    assertThatThrownBy(() -> Bench.run(EMBEDDER, options, new LlmPolicy(down, 2, null), 2, (e, s, seed, ep, acc) -> {}))
        .isInstanceOfSatisfying(MemLoopException.class,
            e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.MODEL_FAILED));
  }

  @Test
  void benchRun_resultsDoNotDependOnParallelism() {
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(1L, 2L)).withEpochs(2)
        .withEnvironments(List.of(RecurringTasksEnvironment.NAME, HardQuestionsEnvironment.NAME))
        .withStrategies(List.of("no-memory", "similarity", "memp", "memrl", "oracle"));
    BenchReport one = Bench.run(EMBEDDER, options, Policy.FROZEN, 1, (e, s, seed, ep, acc) -> {});
    BenchReport three = Bench.run(EMBEDDER, options, Policy.FROZEN, 3, (e, s, seed, ep, acc) -> {});
    assertThat(three.environments()).usingRecursiveComparison().ignoringFieldsMatchingRegexes(".*wallSeconds.*")
        .isEqualTo(one.environments());
    assertThat(one.policy().id()).isEqualTo("frozen");
  }
}
