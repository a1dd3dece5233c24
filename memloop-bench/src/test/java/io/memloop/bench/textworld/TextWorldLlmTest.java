package io.memloop.bench.textworld;

import static io.memloop.bench.llm.ScriptedChatModel.firstUser;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.ScriptedChatModel;
import io.memloop.chat.ChatMessage;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The text world with a language model as its policy ({@link LlmPolicy}). */
class TextWorldLlmTest {
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
  void textWorld_playsTheModelsCommandsStepByStep() {
    TextWorldEnvironment env = TextWorldEnvironment.generate(2, TextWorldEnvironment.Knobs.defaults());
    Task task = env.tasks().getFirst();
    List<TextWorldAction> plan = env.layoutOf(task).optimalPlan(env.goalOf(task));
    ScriptedChatModel follower = new ScriptedChatModel((m, c) -> plan.get(
        (int) m.stream().filter(x -> x.role() == ChatMessage.Role.ASSISTANT).count()).text() + ".");
    Episode e = env.attempt(task, List.of(), new LlmPolicy(follower, 2, null), new SplittableRandom(1));
    assertThat(e.success()).isTrue();
    assertThat(follower.calls).hasValue(plan.size());
    assertThat(e.experience()).isEqualTo(env.successExperience(task, plan.size()));
    assertThat(firstUser(follower.seen.getFirst())).contains("Task: " + task.intent(), "Step budget: " + env.budgetOf(task));
    assertThat(follower.seen.get(1).getLast().content()).endsWith("[step 1 of " + env.budgetOf(task) + "]");

    ScriptedChatModel babbler = new ScriptedChatModel((m, c) -> "I am not sure what to do.");
    Episode f = env.attempt(task, List.of(), new LlmPolicy(babbler, 0, null), new SplittableRandom(1));
    assertThat(f.success()).isFalse();
    assertThat(babbler.calls).hasValue(env.budgetOf(task)); // each unreadable reply wasted a step
    assertThat(f.experience()).contains("out of steps (" + env.budgetOf(task) + " of " + env.budgetOf(task) + ")");
  }
}
