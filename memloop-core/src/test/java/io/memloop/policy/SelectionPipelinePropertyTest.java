package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.IntentMatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The pipeline against a simple reference model of Phase B for greedy configurations (no exploration, no per-task
 * learning): score, order by score, similarity and the tie rule, drop Q below q_min, take k2, shorten long failure
 * notes under {@code NEWEST}. Seeded random pools with ties in every key; the comparison is exact (bit for bit).
 */
class SelectionPipelinePropertyTest {
  private static final float[] QUERY = {1, 0};
  private static final Instant T = Instant.EPOCH;

  private static float[] intentAt(double cos) {
    return new float[] {(float) cos, (float) Math.sqrt(Math.max(0, 1 - cos * cos))};
  }

  private static List<IntentMatch> randomPool(SplittableRandom rnd) {
    int intents = rnd.nextInt(7); // 0: an empty pool
    List<IntentMatch> out = new ArrayList<>();
    int id = 0;
    double sim = 1.0;
    for (int i = 0; i < intents; i++) {
      sim -= rnd.nextInt(2) * rnd.nextDouble() * 0.1; // equal group similarities now and then
      List<Memory> ms = new ArrayList<>();
      int n = 1 + rnd.nextInt(5);
      for (int j = 0; j < n; j++) {
        double q = switch (rnd.nextInt(4)) {
          case 0 -> 0.0;
          case 1 -> rnd.nextDouble() * 2 - 1;
          case 2 -> -20 + rnd.nextDouble() * 5;
          default -> Math.round(rnd.nextDouble() * 4) / 4.0;
        };
        double own = rnd.nextInt(3) == 0 ? sim : Math.max(-1, sim - rnd.nextDouble() * 0.2);
        Outcome outcome = Outcome.values()[rnd.nextInt(Outcome.values().length)];
        List<String> parts = new ArrayList<>();
        int attempts = 1 + rnd.nextInt(5);
        for (int a = 0; a < attempts; a++) {
          parts.add("m" + id + " attempt " + a);
        }
        Instant created = T.plusSeconds(rnd.nextInt(3));
        ms.add(new Memory("m" + id++, "ns", "i" + i, "", intentAt(own), String.join(Memory.PART_SEPARATOR, parts),
            outcome, q, 0, created, created));
      }
      out.add(new IntentMatch("i" + i, sim, ms));
    }
    return out;
  }

  private static MemLoopConfig randomGreedyConfig(SplittableRandom rnd) {
    return MemLoopConfig.builder()
        .k2(1 + rnd.nextInt(5))
        .lambda(rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(3) == 0 ? 1 : rnd.nextDouble())
        .qMin(switch (rnd.nextInt(3)) { case 0 -> -10; case 1 -> 0; default -> Double.NEGATIVE_INFINITY; })
        .similarityNormalization(MemLoopConfig.SimilarityNormalization.values()[rnd.nextInt(2)])
        .simMean(0.6)
        .simStd(0.2)
        .similarityScope(MemLoopConfig.SimilarityScope.values()[rnd.nextInt(2)])
        .tieBreak(MemLoopConfig.TieBreak.values()[rnd.nextInt(2)])
        .noteDepth(MemLoopConfig.NoteDepth.values()[rnd.nextInt(MemLoopConfig.NoteDepth.values().length)])
        .build();
  }

  /** The reference: Phase B's greedy path written out plainly. */
  private static Selection reference(List<IntentMatch> matches, MemLoopConfig c) {
    List<Memory> pool = new ArrayList<>();
    List<Double> sims = new ArrayList<>();
    for (IntentMatch match : matches) {
      for (Memory m : match.memories()) {
        pool.add(m);
        sims.add(c.similarityScope() == MemLoopConfig.SimilarityScope.MEMORY ? Vectors.dot(QUERY, m.intentEmbedding())
            : match.similarity());
      }
    }
    int n = pool.size();
    if (n == 0) {
      return new Selection(List.of(), List.of(), TaskNote.NONE);
    }
    double[] sim = sims.stream().mapToDouble(Double::doubleValue).toArray();
    double[] q = pool.stream().mapToDouble(Memory::q).toArray();
    double[] zq = z(q);
    double[] zs = c.similarityNormalization() == MemLoopConfig.SimilarityNormalization.POOL ? z(sim) : new double[n];
    if (c.similarityNormalization() == MemLoopConfig.SimilarityNormalization.FIXED) {
      for (int i = 0; i < n; i++) {
        zs[i] = (sim[i] - c.simMean()) / c.simStd();
      }
    }
    double[] score = new double[n];
    for (int i = 0; i < n; i++) {
      score[i] = (1 - c.lambda()) * zs[i] + c.lambda() * zq[i];
    }
    Comparator<Integer> order = Comparator.<Integer>comparingDouble(i -> score[i]).reversed()
        .thenComparing(Comparator.<Integer>comparingDouble(i -> sim[i]).reversed());
    order = c.tieBreak() == MemLoopConfig.TieBreak.OLDEST_FIRST ? order.thenComparingInt(i -> i)
        : order.thenComparing((Integer i) -> pool.get(i).createdAt(), Comparator.reverseOrder())
            .thenComparing(Comparator.<Integer>comparingInt(i -> i).reversed());
    List<Integer> sorted = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      sorted.add(i);
    }
    sorted.sort(order);
    List<Integer> eligible = sorted.stream().filter(i -> q[i] >= c.qMin()).toList();
    List<Integer> dropped = sorted.stream().filter(i -> !(q[i] >= c.qMin())).toList();
    List<Candidate> candidates = new ArrayList<>();
    List<Memory> selected = new ArrayList<>();
    for (int r = 0; r < eligible.size(); r++) {
      int i = eligible.get(r);
      boolean chosen = r < c.k2();
      candidates.add(new Candidate(pool.get(i).id(), sim[i], q[i], score[i], chosen, chosen ? 1 : 0));
      if (chosen) {
        Memory m = pool.get(i);
        boolean cut = c.noteDepth() == MemLoopConfig.NoteDepth.NEWEST && m.outcome() == Outcome.FAILURE
            && m.parts().size() > c.k2();
        selected.add(cut ? m.withExperience(Memory.joinParts(m.parts(), c.k2())) : m);
      }
    }
    for (int i : dropped) {
      candidates.add(new Candidate(pool.get(i).id(), sim[i], q[i], score[i], false, 0));
    }
    return new Selection(candidates, selected, TaskNote.NONE);
  }

  /** z-score over the pool, population std, std := 1 when ≤ 1e-9, clipped to ±3. */
  private static double[] z(double[] x) {
    double sum = 0;
    for (double v : x) {
      sum += v;
    }
    double mean = sum / x.length;
    double sq = 0;
    for (double v : x) {
      sq += (v - mean) * (v - mean);
    }
    double std = Math.sqrt(sq / x.length) <= 1e-9 ? 1 : Math.sqrt(sq / x.length);
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.max(-3, Math.min(3, (x[i] - mean) / std));
    }
    return out;
  }

  @Test
  void greedyPipeline_equalsTheReferenceModel_bitForBit() {
    SplittableRandom rnd = new SplittableRandom(2026_0026L);
    for (int trial = 0; trial < 5_000; trial++) {
      List<IntentMatch> matches = randomPool(rnd);
      MemLoopConfig c = randomGreedyConfig(rnd);
      Selection actual = SelectionPipeline.select(QUERY, matches, c, null, Draws.NONE);
      Selection expected = reference(matches, c);
      assertThat(actual.candidates()).as("trial %d, %s", trial, c).isEqualTo(expected.candidates());
      assertThat(actual.selected()).as("trial %d", trial).isEqualTo(expected.selected());
      assertThat(actual.selectedIds()).containsExactlyElementsOf(expected.selected().stream().map(Memory::id).toList());
      assertThat(actual.note()).isEqualTo(TaskNote.NONE);
    }
  }

  @Test
  void poolWithoutMemories_selectsTheSameIds_andShowsNoMemory() {
    SplittableRandom rnd = new SplittableRandom(7);
    for (int trial = 0; trial < 1_000; trial++) {
      List<IntentMatch> matches = randomPool(rnd);
      MemLoopConfig c = randomGreedyConfig(rnd);
      List<PoolEntry> withMemories = PoolEntry.pool(QUERY, matches, c.similarityScope());
      List<PoolEntry> bare = withMemories.stream()
          .map(e -> new PoolEntry(e.id(), e.similarity(), e.q(), e.createdAt(), e.outcome(), null, null)).toList();
      Selection full = SelectionPipeline.select(withMemories, QUERY, c, null, Draws.NONE);
      Selection ids = SelectionPipeline.select(bare, QUERY, c, null, Draws.NONE);
      assertThat(ids.candidates()).isEqualTo(full.candidates());
      assertThat(ids.selectedIds()).isEqualTo(full.selected().stream().map(Memory::id).toList());
      assertThat(ids.selected()).isEmpty();
    }
  }
}
