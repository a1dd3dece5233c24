package io.memloop.bench.knowntruth;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Retrieval;
import io.memloop.bench.Seeds;
import io.memloop.events.EventSink;
import io.memloop.history.JsonlEventLog;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.store.InMemoryStore;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A world with known truth where per-task learning matters: {@value #TASKS} tasks, each asked by its own intent
 * (orthogonal embeddings, so a retrieval recalls its task's memories only), {@value #MEMORIES} success experiences
 * per task of which exactly one truly helps (drawn by the seed), and an agent that succeeds with probability
 * {@value #HELPED} when that memory is among those shown and {@value #UNHELPED} otherwise. Nothing is remembered
 * during the run: the memory is the prior one throughout, so "our memory as it was" is the same for every run.
 *
 * <p>{@link #run} logs a memrl run with ε-greedy exploration through the engine and its event log (the JSONL that
 * {@code serve --event-log} writes), evaluates each candidate from that log with {@link OffPolicyEvaluation}, and
 * runs each candidate live on the same world: the same task order and the same agent random numbers per episode.
 */
public final class KnownTruthWorld {
  /** Tasks in the world. */
  public static final int TASKS = 20;
  /** Memories per task. */
  public static final int MEMORIES = 5;
  /** Success probability when the helpful memory is shown. */
  public static final double HELPED = 0.9;
  /** Success probability when it is not. */
  public static final double UNHELPED = 0.1;
  private static final String NS = "world";

  /** A candidate's estimate from the log next to its live success on the same world. */
  public record Comparison(String candidate, OffPolicyEvaluation.Report report, double live) {
    /** Whether evaluate flagged it (a warning: not evaluable from this log). */
    public boolean flagged() {
      return !report.warnings().isEmpty();
    }

    /** Whether the live success lies within the doubly robust 95 % interval. */
    public boolean liveInInterval() {
      return live >= report.drSuccess().low() && live <= report.drSuccess().high();
    }
  }

  /** The logging run's own success and each candidate's comparison. */
  public record Result(long seed, int episodes, double epsilon, double loggedLive, int decisions,
      List<Comparison> comparisons) {}

  private final long seed;
  private final int[] helpful = new int[TASKS]; // index of the memory that helps each task

  private KnownTruthWorld(long seed) {
    this.seed = seed;
    SplittableRandom r = new SplittableRandom(Seeds.derive(seed, "known-truth:helpful"));
    for (int t = 0; t < TASKS; t++) {
      helpful[t] = r.nextInt(MEMORIES);
    }
  }

  /**
   * Logs {@code episodes} episodes of memrl with ε = {@code epsilon} to {@code logDir}, evaluates
   * {@code candidates} from it and runs each live.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --epsilon} unless ε is in (0, 1]
   */
  public static Result run(long seed, int episodes, double epsilon, Map<String, MemLoopConfig> candidates, Path logDir) {
    if (!(epsilon > 0 && epsilon <= 1)) {
      throw MemLoopException.invalid("--epsilon", "must be in (0, 1], got " + epsilon);
    }
    KnownTruthWorld world = new KnownTruthWorld(seed);
    MemLoopConfig logging = MemLoopConfig.preset(io.memloop.Preset.MEMRL).toBuilder()
        .set("exploration", "EPSILON_GREEDY").epsilon(epsilon).build();
    double loggedLive = world.live(logging, episodes, new JsonlEventLog(logDir));
    OffPolicyEvaluation.Result ope = OffPolicyEvaluation.run(logDir, candidates, logging);
    List<Comparison> rows = new ArrayList<>();
    for (OffPolicyEvaluation.Report rep : ope.reports()) {
      rows.add(new Comparison(rep.candidate(), rep, world.live(candidates.get(rep.candidate()), episodes, EventSink.NONE)));
    }
    return new Result(seed, episodes, epsilon, loggedLive, ope.decisions(), List.copyOf(rows));
  }

  /** The task's intent: its own axis, so tasks never recall each other's memories (cosine 0 < δ). */
  private static Intent intent(int task) {
    float[] e = new float[TASKS];
    e[task] = 1;
    return Intent.of("task " + task, e);
  }

  /** Mean success of {@code config} run live for {@code episodes} episodes. */
  private double live(MemLoopConfig config, int episodes, EventSink events) {
    int successes = 0;
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(TASKS)).config(config)
        .clock(InstantSource.fixed(Instant.EPOCH)).seed(Seeds.derive(seed, "known-truth:engine")).events(events).build()) {
      Map<String, Integer> helps = new LinkedHashMap<>(); // memory id -> the task it helps
      for (int t = 0; t < TASKS; t++) {
        for (int j = 0; j < MEMORIES; j++) {
          Memory m = loop.remember(NS, intent(t), "task " + t + ": way " + j, Outcome.SUCCESS);
          if (j == helpful[t]) {
            helps.put(m.id(), t);
          }
        }
      }
      SplittableRandom order = new SplittableRandom(Seeds.derive(seed, "known-truth:tasks"));
      SplittableRandom agent = new SplittableRandom(Seeds.derive(seed, "known-truth:agent"));
      for (int e = 0; e < episodes; e++) {
        int task = order.nextInt(TASKS);
        double u = agent.nextDouble(); // drawn every episode: the same number for every run
        Retrieval r = loop.retrieve(NS, intent(task));
        boolean shown = r.selected().stream().anyMatch(m -> helps.getOrDefault(m.id(), -1) == task);
        boolean success = u < (shown ? HELPED : UNHELPED);
        successes += success ? 1 : 0;
        loop.reward(NS, r.id(), success ? 1 : -1);
      }
    }
    return successes / (double) episodes;
  }

  /** The comparison as a Markdown table. */
  public static String markdown(Result r) {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "Known-truth world (%d tasks, %d memories each, one helps: success %.1f when it is "
        + "shown, %.1f otherwise): memrl with epsilon = %.2f logged over %,d episodes (its own success %.3f), seed %d; "
        + "each candidate estimated from that log and run live on the same world with the same random numbers.%n%n",
        TASKS, MEMORIES, HELPED, UNHELPED, r.epsilon(), r.episodes(), r.loggedLive(), r.seed()));
    s.append("| candidate | flagged | replayed | DR [95 % interval] | SNIPS | live | live in DR interval |\n"
        + "|---|---|---|---|---|---|---|\n");
    for (Comparison c : r.comparisons()) {
      OffPolicyEvaluation.Estimate dr = c.report().drSuccess();
      s.append(String.format(Locale.ROOT, "| %s | %s | %s | %.3f [%.3f, %.3f] | %.3f | %.3f | %s |%n", c.candidate(),
          c.flagged() ? "yes" : "no", c.report().replayed().isEmpty() ? "no" : "per-task ledger", dr.value(), dr.low(),
          dr.high(), c.report().snipsSuccess().value(), c.live(), c.flagged() ? "— (flagged)" : c.liveInInterval() ? "yes" : "NO"));
    }
    return s.toString();
  }
}
