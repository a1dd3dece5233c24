package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.store.IntentMatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Property tests of Phase B against a direct transcription of the formulas. */
class SelectionPipelineTest {
  private static final Instant T = Instant.EPOCH;
  /** The query every test retrieves with. */
  private static final float[] QUERY = {1, 0};

  private static Memory memory(int id, double q) {
    return memory(id, q, new float[] {1, 0}, T);
  }

  private static Memory memory(int id, double q, float[] intent, Instant created) {
    return new Memory("m" + id, "ns", "i", "", intent, "e", Outcome.SUCCESS, q, 0, created, created);
  }

  /** A unit 2-d intent whose cosine to {@link #QUERY} is {@code cos}. */
  private static float[] intentAt(double cos) {
    return new float[] {(float) cos, (float) Math.sqrt(Math.max(0, 1 - cos * cos))};
  }

  private static Selection select(List<IntentMatch> pool, MemLoopConfig c, SplittableRandom rnd) {
    return SelectionPipeline.select(QUERY, pool, c, null, rnd);
  }

  /** Random pool: 1..6 intents with 1..4 memories each, Q values with ties and extremes. */
  private static List<IntentMatch> randomPool(SplittableRandom rnd) {
    int intents = 1 + rnd.nextInt(6);
    List<IntentMatch> out = new ArrayList<>();
    int id = 0;
    double sim = 1.0;
    for (int i = 0; i < intents; i++) {
      sim -= rnd.nextDouble() * 0.1;
      List<Memory> ms = new ArrayList<>();
      int n = 1 + rnd.nextInt(4);
      for (int j = 0; j < n; j++) {
        double q = switch (rnd.nextInt(4)) {
          case 0 -> 0.0;
          case 1 -> rnd.nextDouble() * 2 - 1;
          case 2 -> -20 + rnd.nextDouble() * 5; // below q_min of -10
          default -> Math.round(rnd.nextDouble() * 4) / 4.0;
        };
        // own intents near the group's, sometimes equal (ties under MEMORY scope)
        double own = rnd.nextInt(3) == 0 ? sim : Math.max(-1, sim - rnd.nextDouble() * 0.2);
        ms.add(memory(id++, q, intentAt(own), T.plusSeconds(rnd.nextInt(3))));
      }
      out.add(new IntentMatch("i" + i, sim, ms));
    }
    return out;
  }

  private static MemLoopConfig randomConfig(SplittableRandom rnd) {
    return MemLoopConfig.builder()
        .k2(1 + rnd.nextInt(5))
        .lambda(rnd.nextInt(3) == 0 ? 0 : rnd.nextDouble())
        .qMin(-10)
        .similarityNormalization(
            rnd.nextBoolean() ? MemLoopConfig.SimilarityNormalization.POOL : MemLoopConfig.SimilarityNormalization.FIXED)
        .simMean(0.6)
        .simStd(0.2)
        .similarityScope(rnd.nextBoolean() ? MemLoopConfig.SimilarityScope.MEMORY : MemLoopConfig.SimilarityScope.INTENT_GROUP)
        .tieBreak(rnd.nextBoolean() ? MemLoopConfig.TieBreak.NEWEST_FIRST : MemLoopConfig.TieBreak.OLDEST_FIRST)
        .build();
  }

  /** Reference: the MemRL formulas written out naively. */
  private static Map<String, Double> referenceScores(List<IntentMatch> pool, MemLoopConfig c) {
    List<double[]> rows = new ArrayList<>(); // {sim, q}
    List<String> ids = new ArrayList<>();
    for (IntentMatch m : pool) {
      for (Memory mem : m.memories()) {
        double sim = c.similarityScope() == MemLoopConfig.SimilarityScope.MEMORY
            ? QUERY[0] * mem.intentEmbedding()[0] + QUERY[1] * mem.intentEmbedding()[1]
            : m.similarity();
        rows.add(new double[] {sim, mem.q()});
        ids.add(mem.id());
      }
    }
    double[] zq = z(rows.stream().mapToDouble(r -> r[1]).toArray(), true);
    double[] sims = rows.stream().mapToDouble(r -> r[0]).toArray();
    double[] zs = c.similarityNormalization() == MemLoopConfig.SimilarityNormalization.POOL
        ? z(sims, true)
        : java.util.Arrays.stream(sims).map(s -> (s - c.simMean()) / c.simStd()).toArray();
    Map<String, Double> out = new HashMap<>();
    for (int i = 0; i < ids.size(); i++) {
      out.put(ids.get(i), (1 - c.lambda()) * zs[i] + c.lambda() * zq[i]);
    }
    return out;
  }

  private static double[] z(double[] x, boolean clip) {
    double mean = java.util.Arrays.stream(x).average().orElse(0);
    double var = java.util.Arrays.stream(x).map(v -> (v - mean) * (v - mean)).average().orElse(0);
    double std = Math.sqrt(var) <= 1e-9 ? 1 : Math.sqrt(var);
    return java.util.Arrays.stream(x).map(v -> (v - mean) / std).map(v -> clip ? Math.max(-3, Math.min(3, v)) : v).toArray();
  }

  @Test
  void greedySelection_isTopK2ByReferenceScore_amongEligible() {
    SplittableRandom rnd = new SplittableRandom(20261121L);
    for (int trial = 0; trial < 2_000; trial++) {
      List<IntentMatch> pool = randomPool(rnd);
      MemLoopConfig c = randomConfig(rnd);
      Selection s = select(pool, c, new SplittableRandom(trial));
      Map<String, Double> ref = referenceScores(pool, c);
      Map<String, Double> q = new HashMap<>();
      pool.forEach(m -> m.memories().forEach(mem -> q.put(mem.id(), mem.q())));

      for (Candidate cand : s.candidates()) {
        assertThat(cand.score()).as("score of %s", cand.memoryId()).isCloseTo(ref.get(cand.memoryId()), within(1e-9));
      }
      List<String> eligible = q.keySet().stream().filter(id -> q.get(id) >= c.qMin()).toList();
      int expected = Math.min(c.k2(), eligible.size());
      assertThat(s.selected()).hasSize(expected);
      double worstSelected = s.selected().stream().mapToDouble(m -> ref.get(m.id())).min().orElse(Double.POSITIVE_INFINITY);
      double bestUnselectedEligible = eligible.stream()
          .filter(id -> s.selected().stream().noneMatch(m -> m.id().equals(id)))
          .mapToDouble(ref::get).max().orElse(Double.NEGATIVE_INFINITY);
      assertThat(worstSelected).isGreaterThanOrEqualTo(bestUnselectedEligible - 1e-12);
      assertThat(s.selected()).allMatch(m -> m.q() >= c.qMin());
      // Candidates: all pool members, once; selected flags agree; greedy probabilities are 0/1.
      assertThat(s.candidates()).hasSize(q.size());
      for (Candidate cand : s.candidates()) {
        boolean isSelected = s.selected().stream().anyMatch(m -> m.id().equals(cand.memoryId()));
        assertThat(cand.selected()).isEqualTo(isSelected);
        assertThat(cand.probability()).isEqualTo(isSelected ? 1.0 : 0.0);
      }
    }
  }

  @Test
  void lambdaZero_ranksBySimilarityOnly() {
    List<IntentMatch> pool = List.of(
        new IntentMatch("a", 0.9, List.of(memory(1, -5))),
        new IntentMatch("b", 0.8, List.of(memory(2, 5))),
        new IntentMatch("c", 0.7, List.of(memory(3, 9))));
    MemLoopConfig c = MemLoopConfig.preset(Preset.SIMILARITY).toBuilder().k2(2).build();
    var s = select(pool, c, new SplittableRandom(1));
    assertThat(s.selected()).extracting(Memory::id).containsExactly("m1", "m2");
  }

  @Test
  void highUtility_overtakesSlightlyMoreSimilarDistractor() {
    List<IntentMatch> pool = List.of(
        new IntentMatch("distractor", 0.92, List.of(memory(1, -0.8))),
        new IntentMatch("useful", 0.90, List.of(memory(2, 0.9))),
        new IntentMatch("loosely-related", 0.60, List.of(memory(3, 0))));
    // With only two candidates pool z-scores are always ±1 and the tie falls to similarity; a
    // realistic pool has a spread of similarities.
    MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL).toBuilder()
        .similarityNormalization(MemLoopConfig.SimilarityNormalization.POOL).k2(1).build();
    assertThat(select(pool, c, new SplittableRandom(1)).selected())
        .extracting(Memory::id).containsExactly("m2");
  }

  @Test
  void tieBreak_ordersEqualScores_oldestOrNewestFirst() {
    // One group, three memories of equal Q and intent: everything ties but age (store order is oldest first).
    List<IntentMatch> pool = List.of(new IntentMatch("a", 0.9, List.of(
        memory(1, 0, intentAt(0.9), T), memory(2, 0, intentAt(0.9), T.plusSeconds(1)),
        memory(3, 0, intentAt(0.9), T.plusSeconds(1)))));
    MemLoopConfig memrl = MemLoopConfig.preset(Preset.MEMRL).toBuilder().k2(2).build();
    assertThat(select(pool, memrl, new SplittableRandom(1)).selected()).extracting(Memory::id).containsExactly("m1", "m2");
    MemLoopConfig newest = memrl.toBuilder().tieBreak(MemLoopConfig.TieBreak.NEWEST_FIRST).build();
    // m2 and m3 share a creation time: the later in the store's order (m3) is the newer
    assertThat(select(pool, newest, new SplittableRandom(1)).selected()).extracting(Memory::id).containsExactly("m3", "m2");
  }

  @Test
  void memoryScope_tellsAGroupsMemoriesApartByTheirOwnIntents() {
    // A group whose representative is 0.95 from the query holds a memory of exactly the query's
    // intent and one of a look-alike; the group scope cannot tell them apart, the memory scope can.
    List<IntentMatch> pool = List.of(new IntentMatch("a", 0.95, List.of(
        memory(1, 0, intentAt(0.80), T), memory(2, 0, intentAt(1.0), T))));
    MemLoopConfig group = MemLoopConfig.preset(Preset.SIMILARITY).toBuilder().k2(1).build();
    assertThat(select(pool, group, new SplittableRandom(1)).selected()).extracting(Memory::id).containsExactly("m1");
    MemLoopConfig own = group.toBuilder().similarityScope(MemLoopConfig.SimilarityScope.MEMORY).build();
    var s = select(pool, own, new SplittableRandom(1));
    assertThat(s.selected()).extracting(Memory::id).containsExactly("m2");
    assertThat(s.candidates()).extracting(Candidate::similarity).containsExactly(1.0, 0.800000011920929);
  }

  @Test
  void qBelowQMin_isNeverSelectedEvenIfMostSimilar() {
    List<IntentMatch> pool = List.of(
        new IntentMatch("a", 0.99, List.of(memory(1, -11))),
        new IntentMatch("b", 0.60, List.of(memory(2, 0))));
    var s = select(pool, MemLoopConfig.preset(Preset.MEMRL), new SplittableRandom(1));
    assertThat(s.selected()).extracting(Memory::id).containsExactly("m2");
    assertThat(s.candidates()).filteredOn(c -> c.memoryId().equals("m1")).singleElement()
        .satisfies(c -> assertThat(c.probability()).isZero());
  }

  @Test
  void constantQ_getsZeroNormalisedUtility_notNaN() {
    List<IntentMatch> pool = List.of(new IntentMatch("a", 0.9, List.of(memory(1, 0.3), memory(2, 0.3))));
    var s = select(pool, MemLoopConfig.preset(Preset.DEFAULT), new SplittableRandom(1));
    assertThat(s.candidates()).allSatisfy(c -> assertThat(c.score()).isFinite());
  }

  @Test
  void epsilonGreedy_selectionFrequencies_matchRecordedProbabilities() {
    List<IntentMatch> pool = List.of(new IntentMatch("a", 0.9,
        IntStream.range(0, 6).mapToObj(i -> memory(i, i * 0.1)).toList()));
    MemLoopConfig c = MemLoopConfig.builder().k2(2).exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.3).build();
    SplittableRandom rnd = new SplittableRandom(42);
    int trials = 40_000;
    Map<String, Integer> counts = new HashMap<>();
    Map<String, Double> probability = new HashMap<>();
    for (int t = 0; t < trials; t++) {
      var s = select(pool, c, rnd);
      assertThat(s.selected()).hasSize(2);
      for (Candidate cand : s.candidates()) {
        probability.put(cand.memoryId(), cand.probability());
        if (cand.selected()) {
          counts.merge(cand.memoryId(), 1, Integer::sum);
        }
      }
    }
    double sum = probability.values().stream().mapToDouble(Double::doubleValue).sum();
    assertThat(sum).isCloseTo(2.0, within(1e-9));
    // greedy picks m5, m4: p = 0.7 + 0.3 * 2/6 = 0.8; others p = 0.3 * 2/6 = 0.1
    assertThat(probability.get("m5")).isCloseTo(0.8, within(1e-12));
    assertThat(probability.get("m0")).isCloseTo(0.1, within(1e-12));
    for (var e : probability.entrySet()) {
      double freq = counts.getOrDefault(e.getKey(), 0) / (double) trials;
      assertThat(freq).as("frequency of %s", e.getKey()).isCloseTo(e.getValue(), within(0.01));
    }
  }

  @Test
  void candidates_areOrderedByScore_withDroppedLast() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (int trial = 0; trial < 200; trial++) {
      var s = select(randomPool(rnd), randomConfig(rnd), rnd);
      List<Candidate> eligible = s.candidates().stream().filter(c -> c.q() >= -10).toList();
      assertThat(eligible).isSortedAccordingTo(Comparator.comparingDouble(Candidate::score).reversed());
      assertThat(s.candidates().subList(0, eligible.size())).isEqualTo(eligible);
    }
  }

  @Test
  void taskExploration_logsTheProbabilitiesOfItsDraw_andTheirFrequenciesMatch() {
    // The task's own three failure notes (same intent as the query) fill k2 = 3; a similar task's
    // success is fourth. The task failed twice with nothing proven: it may explore, with chance 0.3.
    List<Memory> own = IntStream.range(0, 3)
        .mapToObj(i -> new Memory("m" + i, "ns", "i", "", intentAt(1), "note " + i, Outcome.FAILURE, 0, 0, T, T))
        .toList();
    Memory sibling = new Memory("m9", "ns", "j", "", intentAt(0.8), "worked", Outcome.SUCCESS, 0, 0, T, T);
    List<IntentMatch> pool = List.of(new IntentMatch("i", 1.0, own), new IntentMatch("j", 0.8, List.of(sibling)));
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT);
    TaskView task = new TaskView("t", 2, 0, 0.3, Map.of(), 1, 0.5);
    SplittableRandom rnd = new SplittableRandom(7);
    int trials = 20_000;
    Map<String, Integer> counts = new HashMap<>();
    Map<String, Double> probability = new HashMap<>();
    int explored = 0;
    for (int t = 0; t < trials; t++) {
      var s = SelectionPipeline.select(QUERY, pool, c, task, rnd);
      assertThat(s.note().explorable()).isTrue();
      if (!s.note().explored().isEmpty()) {
        explored++;
        assertThat(s.selected().get(1).id()).as("explored memory is shown second").isEqualTo("m9");
      }
      for (Candidate cand : s.candidates()) {
        probability.put(cand.memoryId(), cand.probability());
        if (cand.selected()) {
          counts.merge(cand.memoryId(), 1, Integer::sum);
        }
      }
    }
    assertThat(probability.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(3.0, within(1e-9));
    assertThat(probability.get("m9")).isCloseTo(0.3, within(1e-12));
    assertThat(explored / (double) trials).isCloseTo(0.3, within(0.01));
    for (var e : probability.entrySet()) {
      double freq = counts.getOrDefault(e.getKey(), 0) / (double) trials;
      assertThat(freq).as("frequency of %s", e.getKey()).isCloseTo(e.getValue(), within(0.01));
    }
  }
}
