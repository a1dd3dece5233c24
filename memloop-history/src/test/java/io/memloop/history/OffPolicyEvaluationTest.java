package io.memloop.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.Candidate;
import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.OfflineSelection;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Off-policy estimates against a synthetic world whose truth is known: 50 memories with hidden usefulness,
 * pools of 6, slates of 3, success with probability = the best usefulness shown. The log is written by an
 * ε-greedy similarity policy; the candidates' true values are computed exactly from the hidden usefulness.
 */
class OffPolicyEvaluationTest {
  private static final int MEMORIES = 50;
  private static final int DECISIONS = 6000;
  @TempDir Path dir;

  private static MemLoopConfig logging(double epsilon) {
    // the world's pools are six intents: the logging policy recalls six
    MemLoopConfig.Builder b = MemLoopConfig.preset(Preset.MEMRL).toBuilder().set("lambda", "0").set("k2", "3").set("k1", "6");
    return epsilon > 0 ? b.set("exploration", "EPSILON_GREEDY").set("epsilon", Double.toString(epsilon)).build()
        : b.set("exploration", "NONE").set("epsilon", "0").build();
  }

  private static final MemLoopConfig BY_UTILITY = MemLoopConfig.preset(Preset.MEMRL).toBuilder().set("lambda", "1").set("k2", "3").set("k1", "6")
      .set("exploration", "NONE").set("epsilon", "0").build();

  /** Writes the log; returns the true success rate of each candidate (by name) on the logged contexts. */
  private Map<String, Double> world(double epsilon, long seed, Map<String, MemLoopConfig> candidates) {
    SplittableRandom random = new SplittableRandom(seed);
    double[] usefulness = new double[MEMORIES];
    for (int j = 0; j < MEMORIES; j++) {
      usefulness[j] = random.nextDouble();
    }
    MemLoopConfig config = logging(epsilon);
    Map<String, Double> truth = new LinkedHashMap<>();
    candidates.keySet().forEach(k -> truth.put(k, 0.0));
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    try (JsonlEventLog log = new JsonlEventLog(dir)) {
      log.configured("w", t, config);
      for (int d = 0; d < DECISIONS; d++) {
        List<Integer> ids = new ArrayList<>();
        while (ids.size() < 6) {
          int j = 1 + random.nextInt(MEMORIES);
          if (!ids.contains(j)) {
            ids.add(j);
          }
        }
        List<Candidate> pool = new ArrayList<>();
        for (int j : ids) {
          double sim = 0.5 + 0.5 * random.nextDouble(); // similarity says nothing about usefulness here
          double q = 2 * usefulness[j - 1] - 1 + 0.3 * random.nextGaussian();
          pool.add(new Candidate("m" + j, sim, q, 0, false, 0));
        }
        List<String> greedy = OfflineSelection.select(pool, config);
        Set<String> slate = new HashSet<>(greedy);
        if (epsilon > 0 && random.nextDouble() < epsilon) {
          List<String> all = new ArrayList<>(pool.stream().map(Candidate::memoryId).toList());
          slate.clear();
          while (slate.size() < 3) {
            slate.add(all.get(random.nextInt(all.size())));
          }
        }
        List<Candidate> logged = new ArrayList<>();
        List<Memory> shown = new ArrayList<>();
        for (Candidate c : pool) {
          double p = (1 - epsilon) * (greedy.contains(c.memoryId()) ? 1 : 0) + epsilon * 3.0 / 6;
          logged.add(new Candidate(c.memoryId(), c.similarity(), c.q(), 0, slate.contains(c.memoryId()), p));
          if (slate.contains(c.memoryId())) {
            shown.add(new Memory(c.memoryId(), "w", "i", "", new float[] {1}, "-", Outcome.SUCCESS, c.q(), 0, t, t));
          }
        }
        double pSuccess = best(slate, usefulness);
        boolean success = random.nextDouble() < pSuccess;
        String id = "r" + d;
        log.retrieved("w", t, Intent.ofText("task"), new float[] {1}, new Retrieval(id, "w", logged, shown));
        log.rewarded("w", t, new RewardResult(id, success ? 1 : -1, List.of()), null);
        for (var e : candidates.entrySet()) {
          truth.merge(e.getKey(), best(new HashSet<>(OfflineSelection.select(pool, e.getValue())), usefulness) / DECISIONS, Double::sum);
        }
      }
    }
    return truth;
  }

  private static double best(Set<String> slate, double[] usefulness) {
    double b = 0;
    for (String id : slate) {
      b = Math.max(b, usefulness[Integer.parseInt(id.substring(1)) - 1]);
    }
    return b;
  }

  @Test
  void ipsAndDrRecoverTheTrueSuccessOfPoliciesTheLoggerExplored() {
    Map<String, MemLoopConfig> candidates = new LinkedHashMap<>();
    candidates.put("by-utility", BY_UTILITY);
    candidates.put("logging-greedy", logging(0));
    Map<String, Double> truth = world(0.3, 11, candidates);
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(dir, candidates, logging(0.3));
    assertThat(r.decisions()).isEqualTo(DECISIONS);
    assertThat(r.skipped()).isEmpty();
    assertThat(truth.get("by-utility")).isGreaterThan(truth.get("logging-greedy") + 0.05); // a real difference to find
    for (OffPolicyEvaluation.Report rep : r.reports()) {
      double t = truth.get(rep.candidate());
      double ipsHalf = (rep.ipsSuccess().high() - rep.ipsSuccess().low()) / 2;
      double drHalf = (rep.drSuccess().high() - rep.drSuccess().low()) / 2;
      assertThat(Math.abs(rep.ipsSuccess().value() - t)).as("%s IPS %s vs truth %s", rep.candidate(), rep.ipsSuccess(), t)
          .isLessThan(1.5 * ipsHalf);
      assertThat(Math.abs(rep.drSuccess().value() - t)).as("%s DR %s vs truth %s", rep.candidate(), rep.drSuccess(), t)
          .isLessThan(1.5 * drHalf);
      assertThat(drHalf).as("DR is no wider than IPS").isLessThanOrEqualTo(ipsHalf * 1.05);
      assertThat(rep.effectiveSampleSize()).isPositive();
      assertThat(rep.warnings()).isEmpty();
    }
    assertThat(r.loggedSuccess().value()).isBetween(0.0, 1.0);
  }

  @Test
  void aLogThatNeverExploredWarnsInsteadOfPretending() {
    Map<String, MemLoopConfig> candidates = Map.of("by-utility", BY_UTILITY);
    world(0, 12, candidates);
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(dir, candidates, logging(0));
    OffPolicyEvaluation.Report rep = r.reports().getFirst();
    assertThat(rep.agreeing()).isLessThan(DECISIONS / 5);
    assertThat(rep.warnings()).anySatisfy(w -> assertThat(w).contains("exploration"));
  }

  @Test
  void aLogWithoutRewardedRetrievalsIsRefused() {
    new JsonlEventLog(dir).close();
    assertThatThrownBy(() -> OffPolicyEvaluation.run(dir, Map.of("x", BY_UTILITY), logging(0)))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("--input");
  }

  @Test
  void slateProbabilityUnderEpsilonGreedyIsExactAndZeroWhereTheLogCannotReach() {
    MemLoopConfig log = logging(0.2);
    // 5 eligible candidates, the greedy 3 are a, b, c; one more candidate below q_min (probability 0)
    double greedyP = 0.8 + 0.2 * 3 / 5.0;
    double otherP = 0.2 * 3 / 5.0;
    List<Candidate> pool = List.of(
        new Candidate("a", 0.9, 0, 0.9, true, greedyP), new Candidate("b", 0.8, 0, 0.8, true, greedyP),
        new Candidate("c", 0.7, 0, 0.7, true, greedyP), new Candidate("d", 0.6, 0, 0.6, false, otherP),
        new Candidate("e", 0.5, 0, 0.5, false, otherP), new Candidate("f", 0.4, -20, 0.4, false, 0));
    assertThat(OffPolicyEvaluation.probability(Set.of("a", "b", "c"), pool, log)).isCloseTo(0.8 + 0.2 / 10, within(1e-12));
    assertThat(OffPolicyEvaluation.probability(Set.of("a", "d", "e"), pool, log)).isCloseTo(0.2 / 10, within(1e-12));
    assertThat(OffPolicyEvaluation.probability(Set.of("a", "b"), pool, log)).as("another size").isZero();
    assertThat(OffPolicyEvaluation.probability(Set.of("a", "b", "f"), pool, log)).as("below q_min").isZero();
    assertThat(OffPolicyEvaluation.probability(Set.of("a", "b", "zz"), pool, log)).as("not in the pool").isZero();
    assertThat(OffPolicyEvaluation.propensity(pool, log)).isCloseTo(0.8 + 0.2 / 10, within(1e-12));
  }

  @Test
  void aCandidateThatDepartsWhereTheLogRarelyExploresIsFlagged() {
    Map<String, MemLoopConfig> c = new LinkedHashMap<>();
    c.put("same", logging(0));
    c.put("k2=1", logging(0).toBuilder().set("k2", "1").build());
    world(0.2, 3, c);
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(dir, c, logging(0.2));
    OffPolicyEvaluation.Report same = r.reports().get(0);
    OffPolicyEvaluation.Report k1 = r.reports().get(1);
    assertThat(same.departures()).isZero();
    assertThat(same.supported()).isEqualTo(same.decisions());
    assertThat(same.warnings()).isEmpty();
    assertThat(k1.supported()).isZero(); // one memory where the log always shows three
    assertThat(k1.departures()).isEqualTo(k1.decisions());
    assertThat(k1.warnings()).anyMatch(w -> w.contains("could not have chosen")).anyMatch(w -> w.contains("departs"));
  }

  @Test
  void aCandidateThatRecallsMoreThanTheLogHolds_isFlagged_andOneThatRecallsLess_choosesFromItsOwnRecall() {
    Map<String, MemLoopConfig> c = new LinkedHashMap<>();
    c.put("wider", BY_UTILITY.toBuilder().set("k1", "8").build());
    c.put("narrower", BY_UTILITY.toBuilder().set("k1", "3").build());
    c.put("same", BY_UTILITY);
    world(0.2, 5, c);
    Map<String, OffPolicyEvaluation.Report> r = new LinkedHashMap<>();
    OffPolicyEvaluation.run(dir, c, logging(0.2)).reports().forEach(x -> r.put(x.candidate(), x));
    assertThat(r.get("wider").warnings()).anyMatch(w -> w.startsWith("in 6000 of 6000 decisions (100 %) 'wider' would have "
        + "recalled memories the log does not hold"));
    assertThat(r.get("same").warnings()).noneMatch(w -> w.contains("does not hold"));
    assertThat(r.get("narrower").warnings()).noneMatch(w -> w.contains("does not hold"));
    // by utility among its three most similar intents: not the same choices as among all six
    assertThat(r.get("narrower").agreeing()).isNotEqualTo(r.get("same").agreeing());
  }

  @Test
  void aCandidateThatReadsItsNeighboursEvidence_isFlagged_forTheLogDoesNotCarryThePooledIntents() {
    Map<String, MemLoopConfig> c = new LinkedHashMap<>();
    c.put("neighbours", logging(0).toBuilder().set("taskLearning", "NEIGHBOURS").build());
    world(0.2, 3, c);
    OffPolicyEvaluation.Report r = OffPolicyEvaluation.run(dir, c, logging(0.2)).reports().get(0);
    assertThat(r.warnings()).anyMatch(w -> w.contains("taskLearning=NEIGHBOURS") && w.contains("cannot be replayed"));
  }

  @Test
  void aCandidateThatLearnsItsSimilarity_isFlagged_forTheLogCarriesNeitherQueriesNorVectors() {
    Map<String, MemLoopConfig> c = new LinkedHashMap<>();
    c.put("directions", MemLoopConfig.preset(Preset.DEFAULT).toBuilder().set("exploration", "NONE")
        .set("similarityDirections", "8").build());
    world(0.2, 3, c);
    OffPolicyEvaluation.Report r = OffPolicyEvaluation.run(dir, c, logging(0.2)).reports().get(0);
    assertThat(r.warnings()).anyMatch(w -> w.contains("similarityDirections=8") && w.contains("cannot be replayed"));
  }

  @Test
  void aCandidateThatWeighsSeveralModelsSimilaritiesByLearnedWeights_isFlagged_forTheLogHoldsTheirMeanOnly() {
    MemLoopConfig perTask = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().set("exploration", "NONE").build();
    Map<String, MemLoopConfig> c = new LinkedHashMap<>();
    c.put("learned", perTask); // similarityBlocks 0: as many blocks as the log's embedder has
    c.put("equal", perTask.toBuilder().set("similarityBlocks", "1").build());
    c.put("memrl", MemLoopConfig.preset(Preset.MEMRL)); // no per-task learning: no block weights
    c.put("split", perTask.toBuilder().set("similarityBlocks", "2").build());
    c.put("logged", logging(0));
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    for (int models : new int[] {2, 1}) {
      Path log = dir.resolve("models-" + models);
      try (JsonlEventLog events = new JsonlEventLog(log)) {
        events.configured("w", t, logging(0), models);
        for (int d = 0; d < 4; d++) {
          List<Candidate> pool = List.of(new Candidate("m1", 0.9, 0, 0, true, 1), new Candidate("m2", 0.5, 0, 0, true, 1));
          List<Memory> shown = List.of(new Memory("m1", "w", "i", "", new float[] {1}, "-", Outcome.SUCCESS, 0, 0, t, t),
              new Memory("m2", "w", "i", "", new float[] {1}, "-", Outcome.SUCCESS, 0, 0, t, t));
          events.retrieved("w", t, Intent.ofText("task " + d), new float[] {1}, new Retrieval("r" + d, "w", pool, shown));
          events.rewarded("w", t, new RewardResult("r" + d, 1, List.of()), null);
        }
      }
      Map<String, List<String>> warnings = new LinkedHashMap<>();
      OffPolicyEvaluation.run(log, c, logging(0)).reports().forEach(r -> warnings.put(r.candidate(), r.warnings()));
      String flag = "similarityBlocks) by weights it learns from rewards in 4 of 4 decisions";
      assertThat(warnings.get("learned")).as("%d models", models).filteredOn(w -> w.contains(flag)).hasSize(models > 1 ? 1 : 0);
      assertThat(warnings.get("split")).as("%d models", models).anyMatch(w -> w.startsWith("'split' weighs") && w.contains(flag));
      assertThat(warnings.get("equal")).noneMatch(w -> w.contains("similarityBlocks"));
      // the logging policy itself agrees everywhere: what it lacks is decisions, not exploration
      assertThat(warnings.get("logged"))
          .containsExactly("the log holds only 4 decisions: too few to estimate from (10 at least); log for longer");
      assertThat(warnings.get("memrl")).noneMatch(w -> w.contains("similarityBlocks"));
    }
  }

  @Test
  void aConfigEventWithABadModelCountIsSkipped_namingTheField() {
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    try (JsonlEventLog events = new JsonlEventLog(dir)) {
      events.configured("w", t, logging(0));
      List<Candidate> pool = List.of(new Candidate("m1", 0.9, 0, 0, true, 1));
      Memory shown = new Memory("m1", "w", "i", "", new float[] {1}, "-", Outcome.SUCCESS, 0, 0, t, t);
      events.retrieved("w", t, Intent.ofText("task"), new float[] {1}, new Retrieval("r0", "w", pool, List.of(shown)));
      events.rewarded("w", t, new RewardResult("r0", 1, List.of()), null);
    }
    try (var files = java.nio.file.Files.list(dir)) {
      Path written = files.filter(f -> f.toString().endsWith(".jsonl")).findFirst().orElseThrow();
      String config = java.nio.file.Files.readAllLines(written).getFirst(); // {..., "knobs": {...}}
      assertThat(config).contains("\"type\":\"config\"");
      java.nio.file.Files.writeString(dir.resolve("z-bad.jsonl"),
          config.substring(0, config.length() - 1) + ",\"embedderBlocks\":0}\n");
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(dir, Map.of("memrl", logging(0)), logging(0));
    assertThat(r.skipped()).anyMatch(s -> s.file().endsWith("z-bad.jsonl") && s.reason().equals("embedderBlocks: must be an integer in [1, 64]"));
  }

  @Test
  void intervalsStayWithinTheRangeOfWhatTheyEstimate() {
    // logged: the explored memory d (probability 0.9/4), rewarded 1 twice; the candidate always picks d: IPS terms of 4.4
    MemLoopConfig log = logging(0).toBuilder().set("k2", "1").set("exploration", "EPSILON_GREEDY").set("epsilon", "0.9").build();
    MemLoopConfig bySimilarity = logging(0).toBuilder().set("k2", "1").build();
    Instant t = Instant.parse("2026-11-01T00:00:00Z");
    try (JsonlEventLog events = new JsonlEventLog(dir)) {
      events.configured("w", t, log);
      for (int d = 0; d < 3; d++) {
        List<Candidate> pool = List.of(new Candidate("m1", 0.6, 1, 0, false, 0.1 + 0.225),
            new Candidate("m2", 0.5, 0, 0, false, 0.225), new Candidate("m3", 0.5, 0, 0, false, 0.225),
            new Candidate("m4", 0.9, 0, 0, true, 0.225));
        Memory shown = new Memory("m4", "w", "i", "", new float[] {1}, "-", Outcome.SUCCESS, 0, 0, t, t);
        events.retrieved("w", t, Intent.ofText("task"), new float[] {1}, new Retrieval("r" + d, "w", pool, List.of(shown)));
        events.rewarded("w", t, new RewardResult("r" + d, d < 2 ? 1 : 0.9, List.of()), null);
      }
    }
    OffPolicyEvaluation.Report rep = OffPolicyEvaluation.run(dir, Map.of("sim", bySimilarity), log).reports().getFirst();
    assertThat(rep.agreeing()).isEqualTo(3);
    for (OffPolicyEvaluation.Estimate e : List.of(rep.ipsSuccess(), rep.drSuccess(), rep.snipsSuccess())) {
      assertThat(List.of(e.value(), e.low(), e.high())).as("%s", e).allSatisfy(v -> assertThat(v).isBetween(0.0, 1.0));
    }
    for (OffPolicyEvaluation.Estimate e : List.of(rep.ipsReward(), rep.drReward())) {
      assertThat(List.of(e.value(), e.low(), e.high())).as("%s", e).allSatisfy(v -> assertThat(v).isBetween(-1.0, 1.0));
    }
    assertThat(List.of(rep.drSuccessGain().low(), rep.drSuccessGain().high())).allSatisfy(v -> assertThat(v).isBetween(-1.0, 1.0));
  }
}
