package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.bench.hardquestions.HardQuestionsEnvironment;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.textworld.TextWorldEnvironment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KnobOverridesTest {
  private static final BenchOptions TEXT_WORLD =
      new BenchOptions(List.of(1L), 1, BenchSize.FULL, List.of("text-world"), List.of("rag"));

  @Test
  void anIntAndADoubleKnob_replaceOnlyThemselves() {
    TextWorldEnvironment.Knobs base = (TextWorldEnvironment.Knobs) EnvironmentCatalog.named("text-world")
        .knobs(BenchSize.FULL, null, Map.of());
    TextWorldEnvironment.Knobs k = (TextWorldEnvironment.Knobs) EnvironmentCatalog.named("text-world")
        .knobs(BenchSize.FULL, null, Map.of("rooms", "4", "spareSteps", "2"));
    assertThat(k).isEqualTo(new TextWorldEnvironment.Knobs(base.houses(), base.goalsPerHouse(), 4, 2, base.heldOut(),
        base.slipProbability()));
    HardQuestionsEnvironment.Knobs h = (HardQuestionsEnvironment.Knobs) EnvironmentCatalog.named("hard-questions")
        .knobs(BenchSize.QUICK, 0.2, Map.of("duplicateShare", "0.9"));
    assertThat(h.duplicateShare()).isEqualTo(0.9);
    assertThat(h.slipProbability()).isEqualTo(0.2);
  }

  @Test
  void theEnvironmentIsGeneratedWithTheOverride() {
    EnvironmentFactory f = EnvironmentCatalog.named("text-world");
    int goals = ((TextWorldEnvironment.Knobs) f.knobs(BenchSize.FULL, null, Map.of())).goalsPerHouse();
    assertThat(f.create(7, BenchSize.FULL, null, Map.of("houses", "2")).tasks()).hasSize(2 * goals);
    assertThat(f.create(7, BenchSize.FULL, null, Map.of()).tasks()).hasSizeGreaterThan(2 * goals);
  }

  @Test
  void opsHeldOut_followsTheFamilies_unlessSetItself() {
    EnvironmentFactory ops = EnvironmentCatalog.named("recurring-ops");
    assertThat(((RecurringTasksEnvironment.Knobs) ops.knobs(BenchSize.FULL, null, Map.of("families", "10"))).heldOut())
        .isEqualTo(6);
    assertThat(((RecurringTasksEnvironment.Knobs) ops.knobs(BenchSize.FULL, null,
        Map.of("families", "10", "heldOut", "3"))).heldOut()).isEqualTo(3);
  }

  @Test
  void options_keepTheirKnobsThroughTheOtherWithers() {
    BenchOptions o = TEXT_WORLD.withKnobs(Map.of("text-world", Map.of("rooms", "9")));
    BenchOptions changed = o.withSeeds(List.of(2L)).withEpochs(2).withStrategies(List.of("default")).withSlip(0.1);
    assertThat(changed.knobsOf("text-world")).containsExactly(Map.entry("rooms", "9"));
    assertThat(changed.knobsOf("sql")).isEmpty();
    assertThat(BenchOptions.knobNames("text-world")).containsExactly("houses", "goalsPerHouse", "rooms", "spareSteps",
        "heldOut");
  }

  @Test
  void badOverrides_areRejectedNamingTheKnob() {
    assertRejected(Map.of("text-world", Map.of("rooms", "99")), "knob: text-world: rooms must be in [3, ");
    assertRejected(Map.of("text-world", Map.of("rooms", "4.5")), "knob: text-world.rooms: expected a whole number, got '4.5'");
    assertRejected(Map.of("text-world", Map.of("roomz", "4")), "knob: text-world.roomz: unknown knob (text-world has "
        + "houses, goalsPerHouse, rooms, spareSteps, heldOut)");
    assertRejected(Map.of("text-world", Map.of("slipProbability", "0.1")), "knob: text-world.slipProbability: outcome"
        + " noise is set for every environment with --slip");
    assertRejected(Map.of("nowhere", Map.of("rooms", "4")), "knob: unknown environment 'nowhere'");
    assertRejected(Map.of("sql", Map.of("tasks", "60")), "knob: knobs of sql are set but it is not run");
    BenchOptions hq = TEXT_WORLD.withEnvironments(List.of("hard-questions"));
    assertThatThrownBy(() -> hq.withKnobs(Map.of("hard-questions", Map.of("duplicateShare", "lots"))))
        .isInstanceOf(MemLoopException.class)
        .hasMessage("knob: hard-questions.duplicateShare: expected a decimal number, got 'lots'");
  }

  private static void assertRejected(Map<String, Map<String, String>> knobs, String message) {
    assertThatThrownBy(() -> TEXT_WORLD.withKnobs(knobs))
        .isInstanceOf(MemLoopException.class)
        .satisfies(e -> assertThat(((MemLoopException) e).reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT))
        .hasMessageStartingWith(message);
  }
}
