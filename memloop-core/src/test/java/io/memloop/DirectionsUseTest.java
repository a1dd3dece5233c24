package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

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
 * learned similarity discounts what tells the kinds apart, and costs). The arms' record is checked against a reference
 * count in {@link TwoArmedRecordTest}.
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

  /** Late wins in {@code world} ranked by the learned similarity on a draw, always, and never; and what each learned. */
  private record Compared(int byLearned, int byAlways, int byCosine, Learned learned, Learned always) {}

  /** Plays {@code world} with seed {@code seed} on three engines: {@code LEARNED}, {@code ALWAYS}, and the cosine. */
  private static Compared compare(World world, long seed) {
    try (MemLoop learned = engine(MemLoopConfig.DirectionsUse.LEARNED, 4);
        MemLoop always = engine(MemLoopConfig.DirectionsUse.ALWAYS, 4);
        MemLoop cosine = engine(MemLoopConfig.DirectionsUse.ALWAYS, 0)) {
      int byLearned = play(learned, world, 800, 200, seed);
      int byAlways = play(always, world, 800, 200, seed);
      int byCosine = play(cosine, world, 800, 200, seed);
      return new Compared(byLearned, byAlways, byCosine, learned.learned("ns"), always.learned("ns"));
    }
  }

  @Test
  void whereTheLearnedSimilarityPays_theNamespaceLearnsToRankByIt() {
    Compared c = compare(FOLLOWS, 3);
    assertThat(c.byAlways()).as("the world's premise: the learned similarity pays").isGreaterThan(c.byCosine() + 20);
    assertThat(c.learned().directionsLearned() + c.learned().directionsCosine()).as("draws").isPositive();
    assertThat(c.learned().directionsProbability()).isGreaterThan(0.9);
    assertThat(c.byLearned()).as("late wins, against always %d and the cosine %d", c.byAlways(), c.byCosine())
        .isGreaterThan(c.byCosine() + 10).isGreaterThanOrEqualTo(c.byAlways() - 20);
    assertThat(c.always().directionsProbability()).as("always: nothing drawn").isNull();
  }

  @Test
  void whereTheLearnedSimilarityCosts_theNamespaceLearnsToRankByTheCosine() {
    Compared c = compare(EXPLORES, 5);
    assertThat(c.byCosine()).as("the world's premise: the learned similarity costs").isGreaterThan(c.byAlways() + 15);
    assertThat(c.learned().directionsProbability()).isLessThan(0.2);
    assertThat(c.byLearned()).as("late wins, against always %d and the cosine %d", c.byAlways(), c.byCosine())
        .isGreaterThan(c.byAlways() + 10).isGreaterThanOrEqualTo(c.byCosine() - 20);
  }

  /** The draw's record as {@link Learned} shows it (weighted episodes, rounded, and success rates). */
  private static List<Object> arms(MemLoop loop) {
    Learned l = loop.learned("ns");
    return java.util.Arrays.asList(l.directionsLearned(), l.directionsLearnedSuccessRate(), l.directionsCosine(),
        l.directionsCosineSuccessRate());
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
      DrawChances chances = new DrawChances();
      for (int e = 0; e < 200; e++) {
        Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(instance(e % 2, 0.6, 0.8, rnd)));
        double p = loop.learned("ns").directionsProbability();
        List<Object> record = arms(loop);
        loop.reward("ns", r.id(), -1, List.of(r.selected().getFirst().id()));
        chances.check(r, !arms(loop).equals(record), p, e);
      }
      chances.assertDrawsOverSets();
      // the same task again has a record of its own: its own evidence ranks, no draw
      Intent task = Intent.ofEmbedding(instance(0, 0.6, 0.8, rnd));
      Retrieval once = loop.retrieve("ns", task);
      loop.reward("ns", once.id(), 1, List.of(once.selected().getFirst().id()));
      List<Object> draws = arms(loop);
      Retrieval again = loop.retrieve("ns", task);
      loop.reward("ns", again.id(), 1, List.of(again.selected().getFirst().id()));
      assertThat(arms(loop)).isEqualTo(draws);
    }
  }
}
