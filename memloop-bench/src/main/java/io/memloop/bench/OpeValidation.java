package io.memloop.bench;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Candidate;
import io.memloop.OfflineLearning;
import io.memloop.OfflineSelection;
import io.memloop.policy.TaskNote;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.bench.knowntruth.KnownTruthWorld;
import io.memloop.bench.strategy.EngineRun;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embed.Embedder;
import io.memloop.history.JsonlEventLog;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.history.report.DecisionReport;
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
 * Checks off-policy evaluation (docs/event-log.md) on the benchmark, where the truth can be computed: one
 * logging policy (MemRL's configuration with ε-greedy exploration) runs every environment and writes an
 * event log; {@link OffPolicyEvaluation} then estimates each candidate configuration's success from that log
 * alone, and the estimates are compared with two truths:
 *
 * <ul>
 *   <li><b>counterfactual</b> — what the candidate's selection would have got on the very same decisions:
 *       at each logged retrieval, the candidate's slate is selected from the same candidate pool (the
 *       estimator's own assumption) and the frozen policy attempts the task with it, under the same random
 *       numbers as the logged attempt. This is the quantity IPS and DR estimate; an estimator error here is
 *       the estimator's.
 *   <li><b>online</b> — the candidate's mean success when it runs the benchmark itself, learning its own
 *       utilities (what deploying it would give). The gap to it is what evaluating from a log cannot know:
 *       the candidate would have learned different utilities and stored a different memory.
 * </ul>
 */
public final class OpeValidation {
  private static final String NS = EngineRun.NAMESPACE;

  /** One candidate on one environment, over the seeds: the means of each seed's numbers. */
  public record Row(String environment, String candidate, int decisions, double agreeing, double support,
      double departures, double expectedMatches, int flagged,
      double counterfactual, double online, double ips, double snips, double dr, double drHalfWidth,
      double effectiveSampleSize, int covered, int seeds) {
    /** |DR − counterfactual|. */
    public double drError() {
      return Math.abs(dr - counterfactual);
    }

    /** |IPS − counterfactual|. */
    public double ipsError() {
      return Math.abs(ips - counterfactual);
    }

    /** |SNIPS − counterfactual|. */
    public double snipsError() {
      return Math.abs(snips - counterfactual);
    }
  }

  /**
   * Every row, with what produced them, and the known-truth world's comparison of each candidate's estimate with
   * its live success ({@link KnownTruthWorld}, first seed).
   */
  public record Result(double epsilon, List<Long> seeds, int epochs, String size, List<Row> rows,
      KnownTruthWorld.Result knownTruth, double seconds) {}

  /** Episodes of the known-truth world's logging run. */
  static final int KNOWN_TRUTH_EPISODES = 1_500;

  private OpeValidation() {}

  /** The candidates evaluated by default: the decision report's, {@link DecisionReport#defaultCandidates()}. */
  public static Map<String, MemLoopConfig> defaultCandidates() {
    return DecisionReport.defaultCandidates();
  }

  /**
   * Runs the validation on {@code options}' environments and seeds; each run's event log goes under
   * {@code logRoot/ENV/seed-N}.
   *
   * @param epsilon the logging policy's exploration, in (0, 1]
   */
  public static Result run(Embedder embedder, BenchOptions options, double epsilon, Map<String, MemLoopConfig> candidates,
      Path logRoot, Bench.Listener listener) {
    if (!(epsilon > 0 && epsilon <= 1)) {
      throw MemLoopException.invalid("--epsilon", "must be in (0, 1], got " + epsilon);
    }
    long started = System.nanoTime();
    MemLoopConfig logging = MemLoopConfig.preset(Preset.MEMRL).toBuilder()
        .exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(epsilon).build();
    List<Row> rows = new ArrayList<>();
    for (String envName : options.environments()) {
      EnvironmentFactory factory = EnvironmentCatalog.named(envName);
      Map<String, List<double[]>> perSeed = new LinkedHashMap<>(); // candidate -> per seed numbers
      candidates.keySet().forEach(k -> perSeed.put(k, new ArrayList<>()));
      int decisions = 0;
      for (long seed : options.seeds()) {
        Environment env = factory.create(seed, options.size(), options.slip(), options.knobsOf(envName));
        try {
          listener.phase(envName + " seed " + seed + ": logging run (memrl, epsilon " + epsilon + ")");
          IntentEmbeddings embeddings = IntentEmbeddings.of(embedder, env);
          Path log = logRoot.resolve(envName).resolve("seed-" + seed);
          clearLogs(log);
          Map<String, Double> counterfactual = loggingRun(env, embeddings, options.epochs(), seed, logging, candidates, log);
          OffPolicyEvaluation.Result ope = OffPolicyEvaluation.run(log, candidates, logging);
          decisions = ope.decisions();
          LearningLoop loop = new LearningLoop(env, embeddings, options.epochs());
          for (OffPolicyEvaluation.Report rep : ope.reports()) {
            listener.phase(envName + " seed " + seed + ": online run of " + rep.candidate());
            RunResult online = loop.run(Strategy.engine(rep.candidate(), candidates.get(rep.candidate())), seed);
            double onlineSuccess = online.rows().stream().mapToDouble(r -> r.success() ? 1 : 0).average().orElse(0);
            double truth = counterfactual.get(rep.candidate());
            boolean covered = truth >= rep.drSuccess().low() && truth <= rep.drSuccess().high();
            perSeed.get(rep.candidate()).add(new double[] {rep.agreeing() / (double) rep.decisions(),
                rep.supported() / (double) rep.decisions(), rep.departures() / (double) rep.decisions(), rep.expectedMatches(),
                rep.warnings().isEmpty() ? 0 : 1, truth, onlineSuccess, rep.ipsSuccess().value(),
                rep.snipsSuccess().value(), rep.drSuccess().value(), (rep.drSuccess().high() - rep.drSuccess().low()) / 2,
                rep.effectiveSampleSize(), covered ? 1 : 0});
          }
        } finally {
          Bench.closeIfCloseable(env);
        }
      }
      for (var e : perSeed.entrySet()) {
        double[] m = mean(e.getValue());
        int k = e.getValue().size();
        rows.add(new Row(envName, e.getKey(), decisions, m[0], m[1], m[2], m[3], (int) Math.round(m[4] * k), m[5], m[6], m[7],
            m[8], m[9], m[10], m[11], (int) Math.round(m[12] * k), k));
      }
    }
    listener.phase("known-truth world: logging run (memrl, epsilon " + epsilon + "), evaluation and live runs");
    Path worldLog = logRoot.resolve("known-truth");
    clearLogs(worldLog);
    KnownTruthWorld.Result world = KnownTruthWorld.run(options.seeds().getFirst(), KNOWN_TRUTH_EPISODES, epsilon, candidates,
        worldLog);
    return new Result(epsilon, options.seeds(), options.epochs(), options.size().name().toLowerCase(Locale.ROOT), rows,
        world, (System.nanoTime() - started) / 1e9);
  }

  /**
   * The logging run: MemRL with exploration over every epoch, logged to {@code log}; at each retrieval each
   * candidate's slate from the same pool is attempted under the logged attempt's random numbers. A candidate chooses
   * as {@code evaluate} replays it: from what its own Phase A would have recalled of the pool, and, where it learns
   * per task, with its ledger fed the logged slates and rewards (its draws weighed by their probabilities).
   *
   * @return each candidate's counterfactual success rate over the logged decisions
   */
  private static Map<String, Double> loggingRun(Environment env, IntentEmbeddings embeddings, int epochs, long seed,
      MemLoopConfig logging, Map<String, MemLoopConfig> candidates, Path log) {
    Map<String, Double> solved = new LinkedHashMap<>();
    candidates.keySet().forEach(k -> solved.put(k, 0.0));
    // a candidate that learns per task chooses as evaluate replays it: its ledger fed the logged slates and rewards
    Map<String, OfflineLearning> learners = new LinkedHashMap<>();
    candidates.forEach((k, c) -> {
      if (OfflineLearning.learnsPerTask(c) && c.taskLearning() != MemLoopConfig.TaskLearning.NEIGHBOURS) {
        learners.put(k, new OfflineLearning(c));
      }
    });
    Map<String, OfflineLearning.Known> known = new LinkedHashMap<>();
    int decisions = 0;
    long policySeed = Seeds.derive(seed, "policy:" + env.name());
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(embeddings.dimension())).config(logging)
        .clock(InstantSource.fixed(Instant.EPOCH)).seed(Seeds.derive(seed, "strategy:ope-logging"))
        .events(new JsonlEventLog(log)).build()) {
      for (PriorExperience prior : env.priorExperiences()) {
        loop.remember(NS, Intent.of(prior.intent(), embeddings.of(prior.intent())), prior.experience(), prior.outcome());
      }
      List<Task> tasks = env.tasks();
      for (int epoch = 1; epoch <= epochs; epoch++) {
        for (int i = 0; i < tasks.size(); i++) {
          Task task = tasks.get(i);
          Task seen = OpaqueTasks.of(task);
          float[] z = embeddings.of(task);
          Retrieval r = loop.retrieve(NS, Intent.of(seen.intent(), z));
          long episodeSeed = Seeds.derive(policySeed, epoch, i);
          Map<String, Memory> pooled = new LinkedHashMap<>(); // read once: what the replay knows, and every slate
          for (Candidate c : r.candidates()) {
            Memory m = loop.get(NS, c.memoryId()).orElseThrow();
            pooled.put(m.id(), m);
            known.put(m.id(), new OfflineLearning.Known(m.outcome(), m.experience()));
          }
          for (var c : candidates.entrySet()) {
            OfflineLearning learner = learners.get(c.getKey());
            List<OfflineLearning.Choice> choices = learner != null
                ? learner.choose(NS, seen.intent(), r.candidates(), known, logging)
                : List.of(new OfflineLearning.Choice(OfflineSelection.select(
                    OfflineSelection.recall(r.candidates(), c.getValue(), c.getValue().k1(), logging).pool(), c.getValue()),
                    TaskNote.NO_DRAW, 1));
            double success = 0; // over the candidate's own draws, each slate under the logged attempt's random numbers
            for (OfflineLearning.Choice choice : choices) {
              List<Memory> slate = choice.slate().stream().map(pooled::get).toList();
              success += env.attempt(task, slate, new SplittableRandom(episodeSeed)).success() ? choice.probability() : 0;
            }
            solved.merge(c.getKey(), success, Double::sum);
          }
          Episode episode = env.attempt(task, r.selected(), new SplittableRandom(episodeSeed));
          List<String> shown = r.selected().stream().map(Memory::id).toList();
          learners.values().forEach(l -> l.learn(shown, TaskNote.WHOLE, episode.reward(), null, known));
          loop.reward(NS, r.id(), episode.reward());
          loop.remember(NS, Intent.of(seen.intent(), z), episode.experience(), Outcome.ofReward(episode.reward()), r.id());
          decisions++;
        }
      }
    }
    Map<String, Double> rates = new LinkedHashMap<>();
    int n = decisions;
    solved.forEach((k, v) -> rates.put(k, n == 0 ? 0 : v / (double) n));
    return rates;
  }

  /** Removes the event-log files of an earlier validation in {@code dir}: each run evaluates its own log only. */
  private static void clearLogs(Path dir) {
    if (!java.nio.file.Files.isDirectory(dir)) {
      return;
    }
    try (var files = java.nio.file.Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".jsonl")).toList()) {
        java.nio.file.Files.delete(f);
      }
    } catch (java.io.IOException e) {
      throw MemLoopException.invalid("--out", "cannot clear the earlier event log in " + dir + ": " + e.getMessage());
    }
  }

  private static double[] mean(List<double[]> xs) {
    double[] m = new double[xs.getFirst().length];
    for (double[] x : xs) {
      for (int i = 0; i < m.length; i++) {
        m[i] += x[i] / xs.size();
      }
    }
    return m;
  }

  /** The result as a Markdown table, one row per environment and candidate. */
  public static String markdown(Result r) {
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "Logging policy: memrl with epsilon-greedy exploration, epsilon = %.2f; %s size, %d epochs, "
        + "seeds %s; success rates, means over seeds.%n%n", r.epsilon(), r.size(), r.epochs(), r.seeds()));
    s.append("| environment | candidate | agrees | support | departs | E[matches] | flagged | counterfactual | IPS | SNIPS "
        + "| DR (± half 95 % CI) | truth in DR CI | online |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row w : r.rows()) {
      s.append(String.format(Locale.ROOT, "| %s | %s | %.0f %% | %.0f %% | %.0f %% | %.1f | %d/%d | %.3f | %.3f | %.3f | %.3f ± %.3f "
              + "| %d/%d | %.3f |%n",
          w.environment(), w.candidate(), 100 * w.agreeing(), 100 * w.support(), 100 * w.departures(), w.expectedMatches(),
          w.flagged(), w.seeds(), w.counterfactual(), w.ips(), w.snips(), w.dr(), w.drHalfWidth(), w.covered(), w.seeds(),
          w.online()));
    }
    Map<String, double[]> perEnv = new LinkedHashMap<>();
    for (Row w : r.rows()) {
      double[] a = perEnv.computeIfAbsent(w.environment(), k -> new double[8]);
      boolean trusted = w.flagged() == 0;
      a[0] += w.ipsError();
      a[1] += w.snipsError();
      a[2] += w.drError();
      a[3] += Math.abs(w.dr() - w.online());
      a[4]++;
      a[5] += trusted ? w.snipsError() : 0;
      a[6] += trusted ? w.drError() : 0;
      a[7] += trusted ? 1 : 0;
    }
    s.append("\nMean absolute error against the counterfactual truth: over all candidates, and over the candidates that "
        + "evaluate printed no warning for on any seed; last column, DR against the candidates' online success:\n\n");
    s.append("| environment | IPS | SNIPS | DR | unflagged: SNIPS | unflagged: DR (n) | DR vs online |\n|---|---|---|---|---|---|---|\n");
    perEnv.forEach((env, a) -> s.append(String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %s | %s | %.3f |%n", env,
        a[0] / a[4], a[1] / a[4], a[2] / a[4], a[7] == 0 ? "—" : String.format(Locale.ROOT, "%.3f", a[5] / a[7]),
        a[7] == 0 ? "— (0)" : String.format(Locale.ROOT, "%.3f (%d)", a[6] / a[7], (int) a[7]), a[3] / a[4])));
    s.append("\n").append(KnownTruthWorld.markdown(r.knownTruth()));
    s.append(String.format(Locale.ROOT, "%n%.0f s.%n", r.seconds()));
    return s.toString();
  }
}
