package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.policy.DirectionsUse;
import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#directionsUse()}: a task with no record of its own is ranked by the similarity the namespace
 * learned ({@link MemLoopConfig#similarityDirections()}) or by the plain cosine on a draw, with the probability that
 * the learned one pays in the namespace. Two worlds of new tasks of two kinds, whose intents share a template: in one
 * the kinds differ little and the wordings much, and the agent wins only by following its own kind's memory (the
 * learned similarity discounts the wording, and pays); in the other the wordings differ little, and half the episodes
 * are won by exploring with the credit on a look-alike kind's memory, so many successful pairs are of two kinds (the
 * learned similarity discounts what tells the kinds apart, and costs). And the arms' record against a reference count.
 */
class DirectionsUseTest {
  private static final int DIM = 48;
  private static final int FILLER = 6;

  /** An instance of {@code kind}: the template, the kind's signature ({@code signature}), filler and a little noise. */
  private static float[] instance(int kind, double signature, double filler, SplittableRandom rnd) {
    float[] v = new float[DIM];
    v[20] = 3;
    v[FILLER + kind] += (float) signature;
    for (int i = 0; i < DIM; i++) {
      v[i] += (float) ((i < FILLER ? filler : 0.05) * rnd.nextGaussian());
    }
    return Vectors.normalized(v, "v");
  }

  /** A world: its kinds, how far apart they are, how much wordings vary, how often exploring wins regardless. */
  private record World(int kinds, double signature, double filler, double exploringWins) {}

  /** The kinds close, the wordings far apart, no win without the own kind's memory: the learned similarity pays. */
  private static final World FOLLOWS = new World(2, 0.6, 0.8, 0);

  /**
   * Four kinds, the wordings close, and half the episodes explored: the agent ignores what it is shown, wins nine in
   * ten, and the reward credits a look-alike kind's memory (as where an agent does not say what it used and the first
   * success shown is credited). The learned similarity discounts what tells the kinds apart, and costs.
   */
  private static final World EXPLORES = new World(4, 0.25, 0.05, 0.5);

  /**
   * Plays {@code episodes} new tasks, each rewarded naming the first memory shown as used (an agent that says what it
   * followed, or a reward that credits the first success shown); returns the wins of the last {@code judged}.
   */
  private static int play(MemLoop loop, World world, int episodes, int judged, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < 4 * world.kinds(); i++) {
      loop.remember("ns", Intent.ofEmbedding(instance(i % world.kinds(), world.signature(), world.filler(), rnd)),
          "answer " + i % world.kinds(), Outcome.SUCCESS);
    }
    int wins = 0;
    for (int e = 0; e < episodes; e++) {
      int kind = rnd.nextInt(world.kinds());
      float[] v = instance(kind, world.signature(), world.filler(), rnd);
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(v));
      Memory first = r.selected().getFirst();
      boolean own = first.experience().equals("answer " + kind);
      boolean win = own;
      Memory credited = first;
      if (rnd.nextDouble() < world.exploringWins()) { // it explores, and the reward credits a look-alike kind's memory
        win = rnd.nextDouble() < 0.9;
        credited = r.selected().stream().filter(m -> !m.experience().equals("answer " + kind)).findFirst().orElse(first);
      }
      loop.reward("ns", r.id(), win ? 1 : -1, List.of(credited.id()));
      if (win) {
        loop.remember("ns", Intent.ofEmbedding(v), "answer " + kind, Outcome.SUCCESS);
      }
      wins += e >= episodes - judged && win ? 1 : 0;
    }
    return wins;
  }

  private static MemLoop engine(MemLoopConfig.DirectionsUse use, int directions) {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().similarityDirections(directions)
        .directionsUse(use).firstEncounterK1(8).doubt(MemLoopConfig.Doubt.OFF)
        .textSimilarity(MemLoopConfig.TextSimilarity.OFF).freshness(0).build();
    return MemLoop.builder().store(new InMemoryStore(DIM)).config(config)
        .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(7).build();
  }

  @Test
  void whereTheLearnedSimilarityPays_theNamespaceLearnsToRankByIt() {
    try (MemLoop learned = engine(MemLoopConfig.DirectionsUse.LEARNED, 4);
        MemLoop always = engine(MemLoopConfig.DirectionsUse.ALWAYS, 4);
        MemLoop cosine = engine(MemLoopConfig.DirectionsUse.ALWAYS, 0)) {
      int byLearned = play(learned, FOLLOWS, 800, 200, 3);
      int byAlways = play(always, FOLLOWS, 800, 200, 3);
      int byCosine = play(cosine, FOLLOWS, 800, 200, 3);
      assertThat(byAlways).as("the world's premise: the learned similarity pays").isGreaterThan(byCosine + 20);
      Learned l = learned.learned("ns");
      assertThat(l.directionsLearned() + l.directionsCosine()).as("draws").isPositive();
      assertThat(l.directionsProbability()).isGreaterThan(0.9);
      assertThat(byLearned).as("late wins, against always %d and the cosine %d", byAlways, byCosine)
          .isGreaterThan(byCosine + 10).isGreaterThanOrEqualTo(byAlways - 20);
      assertThat(always.learned("ns").directionsProbability()).as("always: nothing drawn").isNull();
    }
  }

  @Test
  void whereTheLearnedSimilarityCosts_theNamespaceLearnsToRankByTheCosine() {
    try (MemLoop learned = engine(MemLoopConfig.DirectionsUse.LEARNED, 4);
        MemLoop always = engine(MemLoopConfig.DirectionsUse.ALWAYS, 4);
        MemLoop cosine = engine(MemLoopConfig.DirectionsUse.ALWAYS, 0)) {
      int byLearned = play(learned, EXPLORES, 800, 200, 5);
      int byAlways = play(always, EXPLORES, 800, 200, 5);
      int byCosine = play(cosine, EXPLORES, 800, 200, 5);
      assertThat(byCosine).as("the world's premise: the learned similarity costs").isGreaterThan(byAlways + 15);
      assertThat(learned.learned("ns").directionsProbability()).isLessThan(0.2);
      assertThat(byLearned).as("late wins, against always %d and the cosine %d", byAlways, byCosine)
          .isGreaterThan(byAlways + 10).isGreaterThanOrEqualTo(byCosine - 20);
    }
  }

  @Test
  void aDrawIsMadeOnlyForNewTasksWhereTheArmsDiffer_andTheCandidatesCarryItsProbabilities() {
    try (MemLoop loop = engine(MemLoopConfig.DirectionsUse.LEARNED, 4)) {
      play(loop, FOLLOWS, 20, 0, 9);
      assertThat(loop.learned("ns").directionsProbability()).as("no similarity learned yet: nothing to draw").isNull();
      play(loop, FOLLOWS, 300, 0, 10);
      Learned before = loop.learned("ns");
      long drawsBefore = before.directionsLearned() + before.directionsCosine();
      assertThat(drawsBefore).isPositive();
      SplittableRandom rnd = new SplittableRandom(13);
      int drawn = 0;
      int drawnOverSets = 0;
      for (int e = 0; e < 200; e++) {
        Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(instance(e % 2, 0.6, 0.8, rnd)));
        double p = loop.learned("ns").directionsProbability();
        long draws = loop.learned("ns").directionsLearned() + loop.learned("ns").directionsCosine();
        loop.reward("ns", r.id(), -1, List.of(r.selected().getFirst().id()));
        long after = loop.learned("ns").directionsLearned() + loop.learned("ns").directionsCosine();
        boolean fractional = r.candidates().stream().anyMatch(c -> c.probability() > 1e-9 && c.probability() < 1 - 1e-9);
        if (after > draws) { // drew: a candidate shown by one arm only has that arm's chance
          drawn++;
          drawnOverSets += fractional ? 1 : 0;
          assertThat(r.candidates()).allSatisfy(c -> assertThat(c.probability()).satisfiesAnyOf(
              x -> assertThat(x).isCloseTo(0, within(1e-9)), x -> assertThat(x).isCloseTo(1, within(1e-9)),
              x -> assertThat(x).isCloseTo(p, within(1e-9)), x -> assertThat(x).isCloseTo(1 - p, within(1e-9))));
        } else {
          assertThat(fractional).as("no draw (no doubt, no exploration): every chance 0 or 1 (episode %d)", e).isFalse();
        }
      }
      assertThat(drawnOverSets).as("draws where the arms show different memories").isPositive();
      assertThat(drawn).isPositive();
      // the same task again has a record of its own: its own evidence ranks, no draw
      Intent task = Intent.ofEmbedding(instance(0, 0.6, 0.8, rnd));
      Retrieval once = loop.retrieve("ns", task);
      loop.reward("ns", once.id(), 1, List.of(once.selected().getFirst().id()));
      long draws = loop.learned("ns").directionsLearned() + loop.learned("ns").directionsCosine();
      Retrieval again = loop.retrieve("ns", task);
      loop.reward("ns", again.id(), 1, List.of(again.selected().getFirst().id()));
      assertThat(loop.learned("ns").directionsLearned() + loop.learned("ns").directionsCosine()).isEqualTo(draws);
    }
  }

  /**
   * The arms' record against a reference count: over seeded random streams of draws and rewards, each arm's episodes
   * and summed reward are exact, their means converge to each arm's true success rate, and the probability of the
   * learned similarity stays in [0, 1], never NaN, and ends on the better arm's side.
   */
  @Test
  void theArmsRecord_countsExactly_convergesToEachArmsRate_andLeansToTheBetterArm() {
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      double learnedRate = rnd.nextDouble();
      double cosineRate = rnd.nextDouble();
      double[] entry = null;
      long[] n = new long[2];
      double[] sum = new double[2];
      for (int i = 0; i < 4000; i++) {
        int arm = rnd.nextBoolean() ? DirectionsUse.LEARNED : DirectionsUse.COSINE;
        double unit = rnd.nextDouble() < (arm == DirectionsUse.LEARNED ? learnedRate : cosineRate) ? 1 : 0;
        entry = DirectionsUse.update(entry, arm, unit);
        n[arm]++;
        sum[arm] += unit;
        assertThat(TaskLedger.explorationProbability(entry)).isBetween(0.0, 1.0).isNotNaN();
      }
      assertThat(entry).containsExactly((double) n[DirectionsUse.LEARNED], sum[DirectionsUse.LEARNED],
          (double) n[DirectionsUse.COSINE], sum[DirectionsUse.COSINE]);
      assertThat(entry[1] / entry[0]).as("seed %d", seed).isCloseTo(learnedRate, within(0.05));
      assertThat(entry[3] / entry[2]).as("seed %d", seed).isCloseTo(cosineRate, within(0.05));
      double p = TaskLedger.explorationProbability(entry);
      if (learnedRate > cosineRate + 0.1) {
        assertThat(p).as("seed %d", seed).isGreaterThan(0.99);
      } else if (cosineRate > learnedRate + 0.1) {
        assertThat(p).as("seed %d", seed).isLessThan(0.01);
      }
    }
  }
}
