package io.memloop.bench.hardquestions;

import static io.memloop.bench.llm.ScriptedChatModel.firstUser;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.ScriptedChatModel;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The hard questions with a language model as their policy ({@link LlmPolicy}). */
class HardQuestionsLlmTest {
  @Test
  void hardQuestions_verifiesTheChosenOption() {
    HardQuestionsEnvironment env = HardQuestionsEnvironment.generate(3, HardQuestionsEnvironment.Knobs.defaults());
    Task task = env.tasks().getFirst();
    ScriptedChatModel right = new ScriptedChatModel((m, c) -> "The answer is `" + env.answerOf(task) + "`.");
    Episode e = env.attempt(task, List.of(), new LlmPolicy(right, 2, null), new SplittableRandom(1));
    assertThat(e.success()).isTrue();
    assertThat(e.experience()).isEqualTo(HardQuestionPolicy.successExperience(task.intent(), env.answerOf(task)));
    env.optionsOf(task).forEach(o -> assertThat(firstUser(right.seen.getFirst())).contains("- `" + o + "`"));
    String wrong = env.optionsOf(task).stream().filter(o -> !o.equals(env.answerOf(task))).findFirst().orElseThrow();
    Episode f = env.attempt(task, List.of(), new LlmPolicy(new ScriptedChatModel((m, c) -> "`" + wrong + "`"), 2, null),
        new SplittableRandom(1));
    assertThat(f.success()).isFalse();
    assertThat(f.experience()).isEqualTo(HardQuestionPolicy.failureExperience(task.intent(), wrong));
  }
}
