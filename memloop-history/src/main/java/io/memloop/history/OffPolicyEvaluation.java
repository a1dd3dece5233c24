package io.memloop.history;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.OfflineLearning;
import io.memloop.OfflineSelection;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.policy.Explore;
import io.memloop.policy.TaskNote;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Off-policy evaluation from an event log: how a candidate configuration would have done on the logged
 * retrievals, from the rewards the logging policy got. A logged decision is a retrieval (its candidate pool
 * with the similarities and utilities of that moment, the slate it selected and that slate's probability)
 * with the reward it received. The candidate configuration's greedy selection on the same pool is computed
 * with the engine's own Phase B ({@link OfflineSelection}).
 *
 * <ul>
 *   <li><b>IPS</b>: mean of {@code 1[candidate slate = logged slate] · r / P(logged slate)};
 *   <li><b>DR</b> (doubly robust): a reward model's prediction for the candidate's slate plus the IPS
 *       correction of its error on the logged one; the model predicts a slate's reward as the mean, over its
 *       memories, of the mean logged reward of the episodes that showed each (the overall mean when none was
 *       ever shown; the mean of empty retrievals for an empty slate);
 *   <li><b>SNIPS</b> (self-normalised IPS) of success: {@code Σ w·s / Σ w}, within [0, 1], slightly biased, much
 *       less variable than IPS when the weights are large;
 *   <li><b>DM</b>: the reward model alone (biased when the model is wrong; for comparison);
 *   <li>95 % normal intervals from the per-decision terms; effective sample size {@code (Σw)² / Σw²}; a
 *       warning when the candidate rarely agrees with what was logged (the logging policy did not explore what
 *       it would choose: the estimate rests on few decisions), and one when the candidate chooses, in some
 *       decisions, a slate the logging policy could never have chosen (no <b>support</b>: another number of
 *       memories, or one outside what it considered): IPS is biased low there and DR falls back to its model;
 *       and one when the candidate departs from the logging policy's own (greedy) choice in decisions where the
 *       log can hold only few matching explorations ({@code Σ P(candidate's slate)} over those decisions below
 *       {@value #MIN_EXPECTED_MATCHES}): each match then carries a huge weight and the estimate is dominated by
 *       how many happened to occur.
 * </ul>
 *
 * <p>The logged slate's probability comes from the logged per-candidate probabilities and the namespace's
 * logged configuration: 1 for a greedy slate; for ε-greedy {@code (1−ε)·1[slate = greedy] + ε / C(m, k)}
 * (m eligible candidates, k selected); for per-task exploration's single draw, the drawn side's
 * probability. Success is a reward above the middle of the namespace's reward range.
 */
public final class OffPolicyEvaluation {
  /** One estimate with its 95 % interval. */
  public record Estimate(double value, double low, double high) {}

  /**
   * What a policy shows per decision: memories, and the characters of their experiences (what it adds to the
   * agent's prompt) over the decisions whose every shown experience has its text in the log ({@code NaN} when
   * none has).
   */
  public record Slates(double meanShown, double meanPromptChars, int decisionsWithTexts) {}

  /**
   * A candidate configuration's estimates over {@code decisions} logged decisions; {@code replayed} says what state
   * learned along the way was replayed along the log to make its choices (empty when its choices depend on none).
   */
  public record Report(String candidate, int decisions, int agreeing, int supported, int departures,
      double expectedMatches, double effectiveSampleSize,
      Estimate ipsReward, Estimate drReward, double dmReward, Estimate ipsSuccess, Estimate drSuccess,
      Estimate snipsSuccess, Estimate drSuccessGain, Slates slates, double evaluationSeconds, List<String> warnings,
      String replayed) {}

  /** The logged policy's own value (on-policy mean), and a report per candidate. */
  public record Result(int decisions, double loggedReward, Estimate loggedSuccess, Slates logged, String firstAt,
      String lastAt, List<String> namespaces, List<Report> reports,
      List<EventLogImport.Skipped> skipped) {}

  /**
   * A logged retrieval with its reward.
   *
   * @param task the task's identity as per-task learning keys it (intent text, else the logged embedding); null
   *     when the log holds neither
   * @param shown the logged slate in the order shown
   * @param noteDepth {@link io.memloop.policy.TaskNote#NEWEST} when a long failure note was shown shortened, else WHOLE
   * @param used the memories the reward named as used; null when it did not say
   */
  record Decision(String ns, String at, @Nullable String task, List<Candidate> pool, Set<String> logged, List<String> shown,
      int noteDepth, @Nullable List<String> used, double propensity, double reward, double success, MemLoopConfig config) {}

  /** Below this many decisions where the logging policy chose what a candidate would, its estimates are flagged. */
  static final int MIN_AGREEING = 10;

  /** Below this many expected exploratory matches of a candidate's departures, its estimates are flagged. */
  static final int MIN_EXPECTED_MATCHES = 30;

  private OffPolicyEvaluation() {}

  /**
   * Evaluates {@code candidates} (name → configuration) on the log at {@code input}.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} when it holds no rewarded retrieval
   */
  public static Result run(Path input, Map<String, MemLoopConfig> candidates, MemLoopConfig fallback) {
    return run(input, candidates, fallback, ns -> true);
  }

  /**
   * {@link #run(Path, Map, MemLoopConfig)} on the events of the namespaces {@code namespaceFilter} accepts only.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} when they hold no rewarded retrieval
   */
  public static Result run(Path input, Map<String, MemLoopConfig> candidates, MemLoopConfig fallback,
      java.util.function.Predicate<String> namespaceFilter) {
    Map<String, MemLoopConfig> configs = new HashMap<>();
    Map<String, Integer> embedderBlocks = new HashMap<>(); // ns -> models its vectors concatenate, when more than one
    Map<String, JsonNode> retrievals = new HashMap<>(); // ns/retrievalId -> event, until rewarded
    Map<String, MemLoopConfig> retrievalConfig = new HashMap<>();
    Map<String, Integer> experienceChars = new HashMap<>(); // ns/memoryId -> length of its experience text
    Map<String, Map<String, OfflineLearning.Known>> known = new HashMap<>(); // ns -> memoryId -> outcome and text
    List<Decision> decisions = new ArrayList<>();
    List<EventLogImport.Skipped> skipped = new ArrayList<>();
    EventLogFiles.read(input, skipped, (file, line, e) -> {
      String ns = e.get("ns").asText();
      if (!namespaceFilter.test(ns)) {
        return null;
      }
      switch (e.get("type").asText()) {
        case "config" -> {
          JsonNode b = e.path("embedderBlocks"); // checked first: a skipped line configures nothing
          if (!b.isMissingNode() && (!b.isIntegralNumber() || !b.canConvertToInt() || b.asInt() < 1
              || b.asInt() > io.memloop.policy.Blocks.MAX)) {
            return "embedderBlocks: must be an integer in [1, " + io.memloop.policy.Blocks.MAX + "]";
          }
          String problem = EventLogFiles.recordConfig(configs, ns, e);
          if (problem != null) {
            return problem;
          }
          if (!b.isMissingNode()) {
            embedderBlocks.merge(ns, b.asInt(), Math::max);
          }
        }
        case "retrieval" -> {
          if (!e.path("retrievalId").isTextual() || !e.path("candidates").isArray()) {
            return "retrievalId or candidates: missing";
          }
          for (JsonNode c : e.get("candidates")) {
            if (!c.path("id").isTextual() || !c.path("similarity").isNumber() || !c.path("q").isNumber()
                || !c.path("score").isNumber() || !c.path("selected").isBoolean() || !c.path("probability").isNumber()) {
              return "candidates[]: each needs id, similarity, q, score, selected and probability";
            }
          }
          String key = ns + "/" + e.get("retrievalId").asText();
          retrievals.put(key, e);
          retrievalConfig.put(key, configs.getOrDefault(ns, fallback));
        }
        case "reward" -> {
          if (!e.path("retrievalId").isTextual() || !e.path("reward").isNumber()) {
            return "retrievalId or reward: missing or mistyped";
          }
          String key = ns + "/" + e.get("retrievalId").asText();
          JsonNode r = retrievals.remove(key);
          if (r != null) {
            MemLoopConfig c = retrievalConfig.remove(key);
            decisions.add(decision(ns, r, c, e, known.getOrDefault(ns, Map.of())));
          }
        }
        case "remember" -> {
          if (e.path("memoryId").isTextual() && e.path("experience").isTextual()) {
            experienceChars.putIfAbsent(ns + "/" + e.get("memoryId").asText(), e.get("experience").asText().length());
            known.computeIfAbsent(ns, k -> new HashMap<>()).putIfAbsent(e.get("memoryId").asText(),
                new OfflineLearning.Known(outcome(e.path("outcome").asText()), e.get("experience").asText()));
          }
        }
        default -> { }
      }
      return null;
    });
    if (decisions.isEmpty()) {
      throw MemLoopException.invalid("--input", input + " holds no retrieval with its reward: nothing to evaluate");
    }
    RewardModel model = new RewardModel(decisions);
    double loggedReward = decisions.stream().mapToDouble(Decision::reward).average().orElse(0);
    Estimate loggedSuccess = interval(decisions.stream().mapToDouble(Decision::success).toArray(), 0, 1);
    List<Report> reports = new ArrayList<>();
    candidates.forEach((name, config) -> reports.add(evaluate(name, config, decisions, model, experienceChars, known,
        embedderBlocks)));
    Slates logged = slates(decisions, decisions.stream().map(Decision::logged).toList(), experienceChars);
    List<String> at = decisions.stream().map(Decision::at).sorted().toList();
    List<String> namespaces = decisions.stream().map(Decision::ns).distinct().sorted().toList();
    return new Result(decisions.size(), loggedReward, loggedSuccess, logged, at.getFirst(), at.getLast(), namespaces, reports,
        List.copyOf(skipped));
  }

  private static Outcome outcome(String text) {
    return switch (text) {
      case "success" -> Outcome.SUCCESS;
      case "failure" -> Outcome.FAILURE;
      default -> Outcome.UNKNOWN;
    };
  }

  private static Decision decision(String ns, JsonNode r, MemLoopConfig config, JsonNode rewardEvent,
      Map<String, OfflineLearning.Known> known) {
    double reward = rewardEvent.get("reward").asDouble();
    List<Candidate> pool = new ArrayList<>();
    Set<String> logged = new HashSet<>();
    for (JsonNode c : r.get("candidates")) {
      Candidate cand = new Candidate(c.get("id").asText(), c.get("similarity").asDouble(), c.get("q").asDouble(),
          c.get("score").asDouble(), c.get("selected").asBoolean(), c.get("probability").asDouble());
      pool.add(cand);
      if (cand.selected()) {
        logged.add(cand.memoryId());
      }
    }
    List<String> shown = new ArrayList<>();
    if (r.path("selected").isArray()) {
      r.get("selected").forEach(id -> shown.add(id.asText()));
    }
    if (!new HashSet<>(shown).equals(logged)) { // an older log without the order: the pool's order
      shown.clear();
      pool.stream().filter(Candidate::selected).forEach(c -> shown.add(c.memoryId()));
    }
    int depth = TaskNote.WHOLE;
    JsonNode parts = r.path("parts");
    for (String id : shown) {
      OfflineLearning.Known k = known.get(id);
      if (parts.path(id).isInt() && k != null && parts.get(id).asInt() < Memory.parts(k.experience()).size()) {
        depth = TaskNote.NEWEST;
      }
    }
    String task = r.path("intent").isTextual() ? r.get("intent").asText()
        : r.path("embedding").isArray() ? "embedding:" + r.get("embedding") : null;
    List<String> used = null;
    if (rewardEvent.path("usedMemoryIds").isArray()) {
      used = new ArrayList<>();
      for (JsonNode id : rewardEvent.get("usedMemoryIds")) {
        used.add(id.asText());
      }
    }
    double mid = (config.rewardMin() + config.rewardMax()) / 2;
    return new Decision(ns, r.get("at").asText(), task, pool, logged, List.copyOf(shown), depth, used,
        propensity(pool, config), reward, reward > mid ? 1 : 0, config);
  }

  /** The probability that the logging policy selected exactly the logged slate. */
  static double propensity(List<Candidate> pool, MemLoopConfig config) {
    Set<String> logged = new HashSet<>();
    for (Candidate c : pool) {
      if (c.selected()) {
        logged.add(c.memoryId());
      }
    }
    return probability(logged, pool, config);
  }

  /**
   * The probability that the logging policy (the logged pool and configuration) would have selected exactly
   * {@code slate}: 0 when it could not have (another size than its draws, a memory it never considered), which
   * is where inverse propensity scoring cannot see a candidate's choice.
   */
  static double probability(Set<String> slate, List<Candidate> pool, MemLoopConfig config) {
    double eps = Explore.epsilon(config);
    int k = 0;
    int m = 0;
    for (Candidate c : pool) {
      k += c.selected() ? 1 : 0;
      m += c.probability() > 0 || c.selected() ? 1 : 0;
    }
    if (eps > 0 && m > 0) {
      double uniform = eps * k / m;
      boolean greedySlate = true;
      boolean drawable = slate.size() == k;
      int found = 0;
      for (Candidate c : pool) {
        boolean inGreedy = c.probability() - uniform > (1 - eps) / 2; // greedy members have (1−ε)·1 + ε·k/m
        boolean in = slate.contains(c.memoryId());
        found += in ? 1 : 0;
        greedySlate &= inGreedy == in;
        drawable &= !in || c.probability() > 0 || c.selected();
      }
      greedySlate &= found == slate.size(); // every member is in the pool
      drawable &= found == slate.size();
      return (1 - eps) * (greedySlate ? 1 : 0) + (drawable ? eps / binomial(m, k) : 0);
    }
    double p = 1;
    int found = 0;
    for (Candidate c : pool) { // deterministic, or per-task exploration's one draw: the drawn side's probability
      boolean in = slate.contains(c.memoryId());
      found += in ? 1 : 0;
      p = Math.min(p, in ? c.probability() : 1 - c.probability());
    }
    return found == slate.size() ? p : 0;
  }

  private static double binomial(int n, int k) {
    double b = 1;
    for (int i = 1; i <= k; i++) {
      b = b * (n - k + i) / i;
    }
    return b;
  }

  private static Report evaluate(String name, MemLoopConfig config, List<Decision> decisions, RewardModel model,
      Map<String, Integer> experienceChars, Map<String, Map<String, OfflineLearning.Known>> known,
      Map<String, Integer> embedderBlocks) {
    long started = System.nanoTime();
    int n = decisions.size();
    CandidatePolicy policy = new CandidatePolicy(config);
    List<Set<String>> slates = new ArrayList<>(n);
    double[] gain = new double[n];
    double[] ips = new double[n];
    double[] dr = new double[n];
    double[] ipsS = new double[n];
    double[] drS = new double[n];
    double dm = 0;
    double sumW = 0;
    double sumW2 = 0;
    int agreeing = 0;
    int supported = 0;
    int departures = 0;
    double expectedMatches = 0;
    double[] w = new double[n];
    List<String> warnings = new ArrayList<>(policy.unseeable(name, decisions, known, embedderBlocks));
    boolean replay = policy.replaysLearning() && warnings.isEmpty();
    int zeroPropensity = 0;
    int beyondLog = 0; // decisions where the candidate would have recalled memories the log does not hold
    for (int i = 0; i < n; i++) {
      Decision d = decisions.get(i);
      // the candidate's slates here: one, or (replaying per-task learning) one per outcome of its own draws
      List<OfflineLearning.Choice> choices = policy.choose(d, known, replay);
      beyondLog += policy.recallComplete() ? 0 : 1;
      double eps = Explore.epsilon(d.config());
      double pLogged = 0; // the candidate's probability of the logged action
      double predMine = 0;
      double succMine = 0;
      boolean allSupported = true;
      boolean departs = false;
      Set<String> likeliest = Set.of();
      double best = -1;
      for (OfflineLearning.Choice c : choices) {
        Set<String> mine = new HashSet<>(c.slate());
        double pMu = probability(mine, d.pool(), d.config());
        allSupported &= pMu > 0 || c.probability() == 0;
        if (c.probability() > 0 && (pMu < 1 - eps || pMu == 0)) { // not the logging policy's own greedy choice
          departs = true;
          expectedMatches += c.probability() * pMu;
        }
        pLogged += CandidatePolicy.isLogged(c, d) ? c.probability() : 0;
        predMine += c.probability() * model.reward(d.ns(), mine);
        succMine += c.probability() * model.success(d.ns(), mine);
        if (c.probability() > best) {
          best = c.probability();
          likeliest = mine;
        }
      }
      if (replay) {
        policy.learn(d, known); // after choosing: the candidate has seen only the log's earlier rewards
      }
      slates.add(likeliest);
      supported += allSupported ? 1 : 0;
      departures += departs ? 1 : 0;
      double weight = 0;
      if (pLogged > 0) {
        if (d.propensity() <= 0) {
          zeroPropensity++;
        } else {
          weight = pLogged / d.propensity();
          agreeing++;
        }
      }
      sumW += weight;
      sumW2 += weight * weight;
      w[i] = weight;
      double predLogged = model.reward(d.ns(), d.logged());
      double succLogged = model.success(d.ns(), d.logged());
      ips[i] = weight * d.reward();
      dr[i] = predMine + weight * (d.reward() - predLogged);
      ipsS[i] = weight * d.success();
      drS[i] = succMine + weight * (d.success() - succLogged);
      gain[i] = drS[i] - d.success();
      dm += predMine;
    }
    double ess = sumW2 == 0 ? 0 : sumW * sumW / sumW2;
    if (agreeing < Math.max(MIN_AGREEING, n / 20)) {
      warnings.add(agreeing == n
          ? "the log holds only " + n + " decisions: too few to estimate from (" + MIN_AGREEING + " at least); log for longer"
          : "the logging policy chose what '" + name + "' would choose in only " + agreeing + " of " + n
              + " decisions: the estimates rest on few decisions; log with exploration (epsilon > 0) to evaluate it");
    }
    if (departures > 0 && expectedMatches < MIN_EXPECTED_MATCHES) {
      warnings.add(String.format(java.util.Locale.ROOT, "'%s' departs from the logging policy's own choice in %d of %d "
          + "decisions (%.0f %%), where the log holds only %.1f matching explorations in expectation (fewer than %d): "
          + "IPS and SNIPS weigh a few rare matches heavily (usually too low), DR rests on its reward model there; "
          + "log with more exploration or for longer", name, departures, n, 100.0 * departures / n, expectedMatches,
          MIN_EXPECTED_MATCHES));
    }
    if (supported < n) {
      warnings.add(String.format(java.util.Locale.ROOT, "in %d of %d decisions (%.0f %%) the logging policy could not have "
          + "chosen what '%s' would (another number of memories, or one it never considered): IPS counts them as failures "
          + "and DR relies on its reward model there; the estimates are not trustworthy for this candidate",
          n - supported, n, 100.0 * (n - supported) / n, name));
    }
    if (beyondLog > 0) {
      warnings.add(String.format(java.util.Locale.ROOT, "in %d of %d decisions (%.0f %%) '%s' would have recalled memories "
          + "the log does not hold (it recalls more intents (k1, firstEncounterK1) or has a lower similarity gate than "
          + "the logging policy): it chose from the logged ones only, and its estimates are not trustworthy there",
          beyondLog, n, 100.0 * beyondLog / n, name));
    }
    if (zeroPropensity > 0) {
      warnings.add(zeroPropensity + " logged slates had probability 0 under the logged configuration (a log written "
          + "under another configuration than the one recorded?)");
    }
    double rMin = decisions.stream().mapToDouble(d -> d.config().rewardMin()).min().orElse(0);
    double rMax = decisions.stream().mapToDouble(d -> d.config().rewardMax()).max().orElse(1);
    String replayed = replay ? "its per-task ledger, replayed along the log: at each decision it chooses with what it "
        + "would have learned from the log's earlier rewards (of the logged slates, not of its own choices)" : "";
    return new Report(name, n, agreeing, supported, departures, expectedMatches, ess, interval(ips, rMin, rMax),
        interval(dr, rMin, rMax), dm / n, interval(ipsS, 0, 1), interval(drS, 0, 1),
        selfNormalized(w, decisions), interval(gain, -1, 1), slates(decisions, slates, experienceChars),
        (System.nanoTime() - started) / 1e9, List.copyOf(warnings), replayed);
  }

  private static Slates slates(List<Decision> decisions, List<Set<String>> slates, Map<String, Integer> experienceChars) {
    double shown = 0;
    double chars = 0;
    int withTexts = 0;
    for (int i = 0; i < decisions.size(); i++) {
      Set<String> slate = slates.get(i);
      shown += slate.size();
      long sum = 0;
      boolean all = true;
      for (String id : slate) {
        Integer c = experienceChars.get(decisions.get(i).ns() + "/" + id);
        all &= c != null;
        sum += c == null ? 0 : c;
      }
      if (all) {
        chars += sum;
        withTexts++;
      }
    }
    return new Slates(shown / decisions.size(), withTexts == 0 ? Double.NaN : chars / withTexts, withTexts);
  }

  /**
   * Self-normalised IPS of success, Σ w·s / Σ w, with a delta-method 95 % interval: within [0, 1] by
   * construction, a little biased, far less variable than IPS when weights are large.
   */
  private static Estimate selfNormalized(double[] w, List<Decision> decisions) {
    int n = w.length;
    double sumW = 0;
    double sumWs = 0;
    for (int i = 0; i < n; i++) {
      sumW += w[i];
      sumWs += w[i] * decisions.get(i).success();
    }
    if (sumW == 0) {
      return new Estimate(Double.NaN, Double.NaN, Double.NaN);
    }
    double v = sumWs / sumW;
    double meanW = sumW / n;
    double var = 0;
    for (int i = 0; i < n; i++) {
      double e = w[i] * (decisions.get(i).success() - v);
      var += e * e;
    }
    double se = Math.sqrt(var / n) / meanW / Math.sqrt(n);
    return new Estimate(v, Math.max(0, v - 1.96 * se), Math.min(1, v + 1.96 * se));
  }

  /**
   * The mean of {@code x} with a 95 % normal interval, each clipped to [{@code min}, {@code max}], the range the
   * estimated quantity lies in: a per-decision IPS term can exceed it (a weight of 30 times a reward of 1), the
   * quantity cannot.
   */
  private static Estimate interval(double[] x, double min, double max) {
    int n = x.length;
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= n;
    double var = 0;
    for (double v : x) {
      var += (v - mean) * (v - mean);
    }
    double se = n > 1 ? Math.sqrt(var / (n - 1) / n) : Double.NaN;
    return new Estimate(clip(mean, min, max), clip(mean - 1.96 * se, min, max), clip(mean + 1.96 * se, min, max));
  }

  private static double clip(double v, double min, double max) {
    return Double.isFinite(v) ? Math.max(min, Math.min(max, v)) : v;
  }

  /** Per-memory mean logged reward (and success) when shown; a slate's prediction is the mean over its memories. */
  private static final class RewardModel {
    private final Map<String, double[]> byMemory = new HashMap<>(); // ns/id -> [sum r, sum success, n]
    private final Map<String, double[]> empty = new HashMap<>(); // ns -> same, for empty slates
    private final Map<String, double[]> all = new HashMap<>();

    RewardModel(List<Decision> decisions) {
      for (Decision d : decisions) {
        add(all, d.ns(), d);
        if (d.logged().isEmpty()) {
          add(empty, d.ns(), d);
        }
        for (String id : d.logged()) {
          add(byMemory, d.ns() + "/" + id, d);
        }
      }
    }

    private static void add(Map<String, double[]> m, String key, Decision d) {
      double[] a = m.computeIfAbsent(key, k -> new double[3]);
      a[0] += d.reward();
      a[1] += d.success();
      a[2]++;
    }

    double reward(String ns, Set<String> slate) {
      return predict(ns, slate, 0);
    }

    double success(String ns, Set<String> slate) {
      return predict(ns, slate, 1);
    }

    private double predict(String ns, Set<String> slate, int what) {
      double[] overall = all.get(ns);
      double base = overall[what] / overall[2];
      if (slate.isEmpty()) {
        double[] e = empty.get(ns);
        return e == null ? base : e[what] / e[2];
      }
      double sum = 0;
      for (String id : slate) {
        double[] a = byMemory.get(ns + "/" + id);
        sum += a == null ? base : a[what] / a[2];
      }
      return sum / slate.size();
    }
  }
}
