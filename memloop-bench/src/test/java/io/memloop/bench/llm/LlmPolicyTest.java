package io.memloop.bench.llm;

import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Outcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmPolicyTest {
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
  void thinkingBlock_isSkippedBeforeParsing() {
    assertThat(LlmPolicy.withoutThinking("<think>maybe `drain node`?\nno.</think>\n`roll back`")).isEqualTo("`roll back`");
    assertThat(LlmPolicy.withoutThinking("`roll back` <think>x</think>")).isEqualTo("`roll back` <think>x</think>");
  }
}
