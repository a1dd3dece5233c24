package io.memloop.bench.ops;

import static io.memloop.bench.Fixtures.env;
import static io.memloop.bench.Fixtures.memory;
import static io.memloop.bench.llm.ScriptedChatModel.firstUser;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.ScriptedChatModel;
import io.memloop.chat.ChatMessage;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The recurring-ops environment with a language model as its policy ({@link LlmPolicy}). */
class RecurringTasksLlmTest {
  @Test
  void conversation_correctsAnUnreadableReply_thenUsesTheNext() {
    RecurringTasksEnvironment env = env(1, 4, 2, 0, 0.05);
    Task task = env.tasks().getFirst();
    ScriptedChatModel model =
        new ScriptedChatModel((m, call) -> call == 1 ? "Let me think about it." : "`" + env.answerOf(task) + "`");
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
    ScriptedChatModel model = new ScriptedChatModel((m, call) -> "something else entirely");
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
  void recurringOps_promptListsProceduresAndExperiences_andRemembersLikeTheFrozenPolicy() {
    RecurringTasksEnvironment env = env(2, 4, 2, 0, 0.05);
    Task task = env.tasks().getFirst();
    String answer = env.answerOf(task);
    ScriptedChatModel model = new ScriptedChatModel((m, call) -> "`" + answer + "`");
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
    Episode f = env.attempt(task, List.of(), new LlmPolicy(new ScriptedChatModel((m, c) -> wrong), 0, null),
        new SplittableRandom(1));
    assertThat(f.success()).isFalse();
    assertThat(f.experience()).isEqualTo(CopyFirstPolicy.failureExperience(task.intent(), wrong));
  }
}
