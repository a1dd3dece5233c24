package io.memloop.bench.textworld;

import static io.memloop.bench.Fixtures.memory;
import static io.memloop.bench.textworld.TextWorldAction.go;
import static io.memloop.bench.textworld.TextWorldAction.open;
import static io.memloop.bench.textworld.TextWorldAction.put;
import static io.memloop.bench.textworld.TextWorldAction.take;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.textworld.TextWorldCatalogue.Treatment;
import io.memloop.bench.textworld.TextWorldGoal.Type;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The text world's mechanics, texts and the policy's plan reading, on a small hand-built house. */
class TextWorldPolicyTest {
  /** hallway – kitchen – bedroom. */
  private static final TextWorldLayout HOUSE =
      new TextWorldLayout(
          "Test",
          List.of("hallway", "kitchen", "bedroom"),
          Map.of("hallway", List.of("kitchen"), "kitchen", List.of("hallway", "bedroom"), "bedroom", List.of("kitchen")),
          Map.of("fridge", "kitchen", "microwave", "kitchen", "sink", "kitchen", "table", "bedroom", "drawer", "bedroom",
              "safe", "bedroom", "coffee machine", "hallway", "shelf", "hallway"),
          Map.of("apple", "fridge", "mug", "drawer", "key", "drawer", "cup", "table"));

  private static final TextWorldGoal HEAT_APPLE = new TextWorldGoal(Type.HEAT_PLACE, "apple", "table");
  private static final TextWorldGoal MUG_TO_COFFEE = new TextWorldGoal(Type.PLACE, "mug", "coffee machine");
  private static final TextWorldGoal CLEAN_MUG_TO_COFFEE = new TextWorldGoal(Type.CLEAN_PLACE, "mug", "coffee machine");

  private static TextWorldSimulator sim(TextWorldGoal goal, int budget) {
    return new TextWorldSimulator(HOUSE, goal, budget);
  }

  @Test
  void action_textReadsBack() {
    List<TextWorldAction> actions =
        List.of(TextWorldAction.look(), go("living room"), open("fridge"), take("apple", "fridge"),
            put("mug", "coffee machine"), put("apple", "table"), TextWorldAction.treat(Treatment.HEAT, "apple", "microwave"),
            TextWorldAction.treat(Treatment.CLEAN, "mug", "sink"), TextWorldAction.unlock("safe", "key"));
    for (TextWorldAction a : actions) {
      assertThat(TextWorldAction.parse(a.text())).as(a.text()).contains(a);
    }
    assertThat(put("apple", "table").text()).isEqualTo("put apple on table");
    assertThat(put("mug", "coffee machine").text()).isEqualTo("put mug in coffee machine");
    assertThat(TextWorldAction.parse("dance wildly")).isEmpty();
  }

  @Test
  void goal_intentReadsBack() {
    for (TextWorldGoal g : List.of(HEAT_APPLE, MUG_TO_COFFEE, CLEAN_MUG_TO_COFFEE,
        new TextWorldGoal(Type.COOL_PLACE, "egg", "shelf"), new TextWorldGoal(Type.OPEN_WITH_KEY, "key", "safe"))) {
      String intent = g.intent("Birch Lane");
      assertThat(TextWorldGoal.parse(intent)).as(intent).contains(new TextWorldGoal.Parsed("Birch Lane", g));
    }
    assertThat(HEAT_APPLE.intent("Oak Hill")).isEqualTo("In the Oak Hill house, heat an apple and put it on the table.");
    assertThat(CLEAN_MUG_TO_COFFEE.intent("Oak Hill")).isEqualTo("In the Oak Hill house, put a clean mug in the coffee machine.");
    assertThat(MUG_TO_COFFEE.family()).isEqualTo(CLEAN_MUG_TO_COFFEE.family());
    assertThat(TextWorldGoal.parse("Make me a sandwich.")).isEmpty();
  }

  @Test
  void simulator_enforcesDoorsClosedContainersToolsAndLocks() {
    TextWorldSimulator s = sim(new TextWorldGoal(Type.OPEN_WITH_KEY, "key", "safe"), 50);
    assertThat(s.step(go("bedroom")).ok()).as("no door from the hallway to the bedroom").isFalse();
    assertThat(s.step(go("kitchen")).ok()).isTrue();
    assertThat(s.step(take("apple", "fridge")).ok()).as("fridge closed").isFalse();
    TextWorldObservation opened = s.step(open("fridge"));
    assertThat(opened.contents()).containsEntry("fridge", List.of("apple"));
    assertThat(s.step(take("apple", "fridge")).ok()).isTrue();
    assertThat(s.step(TextWorldAction.treat(Treatment.CLEAN, "apple", "microwave")).ok()).as("wrong tool").isFalse();
    assertThat(s.step(TextWorldAction.treat(Treatment.HEAT, "apple", "microwave")).ok()).isTrue();
    assertThat(s.step(go("bedroom")).ok()).isTrue();
    TextWorldObservation look = s.step(TextWorldAction.look());
    assertThat(look.receptacles()).containsEntry("drawer", true).containsEntry("table", false).containsEntry("safe", true);
    assertThat(look.contents()).containsEntry("table", List.of("cup")).doesNotContainKey("drawer");
    assertThat(s.step(put("apple", "table")).ok()).isTrue();
    assertThat(s.step(open("safe")).ok()).as("locked").isFalse();
    s.step(open("drawer"));
    assertThat(s.step(take("key", "drawer")).ok()).isTrue();
    assertThat(s.step(TextWorldAction.unlock("safe", "key")).ok()).isTrue();
    assertThat(s.succeeded()).isFalse();
    assertThat(s.step(open("safe")).ok()).isTrue();
    assertThat(s.succeeded()).isTrue();
    assertThat(s.over()).isTrue();
  }

  @Test
  void optimalPlan_fetchesTreatsAndDelivers() {
    assertThat(HOUSE.optimalPlan(HEAT_APPLE).stream().map(TextWorldAction::text))
        .containsExactly("go to kitchen", "open fridge", "take apple from fridge", "heat apple with microwave",
            "go to bedroom", "put apple on table");
    assertThat(HOUSE.optimalPlan(new TextWorldGoal(Type.OPEN_WITH_KEY, "key", "safe")).stream().map(TextWorldAction::text))
        .containsExactly("go to kitchen", "go to bedroom", "open drawer", "take key from drawer", "unlock safe with key",
            "open safe");
  }

  @Test
  void map_replacesObjectAndTarget_andOpensOnlyWhatOpens() {
    List<TextWorldAction> plan = HOUSE.optimalPlan(MUG_TO_COFFEE);
    TextWorldGoal cupToDrawer = new TextWorldGoal(Type.CLEAN_PLACE, "cup", "drawer");
    List<TextWorldAction> mapped = TextWorldPolicy.map(plan, MUG_TO_COFFEE, cupToDrawer);
    assertThat(mapped.stream().map(TextWorldAction::text))
        .containsExactly("go to kitchen", "go to bedroom", "open drawer", "take cup from drawer", "go to kitchen",
            "go to hallway", "open drawer", "put cup in drawer");
    // From a closed target to a surface: the opening step goes.
    TextWorldGoal appleToDrawer = new TextWorldGoal(Type.PLACE, "apple", "drawer");
    assertThat(HOUSE.optimalPlan(appleToDrawer).stream().map(TextWorldAction::text)).contains("open drawer");
    List<TextWorldAction> toTable =
        TextWorldPolicy.map(HOUSE.optimalPlan(appleToDrawer), appleToDrawer, new TextWorldGoal(Type.PLACE, "apple", "table"));
    assertThat(toTable.stream().map(TextWorldAction::text))
        .containsExactly("go to kitchen", "open fridge", "take apple from fridge", "go to bedroom", "put apple on table");
  }

  @Test
  void planFor_takesTheFirstPlanOfTheSameFamily_aPlainPutPlanPassesForACleanPut() {
    String heatPlan = TextWorldExperience.success(HEAT_APPLE.intent("Test"), HOUSE.optimalPlan(HEAT_APPLE), 6);
    String putPlan = TextWorldExperience.success(MUG_TO_COFFEE.intent("Test"), HOUSE.optimalPlan(MUG_TO_COFFEE), 7);
    String note = "Task: " + CLEAN_MUG_TO_COFFEE.intent("Test") + "\nOutcome: failed, out of steps (3 of 3).\n"
        + "What went wrong: ran out of steps while looking for the mug.\nSeen: sink (kitchen).";
    Optional<List<TextWorldAction>> plan =
        TextWorldPolicy.planFor(CLEAN_MUG_TO_COFFEE, List.of(note, heatPlan, putPlan));
    assertThat(plan).contains(HOUSE.optimalPlan(MUG_TO_COFFEE)); // no cleaning step: it misleads
    assertThat(TextWorldPolicy.planFor(new TextWorldGoal(Type.COOL_PLACE, "apple", "table"), List.of(heatPlan, putPlan)))
        .isEmpty();
  }

  @Test
  void play_followsAPlanThatEndsShortOfTheGoal_thenExploresTheRest() {
    String putPlan = TextWorldExperience.success(MUG_TO_COFFEE.intent("Test"), HOUSE.optimalPlan(MUG_TO_COFFEE), 7);
    TextWorldPolicy policy = new TextWorldPolicy(0);
    TextWorldTrajectory t = policy.play(CLEAN_MUG_TO_COFFEE.intent("Test"), sim(CLEAN_MUG_TO_COFFEE, 40),
        List.of(memory(putPlan)), new SplittableRandom(1));
    assertThat(t.planSteps()).isEqualTo(HOUSE.optimalPlan(MUG_TO_COFFEE).size());
    assertThat(t.brokenStep()).isEmpty();
    assertThat(t.success()).isTrue(); // a generous budget lets it take the mug back, clean it and return
    assertThat(t.actions()).contains("take mug from coffee machine", "clean mug with sink");
  }

  @Test
  void play_abandonsAPlanAtItsFirstFailedStep() {
    TextWorldGoal elsewhere = new TextWorldGoal(Type.PLACE, "cup", "shelf");
    String plan = TextWorldExperience.success(elsewhere.intent("Other"),
        List.of(go("kitchen"), open("fridge"), take("cup", "fridge"), go("hallway"), put("cup", "shelf")), 5);
    TextWorldTrajectory t = new TextWorldPolicy(0).play(elsewhere.intent("Test"), sim(elsewhere, 3),
        List.of(memory(plan)), new SplittableRandom(2));
    assertThat(t.planSteps()).isEqualTo(3);
    assertThat(t.brokenStep()).contains("take cup from fridge");
    assertThat(t.success()).isFalse();
    String note = TextWorldExperience.failure(elsewhere.intent("Test"), t);
    assertThat(note).contains("What went wrong: the plan step `take cup from fridge` failed; ran out of steps while ");
    assertThat(TextWorldExperience.facts(note)).contains(new TextWorldExperience.Fact("fridge", "kitchen", Optional.of(List.of("apple"))));
  }

  @Test
  void hints_fromANote_leadStraightThere() {
    String note = "Task: x\nOutcome: failed, out of steps (9 of 9).\nWhat went wrong: ran out of steps while looking for "
        + "the mug.\nSeen: drawer (bedroom) holding mug, key; sink (kitchen).";
    TextWorldGoal clean = new TextWorldGoal(Type.CLEAN_PLACE, "mug", "shelf");
    TextWorldTrajectory t = new TextWorldPolicy(0).play(clean.intent("Test"), sim(clean, 20), List.of(memory(note)),
        new SplittableRandom(3));
    assertThat(t.success()).isTrue();
    assertThat(t.actions()).startsWith("go to kitchen", "go to bedroom");
  }
}
