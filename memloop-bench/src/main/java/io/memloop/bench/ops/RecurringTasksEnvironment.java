package io.memloop.bench.ops;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Environment;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamSource;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.LlmPrompts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * Recurring ops tasks with distractor twins: the first benchmark environment and the one
 * {@code memloop demo} runs.
 *
 * <p>A family is a template with one subject ("Restart the payment service ..."); its twins are
 * that family's phrasings ("... in the staging cluster ...", "... on the production fleet ..."),
 * each with its own hidden correct procedure, different from its twins'. A twin's memory is
 * therefore semantically close to the task (MiniLM cosine median 0.74, at most 0.89) and useless or
 * harmful: the {@link CopyFirstPolicy} copies the first success it is shown, so a twin's success
 * ranked first makes the attempt fail. Families of the same template with other subjects are further
 * distractors that happen to help one time in five.
 *
 * <p>Optionally some tasks start with a <em>stale</em> memory: a success experience recorded under the
 * task's exact intent whose procedure no longer works (the runbook predates a change). It is the
 * most similar memory there is and helps no task, the case utility learning is meant for.
 *
 * <p>Held-out requests restate training tasks in other words ("Ticket from the on-call rotation:
 * restart the payment service in the staging cluster ..."): their right experience is the original
 * task's, their distractors its twins'. With memory frozen they measure whether what was learned
 * carries over to a request worded differently.
 *
 * <p>The same task list, in one seeded order, recurs every epoch (MemRL's "sections"). Immutable and
 * thread-safe.
 */
public final class RecurringTasksEnvironment implements Environment, GroundTruth, StreamSource {
  public static final String NAME = "recurring-ops";
  /** Default chance that the policy ignores the memory shown and guesses blind. */
  public static final double DEFAULT_SLIP = 0.05;

  /**
   * Size and difficulty of the environment.
   *
   * @param families task families (template × subject)
   * @param twinsPerFamily phrasings per family, each its own task with its own answer (1 = no twins)
   * @param staleShare fraction of tasks that start with a stale memory (rounded to whole tasks)
   * @param slipProbability chance that the policy ignores what it is shown and guesses blind
   * @param heldOut held-out requests: training tasks asked again in other words ("Ticket from the
   *     on-call rotation: restart ..."), whose right experience is the original's; at most one per task
   */
  public record Knobs(int families, int twinsPerFamily, double staleShare, double slipProbability, int heldOut) {
    /** Without held-out requests (the demo's environment). */
    public Knobs(int families, int twinsPerFamily, double staleShare, double slipProbability) {
      this(families, twinsPerFamily, staleShare, slipProbability, 0);
    }

    public Knobs {
      if (families < 1 || families > maxFamilies()) {
        throw new IllegalArgumentException("families must be in [1, " + maxFamilies() + "], got " + families);
      }
      if (twinsPerFamily < 1 || twinsPerFamily > maxTwinsPerFamily()) {
        throw new IllegalArgumentException(
            "twinsPerFamily must be in [1, " + maxTwinsPerFamily() + "], got " + twinsPerFamily);
      }
      if (!(staleShare >= 0 && staleShare <= 1)) {
        throw new IllegalArgumentException("staleShare must be in [0, 1], got " + staleShare);
      }
      if (!(slipProbability >= 0 && slipProbability < 1)) {
        throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
      }
      if (heldOut < 0 || heldOut > families * twinsPerFamily) {
        throw new IllegalArgumentException(
            "heldOut must be in [0, families × twinsPerFamily = " + families * twinsPerFamily + "], got " + heldOut);
      }
    }
  }

  /** How a held-out request restates a training task: the same work, asked in another voice. */
  static final List<String> REQUEST_PREAMBLES = List.of(
      "Ticket from the on-call rotation: ",
      "Follow-up from the incident channel: ",
      "Change request approved for tonight: ",
      "Please handle this before the next release: ",
      "Paged by the SRE lead: ",
      "From the weekly ops backlog: ");

  private record Hidden(OpsTemplate template, String answer) {}

  private final Knobs knobs;
  private final List<Task> tasks;
  private final List<Task> heldOut;
  private final Map<String, String> sourceOf;
  private final Map<String, Hidden> hidden;
  private final List<PriorExperience> prior;
  private final CopyFirstPolicy policy;

  private RecurringTasksEnvironment(Knobs knobs, List<Task> tasks, List<Task> heldOut, Map<String, String> sourceOf,
      Map<String, Hidden> hidden, List<PriorExperience> prior) {
    this.knobs = knobs;
    this.tasks = List.copyOf(tasks);
    this.heldOut = List.copyOf(heldOut);
    this.sourceOf = Map.copyOf(sourceOf);
    this.hidden = Map.copyOf(hidden);
    this.prior = List.copyOf(prior);
    this.policy = new CopyFirstPolicy(knobs.slipProbability());
  }

  /** Largest {@code families} the catalogue supports: one per (template, subject). */
  public static int maxFamilies() {
    return OpsTemplates.ALL.stream().mapToInt(t -> t.subjects().size()).sum();
  }

  /** Largest {@code twinsPerFamily}: every template has at least this many phrasings. */
  public static int maxTwinsPerFamily() {
    return OpsTemplates.ALL.stream().mapToInt(t -> t.variants().size()).min().orElseThrow();
  }

  /**
   * Generates {@code families × twinsPerFamily} tasks from {@code seed}: same seed, same tasks,
   * answers, order and stale memories. Templates are used round-robin in a seeded order, so families
   * spread over all templates before a template gets a second subject. The stale memories come from
   * their own random stream, so changing {@code staleShare} leaves the tasks as they were.
   */
  public static RecurringTasksEnvironment generate(long seed, Knobs knobs) {
    int families = knobs.families();
    int twinsPerFamily = knobs.twinsPerFamily();
    SplittableRandom rnd = new SplittableRandom(seed);
    List<OpsTemplate> templates = shuffled(OpsTemplates.ALL, rnd);
    Map<String, List<String>> unusedSubjects = new HashMap<>();
    for (OpsTemplate t : templates) {
      unusedSubjects.put(t.key(), new ArrayList<>(shuffled(t.subjects(), rnd)));
    }
    List<Task> tasks = new ArrayList<>();
    Map<String, Hidden> hidden = new HashMap<>();
    int family = 0;
    while (family < families) { // terminates: families <= maxFamilies()
      for (OpsTemplate t : templates) {
        List<String> subjects = unusedSubjects.get(t.key());
        if (family == families || subjects.isEmpty()) {
          continue;
        }
        String subject = subjects.removeFirst();
        List<Integer> variants = shuffled(indices(t.variants().size()), rnd).subList(0, twinsPerFamily);
        List<String> answers = shuffled(t.procedures(), rnd); // distinct: twins never share an answer
        for (int i = 0; i < twinsPerFamily; i++) {
          int v = variants.get(i);
          Task task = new Task(t.key() + "/" + subject + "/v" + v, t.intent(v, subject));
          tasks.add(task);
          hidden.put(task.id(), new Hidden(t, answers.get(i)));
        }
        family++;
      }
    }
    List<PriorExperience> stale = stale(seed, knobs, tasks, hidden);
    List<Task> training = shuffled(tasks, rnd);
    // Own random stream: asking for held-out requests leaves the training tasks as they were.
    SplittableRandom heldOutRnd = new SplittableRandom(Seeds.derive(seed, "ops:held-out"));
    List<Task> heldOut = new ArrayList<>();
    Map<String, String> sourceOf = new HashMap<>();
    for (Task source : shuffled(tasks, heldOutRnd).subList(0, knobs.heldOut())) {
      String preamble = REQUEST_PREAMBLES.get(heldOutRnd.nextInt(REQUEST_PREAMBLES.size()));
      String intent = preamble + Character.toLowerCase(source.intent().charAt(0)) + source.intent().substring(1);
      Task task = new Task(source.id() + "/reworded", intent);
      heldOut.add(task);
      sourceOf.put(task.id(), source.id());
      hidden.put(task.id(), hidden.get(source.id()));
    }
    return new RecurringTasksEnvironment(knobs, training, heldOut, sourceOf, hidden, stale);
  }

  private static List<PriorExperience> stale(long seed, Knobs knobs, List<Task> tasks, Map<String, Hidden> hidden) {
    SplittableRandom rnd = new SplittableRandom(Seeds.derive(seed, "stale"));
    int n = (int) Math.round(knobs.staleShare() * tasks.size());
    List<PriorExperience> out = new ArrayList<>(n);
    for (Task task : shuffled(tasks, rnd).subList(0, n)) {
      Hidden h = hidden.get(task.id());
      List<String> wrong = new ArrayList<>(h.template().procedures());
      wrong.remove(h.answer());
      String procedure = wrong.get(rnd.nextInt(wrong.size()));
      out.add(
          new PriorExperience(
              task.intent(), CopyFirstPolicy.successExperience(task.intent(), procedure), Outcome.SUCCESS));
    }
    return out;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Task> tasks() {
    return tasks;
  }

  /** Training tasks asked again in other words, played with frozen memory. */
  @Override
  public List<Task> heldOut() {
    return heldOut;
  }

  /**
   * Robustness, not transfer: every task's procedure is its own (twins and other families have other
   * answers by construction), so nothing learned on one task carries over to another; what the held-out
   * requests can show is whether a task's learned memory is still found when it is asked in other words.
   */
  @Override
  public HeldOut heldOutKind() {
    return HeldOut.ROBUSTNESS;
  }

  /** For a held-out request, the id of the training task it restates. */
  Optional<String> sourceOf(Task task) {
    return Optional.ofNullable(sourceOf.get(task.id()));
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return prior;
  }

  Knobs knobs() {
    return knobs;
  }

  CopyFirstPolicy policy() {
    return policy;
  }

  /**
   * A stream of new requests for the training tasks' work, worded as tickets; at the drift a third of the tasks'
   * runbooks gain a step. See {@link OpsStream}.
   */
  @Override
  public StreamWorld stream(long seed, StreamShape shape) {
    return OpsStream.generate(this, seed, shape);
  }

  /** Verifies the policy's procedure against the hidden answer; reward +1 or −1 as in MemRL. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    Hidden h = hiddenOf(task);
    String chosen = policy.choose(h.template().procedures(), shown, rnd);
    boolean success = chosen.equals(h.answer());
    return new Episode(
        task,
        success,
        success ? 1 : -1,
        success
            ? CopyFirstPolicy.successExperience(task.intent(), chosen)
            : CopyFirstPolicy.failureExperience(task.intent(), chosen));
  }

  static final String LLM_SYSTEM = "You are an on-call operations engineer. Each task asks for an operation on a"
      + " service, and you choose which one of the listed procedures to run. Exactly one procedure is right for each"
      + " task, and the wording alone does not tell which: tasks that read almost the same (another cluster, another"
      + " fleet) often need different procedures. Experiences of the very same task are reliable; experiences of"
      + " similar-looking tasks may mislead. Reply with the chosen procedure exactly as listed, between backticks,"
      + " and nothing else.";

  /** The model picks one of the task's procedures; verified and remembered as the frozen policy's choice. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd) {
    List<String> procedures = proceduresOf(task);
    String prompt = "Task: " + task.intent() + "\n\nProcedures:\n" + LlmPrompts.options(procedures) + "\n\n"
        + LlmPrompts.experiences(shown) + "\n\nWhich procedure do you run? Reply with it between backticks.";
    return LlmPrompts.decide(llm, rnd, LLM_SYSTEM, prompt, LlmPrompts.oneOf(procedures, "procedure"))
        .episode(task, answerOf(task)::equals, CopyFirstPolicy::successExperience, CopyFirstPolicy::failureExperience,
            "Task: " + task.intent() + "\nOutcome: failed.\nWhat went wrong: no procedure was chosen"
                + " (the answer named none of the listed procedures).");
  }

  /** A memory helps when it is a success experience naming the task's hidden procedure. */
  @Override
  public boolean helps(Task task, Memory memory) {
    String answer = answerOf(task);
    return CopyFirstPolicy.workedProcedure(memory.experience()).filter(answer::equals).isPresent();
  }

  /** The hidden answer, for tests of the policy contract and the oracle. */
  String answerOf(Task task) {
    return hiddenOf(task).answer();
  }

  /** The procedures the task admits, in catalogue order. */
  List<String> proceduresOf(Task task) {
    return hiddenOf(task).template().procedures();
  }

  private Hidden hiddenOf(Task task) {
    Hidden h = hidden.get(task.id());
    if (h == null) {
      throw new IllegalArgumentException(
          "task " + task.id() + " is not one of " + NAME + "'s " + hidden.size() + " tasks (training and held-out)");
    }
    return h;
  }

  private static List<Integer> indices(int n) {
    List<Integer> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(i);
    }
    return out;
  }

  private static <T> List<T> shuffled(List<T> list, RandomGenerator rnd) {
    List<T> copy = new ArrayList<>(list);
    Collections.shuffle(copy, rnd);
    return copy;
  }
}
