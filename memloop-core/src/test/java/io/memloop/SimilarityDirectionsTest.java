package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.policy.Directions;
import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#similarityDirections()} at the engine: a stream of new tasks of two kinds whose intents share a
 * template and differ in filler words (large, random) more than in what tells the kinds apart (small, fixed). The agent
 * follows the first experience shown; it succeeds when that memory is of its own kind. Learned from the successful
 * episodes, the similarity discounts the filler, and new tasks see their own kind's memory first more often than with
 * the plain cosine.
 */
class SimilarityDirectionsTest {
  private static final int DIM = 48;
  private static final int FILLER = 6;

  /** An instance of {@code kind}: the template, the kind's signature, filler and a little noise. */
  private static float[] instance(int kind, SplittableRandom rnd) {
    float[] v = new float[DIM];
    v[20] = 3;
    v[FILLER + kind] += 0.6f;
    for (int i = 0; i < DIM; i++) {
      v[i] += (float) ((i < FILLER ? 0.8 : 0.05) * rnd.nextGaussian());
    }
    return Vectors.normalized(v, "v");
  }

  /** Plays {@code episodes} new tasks; returns how many of the last {@code judged} saw their own kind first. */
  private static int play(MemLoop loop, int episodes, int judged, long seed) {
    return play(loop, episodes, judged, seed, () -> {});
  }

  /** As above, running {@code afterReward} after every reward. */
  private static int play(MemLoop loop, int episodes, int judged, long seed, Runnable afterReward) {
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int i = 0; i < 8; i++) { // a few solved instances of each kind to start with
      loop.remember("ns", Intent.ofEmbedding(instance(i % 2, rnd)), "answer " + i % 2, Outcome.SUCCESS);
    }
    int right = 0;
    for (int e = 0; e < episodes; e++) {
      int kind = rnd.nextInt(2);
      float[] v = instance(kind, rnd);
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(v));
      if (r.selected().isEmpty()) {
        loop.reward("ns", r.id(), -1);
        afterReward.run();
        continue;
      }
      Memory first = r.selected().getFirst();
      boolean own = first.experience().equals("answer " + kind);
      loop.reward("ns", r.id(), own ? 1 : -1, List.of(first.id()));
      afterReward.run();
      if (own) {
        loop.remember("ns", Intent.ofEmbedding(v), "answer " + kind, Outcome.SUCCESS);
      }
      if (e >= episodes - judged) {
        right += own ? 1 : 0;
      }
    }
    return right;
  }

  private static MemLoop engine(InMemoryStore store, int directions) {
    return builder(store, directions).build();
  }

  private static MemLoop.Builder builder(InMemoryStore store, int directions) {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().similarityDirections(directions)
        .firstEncounterK1(8) // the recall this test was built on (the default's is wider)
        .doubt(MemLoopConfig.Doubt.OFF) // the learned similarity alone decides what goes first
        .directionsUse(MemLoopConfig.DirectionsUse.ALWAYS).build();
    return MemLoop.builder().store(store).config(config).clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z")))
        .seed(7);
  }

  /** The fit the ledger of {@code store} holds for namespace "ns". */
  private static Directions.Fit fitOf(InMemoryStore store) {
    java.util.Map<String, double[]> entries = new java.util.HashMap<>(store.ledger("ns", List.of(Directions.FIT_KEY)));
    entries.putAll(store.ledger("ns", Directions.directionKeys(entries.get(Directions.FIT_KEY))));
    return Directions.decode(entries, DIM);
  }

  /**
   * Refits on the background thread ({@link MemLoop.Builder#learnInBackground}), each awaited before the next
   * retrieval, are the refits made inside the rewards: the same fits at the same rewards, so the same selections.
   */
  @Test
  void backgroundRefits_awaitedAfterEachReward_makeTheSameSelectionsAndFitsAsRefitsInsideTheReward() {
    for (long seed = 1; seed <= 2; seed++) {
      InMemoryStore inside = new InMemoryStore(DIM);
      int insideRight = play(engine(inside, 4), 200, 200, seed);
      InMemoryStore behind = new InMemoryStore(DIM);
      MemLoop loop = builder(behind, 4).learnInBackground().build();
      int behindRight = play(loop, 200, 200, seed, loop::awaitLearning);
      assertThat(behindRight).as("seed %d", seed).isEqualTo(insideRight);
      assertThat(behind.ledger("ns", List.of(Directions.PAIRS_KEY)).get(Directions.PAIRS_KEY))
          .containsExactly(inside.ledger("ns", List.of(Directions.PAIRS_KEY)).get(Directions.PAIRS_KEY));
      Directions.Fit a = fitOf(inside);
      Directions.Fit b = fitOf(behind);
      assertThat(b.pairs()).isEqualTo(a.pairs());
      for (int e = 0; e < a.directions().length; e++) {
        assertThat(b.directions()[e]).containsExactly(a.directions()[e]);
      }
      loop.close();
    }
  }

  /**
   * Not awaited, background refits still land: rewards go on while a refit runs, the fit written is of a pair count
   * the ring reached, and close waits for the last one rather than dropping it or failing.
   */
  @Test
  void backgroundRefits_notAwaited_stillLand_andCloseWaitsForThem() {
    InMemoryStore store = new InMemoryStore(DIM);
    MemLoop loop = builder(store, 4).learnInBackground().build();
    play(loop, 300, 150, 3); // how well it learns depends on when each refit lands: the awaited test pins that
    loop.awaitLearning();
    double[] pairs = store.ledger("ns", List.of(Directions.PAIRS_KEY)).get(Directions.PAIRS_KEY);
    assertThat(pairs[1]).as("fitted").isPositive().isLessThanOrEqualTo(pairs[0]);
    assertThat(fitOf(store).pairs()).isEqualTo((long) pairs[1]);
    assertThat(fitOf(store).directions()).hasNumberOfRows(4);
    play(loop, 64, 1, 4); // more rewards, then close with a refit likely queued
    loop.close();
    org.assertj.core.api.Assertions.assertThatCode(loop::awaitLearning).as("nothing left to wait for once closed")
        .doesNotThrowAnyException();
  }

  @Test
  void newTasksSeeTheirOwnKindFirst_moreOftenOnceTheNamespaceHasLearnedItsSimilarity() {
    int plain = 0;
    int learned = 0;
    for (long seed = 1; seed <= 3; seed++) {
      plain += play(engine(new InMemoryStore(DIM), 0), 300, 150, seed);
      InMemoryStore store = new InMemoryStore(DIM);
      learned += play(engine(store, 4), 300, 150, seed);
      double[] pairs = store.ledger("ns", List.of(Directions.PAIRS_KEY)).get(Directions.PAIRS_KEY);
      assertThat(pairs[1]).as("fitted, at a multiple of the refit interval").isPositive();
      assertThat(pairs[1] % Directions.REFIT_EVERY).isZero();
      Directions.Fit fit = fitOf(store);
      assertThat(fit).isNotNull();
      assertThat(fit.directions()).hasNumberOfRows(4);
      try (MemLoop reader = engine(store, 4)) { // what an operator sees (stats, the inspector): read from the ledger
        Learned l = reader.learned("ns");
        assertThat(l.similarityPairs()).isEqualTo((long) pairs[0]);
        assertThat(l.similarityFittedAt()).isEqualTo((long) pairs[1]);
        assertThat(l.directionScales()).hasSize(4).allSatisfy(x -> assertThat(x).isGreaterThan(0).isLessThanOrEqualTo(1));
        assertThat(l.directionScales()).isSortedAccordingTo(java.util.Comparator.naturalOrder()); // most variance: most discounted
        assertThat(l.directionsVarianceShare()).isEqualTo(fit.varianceShare()).isBetween(0.0, 1.0);
      }
      assertThat(store.ledgerKeys("ns").stream().filter(k -> k.startsWith("x:")).count())
          .as("the ring holds one entry per successful pair, at most " + Directions.RING).isEqualTo(Math.min((long) pairs[0], Directions.RING));
    }
    assertThat(learned).as("own kind first in the last 150 of 300, three runs: learned %d, plain %d", learned, plain)
        .isGreaterThan(plain + 45);
  }

  @Test
  void offPolicyReplay_ranksALearnedSimilarityByTheLoggedOne_withoutFittingAgain() {
    assertThat(engine(new InMemoryStore(DIM), 4).learned("ns")).as("nothing learned yet")
        .returns(0L, Learned::similarityPairs).returns(List.of(), Learned::directionScales)
        .returns(null, Learned::directionsVarianceShare);
    // a log holds each candidate's similarity as the logging policy ranked by it (the learned one, where it learned
    // one): the replay of a configuration that learns one ranks by that, as the same configuration without it does
    MemLoopConfig learning = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().similarityDirections(8).build();
    OfflineLearning withIt = new OfflineLearning(learning);
    OfflineLearning without = new OfflineLearning(learning.toBuilder().similarityDirections(0).build());
    SplittableRandom rnd = new SplittableRandom(3);
    int shown = 0;
    for (int d = 0; d < 40; d++) {
      List<Candidate> pool = new java.util.ArrayList<>();
      java.util.Map<String, OfflineLearning.Known> known = new java.util.HashMap<>();
      for (int i = 0; i < 12; i++) {
        String id = "m" + (d * 12 + i);
        pool.add(new Candidate(id, 0.5 + 0.5 * rnd.nextDouble(), 0, 0, false, 0));
        known.put(id, new OfflineLearning.Known(rnd.nextBoolean() ? Outcome.SUCCESS : Outcome.FAILURE, "did " + id));
      }
      String task = "task " + rnd.nextInt(10);
      List<OfflineLearning.Choice> a = withIt.choose("ns", task, pool, known, learning);
      assertThat(a).isEqualTo(without.choose("ns", task, pool, known, learning));
      shown += a.getFirst().slate().isEmpty() ? 0 : 1; // a failing known task may be shown only its own record: none here
      double reward = rnd.nextBoolean() ? 1 : -1;
      withIt.learn(a.getFirst().slate(), a.getFirst().noteDepth(), reward, null, known);
      without.learn(a.getFirst().slate(), a.getFirst().noteDepth(), reward, null, known);
    }
    assertThat(shown).as("decisions that showed something").isGreaterThan(20);
  }
}
