package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.policy.TaskView;
import io.memloop.store.InMemoryStore;
import io.memloop.store.IntentMatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Property tests of the neighbours' evidence ({@link MemLoopConfig.TaskLearning#NEIGHBOURS}) against a simple
 * reference model, over seeded random episodes: the uses each memory remembers, the recency- and
 * nearness-weighted net a task never seen reads from them, its bounds, and that newer evidence wins after a drift.
 */
class NeighbourEvidencePropertyTest {
  private static final long SEED = 2026_11_26L;
  private static final int DIM = 8;
  private static final MemLoopConfig CONFIG = MemLoopConfig.preset(Preset.DEFAULT).toBuilder()
      .taskLearning(MemLoopConfig.TaskLearning.NEIGHBOURS).exploreBudget(0).exploreAfterFailures(1000).k1(20).k2(16)
      .similarityThreshold(-1).mergeThreshold(1).build();

  /** One use of a memory: the using task's key, the centred reward (the reward, on [−1, 1]) and its query's cosine. */
  private record Use(String task, double centred, double cosine) {}

  private static float[] direction(SplittableRandom rnd, float[] around, double spread) {
    float[] v = new float[DIM];
    for (int d = 0; d < DIM; d++) {
      v[d] = (float) (around[d] + spread * (rnd.nextDouble() * 2 - 1));
    }
    return Vectors.normalized(v, "v");
  }

  /**
   * The reference: newest use first, weights halving over the uses that count; a success counts fully for a query at
   * least as near the memory as its own was, a failure for one at most as near, else 1 − gap / spread.
   */
  private static double reference(List<Use> uses, double now, double spread, String writer, String self) {
    double sum = 0;
    double weight = 1;
    List<Use> kept = uses.subList(Math.max(0, uses.size() - TaskLedger.USES_KEPT), uses.size());
    for (int j = kept.size() - 1; j >= 0; j--) {
      Use u = kept.get(j);
      if (u.task().equals(writer) || u.task().equals(self)) {
        continue;
      }
      double gap = u.centred() > 0 ? u.cosine() - now : now - u.cosine();
      double near = gap <= 0 ? 1 : spread > 0 ? 1 - gap / spread : 0;
      if (near <= 0) {
        continue;
      }
      sum += weight * near * u.centred();
      weight /= 2;
    }
    return sum;
  }

  @Test
  void neighbourNet_matchesTheReference_isBounded_andFinite_overRandomEpisodes() {
    SplittableRandom rnd = new SplittableRandom(SEED);
    float[] centre = direction(rnd, new float[DIM], 1);
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(CONFIG)
        .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(3).build()) {
      float[] writerAxis = direction(rnd, centre, 0.3);
      Intent writer = Intent.of("the writer", writerAxis);
      Memory shared = loop.remember("ns", writer, "the shared plan", Outcome.SUCCESS);
      List<Intent> neighbours = new ArrayList<>();
      List<Memory> notes = new ArrayList<>();
      for (int k = 0; k < 12; k++) {
        Intent t = Intent.of("neighbour " + k, direction(rnd, centre, 0.3));
        neighbours.add(t);
        notes.add(loop.remember("ns", t, "what neighbour " + k + " tried", Outcome.FAILURE));
      }
      List<Use> uses = new ArrayList<>();
      for (int step = 0; step < 200; step++) {
        boolean byWriter = rnd.nextDouble() < 0.1;
        Intent t = byWriter ? writer : neighbours.get(rnd.nextInt(neighbours.size()));
        Retrieval r = loop.retrieve("ns", t);
        double reward = rnd.nextDouble() * 2 - 1;
        loop.reward("ns", r.id(), reward, List.of(shared.id()));
        uses.add(new Use(TaskLedger.taskKey(t, t.embedding()), reward, Vectors.dot(t.embedding(), writerAxis)));

        double[] entry = loop.store().ledger("ns", List.of("u:" + shared.id())).get("u:" + shared.id());
        List<Use> kept = uses.subList(Math.max(0, uses.size() - TaskLedger.USES_KEPT), uses.size());
        int w = TaskLedger.USE;
        assertThat(entry).as("step %d", step).hasSize(w * kept.size());
        for (int j = 0; j < kept.size(); j++) {
          assertThat((long) entry[w * j]).isEqualTo(TaskLedger.taskHash(kept.get(j).task()));
          assertThat(entry[w * j + 1]).isCloseTo(kept.get(j).centred(), within(1e-12));
          assertThat(entry[w * j + 2]).isCloseTo(kept.get(j).cosine(), within(1e-6));
        }

        // a task never seen, with the writer and every neighbour in its pool
        float[] q = direction(rnd, centre, 0.3);
        Intent asking = Intent.of("never seen " + step, q);
        List<IntentMatch> matches = new ArrayList<>();
        double lo = Vectors.dot(q, writerAxis);
        double hi = lo;
        matches.add(new IntentMatch("w", Vectors.dot(q, writerAxis), List.of(shared)));
        for (int k = 0; k < notes.size(); k++) {
          double sim = Vectors.dot(q, neighbours.get(k).embedding());
          matches.add(new IntentMatch("n" + k, sim, List.of(notes.get(k))));
          lo = Math.min(lo, sim);
          hi = Math.max(hi, sim);
        }
        TaskView view = new TaskLedger(loop.store(), 1).view("ns", asking, q, matches, CONFIG);
        String self = TaskLedger.taskKey(asking, q);
        double expected = reference(uses, Vectors.dot(q, writerAxis), hi - lo, TaskLedger.taskKey(writer, writerAxis), self);
        Double got = view.neighbourNet().get(shared.id());
        assertThat(got == null ? 0 : got).as("step %d", step).isCloseTo(expected, within(1e-9));
        if (got != null) {
          assertThat(Double.isFinite(got)).isTrue();
          assertThat(Math.abs(got)).as("bounded by twice the half range").isLessThanOrEqualTo(2.0);
        }
      }
    }
  }

  @Test
  void newerFailuresOutweighAnyNumberOfOlderSuccesses_andTheMeanFollowsAStationaryStream() {
    SplittableRandom rnd = new SplittableRandom(SEED + 1);
    float[] centre = direction(rnd, new float[DIM], 1);
    for (int older : new int[] {2, 20, 500}) {
      try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(CONFIG)
          .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(3).build()) {
        Memory shared = loop.remember("ns", Intent.of("the writer", direction(rnd, centre, 0.2)), "plan", Outcome.SUCCESS);
        Intent near = Intent.of("the neighbour", direction(rnd, centre, 0.05));
        loop.remember("ns", near, "what the neighbour tried", Outcome.FAILURE);
        for (int i = 0; i < older; i++) {
          loop.reward("ns", loop.retrieve("ns", near).id(), 1, List.of(shared.id()));
        }
        Intent asking = Intent.of("never seen", near.embedding()); // as near the memory as the neighbour
        assertThat(tierOf(loop, asking, shared)).as("after %d successes", older).isEqualTo("proven-by-neighbours");
        for (int i = 0; i < 3; i++) { // the world changed: the plan fails from now on
          loop.reward("ns", loop.retrieve("ns", near).id(), -1, List.of(shared.id()));
        }
        assertThat(tierOf(loop, asking, shared)).as("three failures after %d successes", older)
            .isEqualTo("failed-by-neighbours");
      }
    }
    // a stationary stream of outcomes with success rate p: the net's average over the stream follows
    // (2p − 1) · Σ 2^-j (the expectation of the recency-weighted sum of centred rewards in [−1, 1])
    for (double p : new double[] {0.2, 0.5, 0.9}) {
      try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(CONFIG)
          .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(3).build()) {
        float[] wAxis = direction(rnd, centre, 0.2);
        Memory shared = loop.remember("ns", Intent.of("the writer", wAxis), "plan", Outcome.SUCCESS);
        float[] nAxis = direction(rnd, centre, 0.05);
        Intent near = Intent.of("the neighbour", nAxis);
        Memory note = loop.remember("ns", near, "what the neighbour tried", Outcome.FAILURE);
        float[] q = nAxis; // another task, as near the memory as the neighbour: every use counts fully
        List<IntentMatch> matches = List.of(new IntentMatch("n", Vectors.dot(q, nAxis), List.of(note)),
            new IntentMatch("w", Vectors.dot(q, wAxis), List.of(shared)));
        double mean = 0;
        int steps = 4000;
        for (int i = 0; i < steps; i++) {
          loop.reward("ns", loop.retrieve("ns", near).id(), rnd.nextDouble() < p ? 1 : -1, List.of(shared.id()));
          TaskView view = new TaskLedger(loop.store(), 1).view("ns", Intent.of("never seen", q), q, matches, CONFIG);
          mean += view.neighbourNet().getOrDefault(shared.id(), 0.0) / steps;
        }
        double expected = (2 * p - 1) * (2 - Math.pow(2, 1 - TaskLedger.USES_KEPT));
        assertThat(mean).as("p = %s", p).isCloseTo(expected, within(0.1));
      }
    }
  }

  private static String tierOf(MemLoop loop, Intent asking, Memory memory) {
    return loop.explain("ns", asking).candidates().stream().filter(e -> e.memoryId().equals(memory.id())).findFirst()
        .orElseThrow().tier();
  }
}
