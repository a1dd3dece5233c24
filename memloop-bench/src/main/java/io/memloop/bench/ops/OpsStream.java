package io.memloop.bench.ops;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.StreamKinds;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamTask;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The stream of the recurring-ops environment ({@link RecurringTasksEnvironment#stream}).
 *
 * <p>A kind is one of the environment's training tasks (a family's twin: "Restart the payment service in the
 * staging cluster ..."), with its hidden procedure. An instance is a new request for that same work, worded as a
 * ticket: an opener with a ticket number, the task's request, and sometimes a closing remark ("Ticket OPS-4821:
 * restart the payment service in the staging cluster after a config change. Needed before the next release.").
 * Ticket numbers are never reused, so no two requests read alike in full, and none reads like a training task or a
 * held-out request. Kinds recur evenly over the stream; the twins of a family stay each other's distractors.
 *
 * <p>The drift: for the drifting kinds (a share of the tasks, seeded), the runbook gains a step: the right
 * procedure becomes the old one followed by a check ("..., then run the smoke tests"), offered to the policy as one
 * more procedure of the task. A success recorded before the drift names the old procedure, which the policy still
 * finds among the task's procedures and copies, and fails; without memory it guesses among six procedures instead of
 * five, so it finds the new one on its own about as often as it found the old one.
 *
 * <p>The environment's stale memories come first, as in the epochs. Immutable and thread-safe.
 */
final class OpsStream implements StreamWorld {
  /** How a request for a task opens; {@code {n}} is the request's ticket number, unique in the stream. */
  static final List<String> OPENERS = List.of(
      "Ticket OPS-{n}: ",
      "Request {n} from the on-call rotation: ",
      "Incident {n} follow-up: ",
      "Change {n}, approved for tonight: ",
      "Backlog item {n}: ",
      "Page {n} from the SRE lead: ",
      "Support case {n}: ",
      "Action item {n} from the weekly review: ");

  /** How a request may close (the empty closing leaves the task's sentence last). */
  static final List<String> CLOSERS = List.of(
      "",
      " Please confirm in the channel when done.",
      " Needed before the next release.",
      " Low priority, but do not let it slip.",
      " The service owner is on leave, so go ahead.",
      " Asked by the platform team.");

  /** The checks a runbook gains at the drift. */
  static final List<String> ADDED_STEPS = List.of(
      "run the smoke tests",
      "record it in the change log",
      "confirm with the service owner",
      "watch the error-rate dashboard for ten minutes",
      "post the outcome in the ops channel");

  /** What only the world knows of an instance: the procedures it admits and the right one. */
  private record Hidden(String intent, List<String> procedures, String answer) {}

  private final RecurringTasksEnvironment env;
  private final List<StreamTask> tasks;
  private final Map<String, Hidden> hidden;
  private final int driftAt;

  private OpsStream(RecurringTasksEnvironment env, List<StreamTask> tasks, Map<String, Hidden> hidden, int driftAt) {
    this.env = env;
    this.tasks = List.copyOf(tasks);
    this.hidden = Map.copyOf(hidden);
    this.driftAt = driftAt;
  }

  static OpsStream generate(RecurringTasksEnvironment env, long seed, StreamShape shape) {
    SplittableRandom rnd = new SplittableRandom(Seeds.derive(seed, "ops:stream"));
    List<Task> kinds = env.tasks();
    Set<String> seen = new HashSet<>();
    for (Task t : env.tasks()) {
      seen.add(t.intent());
    }
    for (Task t : env.heldOut()) {
      seen.add(t.intent());
    }
    // Four-digit ticket numbers: 9000 of them, more than any stream long enough to need them (quotas refuses more).
    int[] capacities = new int[kinds.size()];
    Arrays.fill(capacities, 9000 / kinds.size());
    int[] quotas = StreamKinds.quotas(shape.length(), capacities);
    Map<Integer, String> revised = new HashMap<>();
    for (int k : StreamKinds.drifting(kinds.size(), shape.driftedShare(), rnd)) {
      String step = ADDED_STEPS.get(rnd.nextInt(ADDED_STEPS.size()));
      revised.put(k, env.answerOf(kinds.get(k)) + ", then " + step);
    }
    int driftAt = shape.driftIndex();
    Set<Integer> tickets = new HashSet<>();
    List<StreamTask> tasks = new ArrayList<>();
    Map<String, Hidden> hidden = new HashMap<>();
    List<Integer> order = StreamKinds.order(quotas, rnd);
    for (int i = 0; i < order.size(); i++) {
      int k = order.get(i);
      Task kind = kinds.get(k);
      int ticket;
      do {
        ticket = 1000 + rnd.nextInt(9000);
      } while (!tickets.add(ticket));
      String opener = OPENERS.get(rnd.nextInt(OPENERS.size())).replace("{n}", Integer.toString(ticket));
      String intent = opener + Character.toLowerCase(kind.intent().charAt(0)) + kind.intent().substring(1)
          + CLOSERS.get(rnd.nextInt(CLOSERS.size()));
      if (seen.contains(intent)) {
        throw new AssertionError("a stream request reads like a task of the environment: " + intent);
      }
      List<String> procedures = env.proceduresOf(kind);
      String answer = env.answerOf(kind);
      if (i >= driftAt && revised.containsKey(k)) {
        procedures = new ArrayList<>(procedures);
        procedures.add(revised.get(k));
        answer = revised.get(k);
      }
      Task task = new Task("ops-stream/" + i + "/" + kind.id(), intent);
      hidden.put(task.id(), new Hidden(intent, List.copyOf(procedures), answer));
      tasks.add(new StreamTask(task, kind.id(), revised.containsKey(k)));
    }
    return new OpsStream(env, tasks, hidden, driftAt);
  }

  @Override
  public List<StreamTask> tasks() {
    return tasks;
  }

  @Override
  public int driftAt() {
    return driftAt;
  }

  /** The environment's stale memories: success experiences of training tasks whose procedure no longer works. */
  @Override
  public List<PriorExperience> priorExperiences() {
    return env.priorExperiences();
  }

  /** As {@link RecurringTasksEnvironment#attempt}, among the procedures the instance admits in its world. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    Hidden h = hiddenOf(task);
    String chosen = env.policy().choose(h.procedures(), shown, rnd);
    boolean success = chosen.equals(h.answer());
    return new Episode(task, success, success ? 1 : -1,
        success ? CopyFirstPolicy.successExperience(task.intent(), chosen)
            : CopyFirstPolicy.failureExperience(task.intent(), chosen));
  }

  /** A memory helps when it is a success experience naming the instance's right procedure in its world. */
  @Override
  public boolean helps(Task task, Memory memory) {
    String answer = hiddenOf(task).answer();
    return CopyFirstPolicy.workedProcedure(memory.experience()).filter(answer::equals).isPresent();
  }

  /** The right procedure of an instance in its world. */
  String answerOf(Task task) {
    return hiddenOf(task).answer();
  }

  /** The procedures an instance admits in its world. */
  List<String> proceduresOf(Task task) {
    return hiddenOf(task).procedures();
  }

  private Hidden hiddenOf(Task task) {
    Hidden h = hidden.get(task.id());
    if (h == null || !h.intent().equals(task.intent())) {
      throw new IllegalArgumentException("task " + task.id() + " is not one of the " + hidden.size()
          + " instances of this " + RecurringTasksEnvironment.NAME + " stream");
    }
    return h;
  }
}
