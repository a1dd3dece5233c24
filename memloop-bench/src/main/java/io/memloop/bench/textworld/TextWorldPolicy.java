package io.memloop.bench.textworld;

import io.memloop.Memory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * The frozen policy of the text world: a stand-in for an LLM agent that follows a remembered plan
 * where one applies and explores otherwise (ALFWorld-style; MemRL's agent reads retrieved scripts
 * and reflections).
 *
 * <p>It reads the shown experiences top-down, as ranked. The first success plan whose task reads as
 * the same kind of goal ({@link TextWorldGoal#family()}: by its verb, so "put a mug in the coffee
 * machine" passes for "put a clean mug in the coffee machine") is mapped onto the task (the plan's
 * object and target replaced by the task's; rooms kept) and followed step by step. It does not check
 * which house the plan came from: a plan from another house of the same goal is followed too, and
 * breaks where that house differs. When a step fails, or the plan ends short of the goal, the policy
 * explores with what is left of the budget ({@link TextWorldExplorer}); the facts listed in every
 * shown "what went wrong" note serve it as hints (right about this house, or misleading about another).
 * With probability {@code slipProbability} it ignores everything shown and explores blind.
 *
 * <p>Reads only the experience text, never the memory's outcome or utility. Stateless apart from its
 * configuration; thread-safe.
 */
final class TextWorldPolicy {
  private final double slipProbability;

  TextWorldPolicy(double slipProbability) {
    if (!(slipProbability >= 0 && slipProbability < 1)) {
      throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
    }
    this.slipProbability = slipProbability;
  }

  /** Plays the task whose intent is {@code intent} in {@code sim} until it succeeds or the budget is spent. */
  TextWorldTrajectory play(String intent, TextWorldSimulator sim, List<Memory> shown, RandomGenerator rnd) {
    TextWorldGoal goal = TextWorldGoal.parse(intent)
        .orElseThrow(() -> new IllegalArgumentException("not a text-world intent: " + intent)).goal();
    TextWorldKnowledge k = new TextWorldKnowledge(sim.doors());
    boolean slipped = !shown.isEmpty() && slipProbability > 0 && rnd.nextDouble() < slipProbability;
    List<TextWorldAction> plan = List.of();
    if (!slipped) {
      List<String> experiences = Memory.partsOf(shown);
      plan = planFor(goal, experiences).orElse(List.of());
      for (String experience : experiences) {
        TextWorldExperience.facts(experience).forEach(f -> k.hint(f.receptacle(), f.room(), f.contents()));
      }
    }
    List<String> actions = new ArrayList<>();
    List<String> observations = new ArrayList<>();
    List<TextWorldAction> executed = new ArrayList<>();
    Optional<String> broken = Optional.empty();
    int planSteps = 0;
    for (TextWorldAction a : plan) {
      if (sim.over()) {
        break;
      }
      TextWorldObservation o = sim.step(a);
      record(a, o, k, actions, observations, executed);
      planSteps++;
      if (!o.ok()) {
        broken = Optional.of(a.text());
        break;
      }
    }
    while (!sim.over()) {
      TextWorldAction a = TextWorldExplorer.next(goal, k, rnd);
      record(a, sim.step(a), k, actions, observations, executed);
    }
    return new TextWorldTrajectory(actions, observations, sim.succeeded(), sim.budget(), planSteps, broken,
        sim.succeeded() ? "" : TextWorldExplorer.need(goal, k), k.seenRoom, k.contentsSeen(), executed);
  }

  private static void record(TextWorldAction a, TextWorldObservation o, TextWorldKnowledge k, List<String> actions,
      List<String> observations, List<TextWorldAction> executed) {
    k.observe(a, o);
    actions.add(a.text());
    observations.add(o.text());
    executed(a, o, executed);
  }

  /** Adds {@code a} to the commands that did something, unless it failed or only looked. */
  static void executed(TextWorldAction a, TextWorldObservation o, List<TextWorldAction> executed) {
    if (o.ok() && a.verb() != TextWorldAction.Verb.LOOK) {
      executed.add(a);
    }
  }

  /**
   * The plan the policy would follow for {@code goal}: the first success plan of the same goal family
   * among the shown {@code experiences}, mapped onto the goal. Deterministic.
   */
  static Optional<List<TextWorldAction>> planFor(TextWorldGoal goal, List<String> experiences) {
    for (String experience : experiences) {
      Optional<List<TextWorldAction>> plan = TextWorldExperience.plan(experience);
      Optional<TextWorldGoal> planGoal =
          TextWorldExperience.task(experience).flatMap(TextWorldGoal::parse).map(TextWorldGoal.Parsed::goal);
      if (plan.isPresent() && planGoal.isPresent() && planGoal.get().family().equals(goal.family())) {
        return Optional.of(map(plan.get(), planGoal.get(), goal));
      }
    }
    return Optional.empty();
  }

  /**
   * Replaces the plan's object by the goal's everywhere, and the plan's target by the goal's where it
   * is the target (opened, put into, unlocked); opens a closable new target before putting into it
   * and drops opening one that cannot be opened (common sense about receptacles, not about the house).
   */
  static List<TextWorldAction> map(List<TextWorldAction> plan, TextWorldGoal from, TextWorldGoal to) {
    boolean targetClosable = TextWorldCatalogue.receptacle(to.target()).map(r -> r.closable()).orElse(false);
    List<TextWorldAction> out = new ArrayList<>(plan.size() + 1);
    for (TextWorldAction a : plan) {
      String object = a.object().equals(from.object()) ? to.object() : a.object();
      boolean targetRole = switch (a.verb()) {
        case OPEN, PUT, UNLOCK -> a.place().equals(from.target());
        default -> false;
      };
      TextWorldAction mapped = a.with(object, targetRole ? to.target() : a.place());
      if (targetRole && a.verb() == TextWorldAction.Verb.OPEN && !targetClosable) {
        continue;
      }
      boolean openedJustBefore = !out.isEmpty() && out.getLast().equals(TextWorldAction.open(to.target()));
      if (targetRole && a.verb() == TextWorldAction.Verb.PUT && targetClosable && !openedJustBefore) {
        out.add(TextWorldAction.open(to.target()));
      }
      out.add(mapped);
    }
    return out;
  }
}
