package io.memloop.bench.textworld;

import io.memloop.Memory;
import io.memloop.bench.Environment;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamSource;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.LlmPrompts;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.random.RandomGenerator;

/**
 * A multi-step text world, ALFWorld-like (MemRL's main benchmark): houses of a few rooms joined by
 * doors, receptacles (some closed, one locked per key), objects inside them, and household goals
 * ("heat an apple and put it on the table", "find the key and open the safe"). The policy sees only
 * the floor plan and, after "look" or "open", what is in the room it stands in; every command costs a
 * step of the task's budget (its shortest plan plus {@link Knobs#spareSteps()}), and the reward comes
 * only at the end: +1 if the goal holds, −1 otherwise.
 *
 * <p>A success is remembered as the plan that worked (the shortest route through the places the
 * episode used), a failure as a note of what went wrong and what was seen where. The
 * {@link TextWorldPolicy} follows the first plan of the same kind of goal it is shown, mapped onto
 * its task: the task's own plan always works; a plan of the same goal in another house, of a twin goal
 * (another object, another target, "put a mug" for "put a clean mug") usually breaks and leaves too
 * few steps to recover. Without memory the policy explores and rarely finishes within the budget.
 *
 * <p>Tasks (house × goal) recur every epoch in one seeded order. Held-out tasks are new goals in the
 * training houses whose plan equals a training task's up to names. Immutable and thread-safe.
 */
public final class TextWorldEnvironment implements Environment, GroundTruth, StreamSource {
  public static final String NAME = "text-world";
  public static final double DEFAULT_SLIP = 0.05;

  /**
   * Size and difficulty.
   *
   * @param houses layouts, each with every goal of the shared goal list
   * @param goalsPerHouse goals in the shared list (built in near-twin pairs)
   * @param rooms rooms per house, the hallway included; more rooms, longer searches
   * @param spareSteps the step budget of a task over its shortest plan: every task gets
   *     {@code shortest + spareSteps} commands, so all are equally tight whatever their length
   * @param heldOut held-out tasks wanted (fewer when the houses offer fewer)
   * @param slipProbability chance that the policy ignores what it is shown and explores blind
   */
  public record Knobs(int houses, int goalsPerHouse, int rooms, int spareSteps, int heldOut, double slipProbability) {
    public Knobs {
      int maxHouses = TextWorldCatalogue.HOUSES.size();
      int maxRooms = TextWorldCatalogue.OTHER_ROOMS.size() + 1;
      if (houses < 1 || houses > maxHouses) {
        throw new IllegalArgumentException("houses must be in [1, " + maxHouses + "], got " + houses);
      }
      if (goalsPerHouse < 1 || goalsPerHouse > 40) {
        throw new IllegalArgumentException("goalsPerHouse must be in [1, 40], got " + goalsPerHouse);
      }
      if (rooms < 3 || rooms > maxRooms) {
        throw new IllegalArgumentException("rooms must be in [3, " + maxRooms + "], got " + rooms);
      }
      if (spareSteps < 0) {
        throw new IllegalArgumentException("spareSteps must not be negative, got " + spareSteps);
      }
      if (heldOut < 0) {
        throw new IllegalArgumentException("heldOut must not be negative, got " + heldOut);
      }
      if (!(slipProbability >= 0 && slipProbability < 1)) {
        throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
      }
    }

    public static Knobs defaults() {
      return new Knobs(4, 6, 6, 4, 8, DEFAULT_SLIP);
    }

    /** The same knobs with another outcome noise. */
    public Knobs withSlip(double slip) {
      return new Knobs(houses, goalsPerHouse, rooms, spareSteps, heldOut, slip);
    }
  }

  /** A task and another whose wording is close ({@code source}'s plan is what the policy might follow). */
  record Pair(Task task, Task source) {}

  private final Knobs knobs;
  private final List<TextWorldLayout> layouts;
  private final List<Task> tasks;
  private final List<Task> heldOut;
  private final Map<String, TextWorldGenerator.Spec> specs;
  private final TextWorldPolicy policy;

  private TextWorldEnvironment(Knobs knobs, TextWorldGenerator.Generated g) {
    this.knobs = knobs;
    this.layouts = List.copyOf(g.layouts());
    this.tasks = g.training().stream().map(TextWorldGenerator.Spec::task).toList();
    this.heldOut = g.heldOut().stream().map(TextWorldGenerator.Spec::task).toList();
    Map<String, TextWorldGenerator.Spec> byId = new HashMap<>();
    g.training().forEach(s -> byId.put(s.task().id(), s));
    g.heldOut().forEach(s -> byId.put(s.task().id(), s));
    this.specs = Map.copyOf(byId);
    this.policy = new TextWorldPolicy(knobs.slipProbability());
  }

  /** Same seed and knobs, same houses, goals, task order and held-out tasks. */
  public static TextWorldEnvironment generate(long seed, Knobs knobs) {
    return new TextWorldEnvironment(knobs, TextWorldGenerator.generate(seed, knobs));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Task> tasks() {
    return tasks;
  }

  @Override
  public List<Task> heldOut() {
    return heldOut;
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return List.of();
  }

  Knobs knobs() {
    return knobs;
  }

  List<TextWorldLayout> layouts() {
    return layouts;
  }

  TextWorldPolicy policy() {
    return policy;
  }

  /**
   * A stream of goals never asked before, of plans that recur up to names in the environment's houses; at the drift
   * the objects of some receptacles move to another room. See {@link TextWorldStream}.
   */
  @Override
  public StreamWorld stream(long seed, StreamShape shape) {
    return TextWorldStream.generate(this, seed, shape);
  }

  /** Plays the task to the end; reward +1 if the goal holds then, −1 otherwise (nothing on the way). */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    TextWorldTrajectory t = play(task, shown, rnd);
    return new Episode(task, t.success(), t.success() ? 1 : -1, experience(task, t));
  }

  public static final String LLM_SYSTEM = "You are an agent in a house described in text. You reach a goal by issuing"
      + " commands, one per turn:\n"
      + "- look: describe the room you are in, its receptacles and what the open ones hold\n"
      + "- go to <room>: move to an adjacent room (one joined to this one by a door)\n"
      + "- open <receptacle>: open a closed receptacle in this room and see what it holds\n"
      + "- take <object> from <receptacle>: pick up an object (you hold one at a time)\n"
      + "- put <object> in <receptacle> / put <object> on <receptacle>\n"
      + "- clean <object> with <receptacle> / heat <object> with <receptacle> / cool <object> with <receptacle>\n"
      + "- unlock <receptacle> with <key>: you must hold the key\n"
      + "Use names exactly as the game prints them. Every command costs one step, even one that does nothing; the"
      + " episode ends when the goal holds or the step budget is spent. Plans from earlier experiences may come from"
      + " another house or a slightly different goal: follow one only where it fits. Reply with one command and"
      + " nothing else.";

  /**
   * The model plays the task one command per turn: it is told the task, the floor plan, the step
   * budget and the experiences, then each command's observation. A reply that is not a command, after
   * the policy's corrections, wastes the step. Remembered as the frozen policy's episodes are.
   */
  @Override
  public Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd) {
    TextWorldGenerator.Spec s = spec(task);
    TextWorldSimulator sim = simulator(s);
    TextWorldKnowledge k = new TextWorldKnowledge(sim.doors());
    LlmPolicy.Conversation c = llm.open(LLM_SYSTEM, rnd);
    List<String> actions = new ArrayList<>();
    List<String> observations = new ArrayList<>();
    List<TextWorldAction> executed = new ArrayList<>();
    String prompt = "Task: " + task.intent() + "\n" + sim.floorPlan() + "\nStep budget: " + sim.budget()
        + " commands.\n\n" + LlmPrompts.experiences(shown) + "\n\nYour first command?";
    while (!sim.over()) {
      Optional<TextWorldAction> a = c.ask(prompt, TextWorldEnvironment::readCommand);
      TextWorldObservation o = a.isPresent() ? sim.step(a.get()) : sim.invalid();
      a.ifPresent(action -> {
        k.observe(action, o);
        TextWorldPolicy.executed(action, o, executed);
      });
      actions.add(a.map(TextWorldAction::text).orElse("(no command)"));
      observations.add(o.text());
      prompt = o.text() + " [step " + sim.steps() + " of " + sim.budget() + "]";
    }
    boolean success = sim.succeeded();
    TextWorldTrajectory t = new TextWorldTrajectory(actions, observations, success, sim.budget(), 0, Optional.empty(),
        success ? "" : TextWorldExplorer.need(s.goal(), k), k.seenRoom, k.contentsSeen(), executed);
    return new Episode(task, success, success ? 1 : -1, experience(task, t), c.messages());
  }

  static LlmPolicy.Parsed<TextWorldAction> readCommand(String reply) {
    String line = LlmPrompts.commandLine(reply);
    return TextWorldAction.parse(line).map(LlmPolicy.Parsed::of).orElseGet(() -> LlmPolicy.Parsed.wrong(
        (line.isEmpty() ? "it is empty" : "'" + line + "' is not a command") + "; reply with exactly one command such as"
            + " 'look', 'go to kitchen' or 'take apple from fridge'."));
  }

  /** The whole episode, for tests and reports. */
  TextWorldTrajectory play(Task task, List<Memory> shown, RandomGenerator rnd) {
    TextWorldGenerator.Spec s = spec(task);
    return policy.play(task.intent(), simulator(s), shown, rnd);
  }

  /**
   * A memory helps when the plan the policy takes from it, shown first and alone, reaches the goal
   * without a failed step. Notes only make exploration likelier to succeed, so they never count.
   */
  @Override
  public boolean helps(Task task, Memory memory) {
    return helps(task, memory.experience());
  }

  boolean helps(Task task, String experience) {
    TextWorldGenerator.Spec s = spec(task);
    Optional<List<TextWorldAction>> plan = TextWorldPolicy.planFor(s.goal(), List.of(experience));
    if (plan.isEmpty()) {
      return false;
    }
    TextWorldSimulator sim = simulator(s);
    for (TextWorldAction a : plan.get()) {
      if (sim.over() || !sim.step(a).ok()) {
        break;
      }
    }
    return sim.succeeded();
  }

  /** The step budget of {@code task}: its shortest plan plus {@link Knobs#spareSteps()}. */
  int budgetOf(Task task) {
    TextWorldGenerator.Spec s = spec(task);
    return layouts.get(s.house()).optimalPlan(s.goal()).size() + knobs.spareSteps();
  }

  private TextWorldSimulator simulator(TextWorldGenerator.Spec s) {
    return new TextWorldSimulator(layouts.get(s.house()), s.goal(), budgetOf(s.task()));
  }

  /**
   * What an episode stores: for a success, the plan the agent executed (its commands that did something, in
   * order, without looks, which replays the episode in this house), for a failure, what went wrong.
   */
  static String experience(Task task, TextWorldTrajectory t) {
    return t.success() ? TextWorldExperience.success(task.intent(), t.executed(), t.steps())
        : TextWorldExperience.failure(task.intent(), t);
  }

  /** A success experience of {@code task} with its shortest plan: the right experience, for ground truth and tests. */
  String successExperience(Task task, int steps) {
    TextWorldGenerator.Spec s = spec(task);
    return TextWorldExperience.success(task.intent(), layouts.get(s.house()).optimalPlan(s.goal()), steps);
  }

  TextWorldGoal goalOf(Task task) {
    return spec(task).goal();
  }

  TextWorldLayout layoutOf(Task task) {
    return layouts.get(spec(task).house());
  }

  /** For a held-out task, the training task whose plan transfers to it. */
  Optional<Task> sourceOf(Task task) {
    String source = spec(task).source();
    return source.isEmpty() ? Optional.empty() : Optional.of(specs.get(source).task());
  }

  /**
   * Training pairs worded almost alike: a goal and its twin in the same house, and the same goal in
   * two houses. Directed: the policy of {@code task} is shown {@code source}'s plan.
   */
  List<Pair> nearPairs() {
    List<Pair> out = new ArrayList<>();
    for (Task t : tasks) {
      TextWorldGenerator.Spec s = spec(t);
      for (Task o : tasks) {
        TextWorldGenerator.Spec so = spec(o);
        boolean twins = s.twin().equals(o.id());
        boolean sameGoalElsewhere = so.goal().equals(s.goal()) && so.house() != s.house();
        if (twins || sameGoalElsewhere) {
          out.add(new Pair(t, o));
        }
      }
    }
    return out;
  }

  /** The near pairs whose source's plan does not work for the task: the distractors. */
  List<Pair> distractors() {
    return nearPairs().stream().filter(p -> !helps(p.task(), successExperience(p.source(), 0))).toList();
  }

  private TextWorldGenerator.Spec spec(Task task) {
    TextWorldGenerator.Spec s = specs.get(task.id());
    if (s == null || !s.task().equals(task)) {
      throw new IllegalArgumentException("task " + task.id() + " is not one of " + NAME + "'s " + specs.size() + " tasks");
    }
    return s;
  }
}
