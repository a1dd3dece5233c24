package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#textAlone()}: a task with no record of its own is ranked by the texts' similarity alone or by
 * the learned mix of the vectors' and the texts' ({@link MemLoopConfig#textSimilarity()}) on a draw, with the
 * probability that the texts alone pay in the namespace. A world of new tasks of two kinds (the alpha and the beta
 * cluster), each with its own way, where the words of a task's text name the other kind and the vectors tell (the mix
 * learns to trust the vectors, and the texts alone cost), and then the words name the task's own kind (the texts alone
 * pay, and the draw, whose record weighs older episodes down, follows). The arms' record is checked against a
 * reference in {@link TwoArmedRecordTest}.
 */
class TextAloneTest {
  /** A task's vector ({@link TextSimilarityTest#vector}), its own direction drawn from {@code rnd}. */
  private static float[] vector(double alpha, double beta, SplittableRandom rnd) {
    return TextSimilarityTest.vector(alpha, beta, rnd.nextInt(8));
  }

  private static MemLoop engine(MemLoopConfig.TextAlone alone, long seed) {
    return engine(alone, seed, MemLoopConfig.preset(Preset.DEFAULT).firstEncounterK2());
  }

  /**
   * The default's choices but {@code firstShown} shown to a new task (and at most that many to any), no learned
   * similarity, no freshness, no doubt.
   */
  private static MemLoop engine(MemLoopConfig.TextAlone alone, long seed, int firstShown) {
    MemLoopConfig config = MemLoopConfig.builder().similarityThreshold(-1).similarityDirections(0).freshness(0)
        .doubt(MemLoopConfig.Doubt.OFF).k2(Math.min(3, firstShown)).firstEncounterK2(firstShown).textAlone(alone).build();
    return TextSimilarityTest.engine(config, seed);
  }

  /**
   * Plays {@code episodes} new tasks, alpha and beta in turn; a task succeeds when the first memory shown is its own
   * kind's way, and the reward names that memory as used. Every third task is plain (its text names its kind and its
   * vector is nearer it); in the others the words point one way and the vectors, a little, the other. Returns the wins of the last {@code judged}.
   *
   * @param wordsTell whether the texts name the task's own kind (and the vectors lean to the other's), or the reverse
   */
  private static int play(MemLoop loop, boolean wordsTell, int episodes, int judged, long seed) {
    return play(loop, wordsTell, 0, episodes, judged, seed);
  }

  /** As above, the tasks numbered from {@code from} (a task's text names its number: every task is new). */
  private static int play(MemLoop loop, boolean wordsTell, int from, int episodes, int judged, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    int wins = 0;
    for (int e = 0; e < episodes; e++) {
      boolean alpha = e % 2 == 0;
      boolean plain = e % 3 == 2;
      String own = alpha ? "alpha" : "beta";
      String named = wordsTell || plain ? own : alpha ? "beta" : "alpha";
      double toOwn = plain ? 0.70 : wordsTell ? 0.62 : 0.66;
      double toOther = plain ? 0.55 : wordsTell ? 0.66 : 0.62;
      float[] v = alpha ? vector(toOwn, toOther, rnd) : vector(toOther, toOwn, rnd);
      Retrieval r = loop.retrieve("ns", Intent.of("restart the " + named + " cluster, request " + (from + e), v));
      Memory first = r.selected().getFirst();
      boolean win = first.experience().equals(own + "'s way");
      loop.reward("ns", r.id(), win ? 1 : -1, List.of(first.id()));
      wins += e >= episodes - judged && win ? 1 : 0;
    }
    return wins;
  }

  @Test
  void whereTheWordsMislead_theNamespaceLearnsToRankByTheMix() {
    for (long seed = 1; seed <= 3; seed++) {
      try (MemLoop learned = engine(MemLoopConfig.TextAlone.LEARNED, seed);
          MemLoop mixed = engine(MemLoopConfig.TextAlone.NEVER, seed)) {
        int byLearned = play(learned, false, 600, 200, seed);
        int byMix = play(mixed, false, 600, 200, seed);
        Learned l = learned.learned("ns");
        assertThat(l.textAlone() + l.textMixed()).as("draws").isPositive();
        assertThat(l.textAloneProbability()).as("seed %d", seed).isLessThan(0.05);
        assertThat(byMix).as("the world's premise: the mix learns to trust the vectors").isGreaterThan(190);
        assertThat(byLearned).as("seed %d, late wins against the mix's %d", seed, byMix).isGreaterThanOrEqualTo(byMix - 5);
        assertThat(mixed.learned("ns").textAloneProbability()).as("never: nothing drawn").isNull();
      }
    }
  }

  /**
   * The words misled for 3,000 episodes (the texts alone lost every draw), then the namespace changes and the words
   * tell: the texts alone win their draws again, their old record fades, and the draw moves to them.
   */
  @Test
  void whenTheWordsStartToTell_theDrawMovesToTheTextsAlone() {
    for (long seed = 1; seed <= 3; seed++) {
      try (MemLoop learned = engine(MemLoopConfig.TextAlone.LEARNED, seed);
          MemLoop mixed = engine(MemLoopConfig.TextAlone.NEVER, seed)) {
        play(learned, false, 3000, 0, seed);
        play(mixed, false, 3000, 0, seed);
        assertThat(learned.learned("ns").textAloneProbability()).as("seed %d, before", seed).isLessThan(0.05);
        int byLearned = play(learned, true, 3000, 800, 200, seed + 100);
        int byMix = play(mixed, true, 3000, 800, 200, seed + 100);
        Learned l = learned.learned("ns");
        assertThat(l.textAloneProbability()).as("seed %d, after", seed).isGreaterThan(0.95);
        assertThat(l.textAloneSuccessRate()).isGreaterThan(l.textMixedSuccessRate());
        assertThat(byLearned).as("seed %d, late wins against the mix's %d", seed, byMix).isGreaterThanOrEqualTo(byMix - 5);
      }
    }
  }

  /** The texts-alone draw's record as {@link Learned} shows it. */
  private static List<Object> arms(MemLoop loop) {
    Learned l = loop.learned("ns");
    return java.util.Arrays.asList(l.textAlone(), l.textAloneSuccessRate(), l.textMixed(), l.textMixedSuccessRate());
  }

  @Test
  void aDrawIsMadeOnlyForNewTasksWithTextWhereTheArmsDiffer_andTheCandidatesCarryItsProbabilities() {
    try (MemLoop loop = engine(MemLoopConfig.TextAlone.LEARNED, 9, 1)) { // one shown: the arms show different sets
      play(loop, false, 100, 0, 9);
      SplittableRandom rnd = new SplittableRandom(13);
      DrawChances chances = new DrawChances();
      for (int e = 0; e < 200; e++) {
        boolean alpha = e % 2 == 0;
        Retrieval r = loop.retrieve("ns", Intent.of("restart the " + (alpha ? "beta" : "alpha") + " cluster, ticket " + e,
            alpha ? vector(0.66, 0.62, rnd) : vector(0.62, 0.66, rnd)));
        Learned now = loop.learned("ns");
        // before any draw: ½ times the share of rewarded retrievals made by new tasks
        double p = now.textAloneProbability() != null ? now.textAloneProbability() : 0.5 * (1 - now.recurrence());
        List<Object> before = arms(loop);
        loop.reward("ns", r.id(), e % 3 == 0 ? 1 : -1, List.of(r.selected().getFirst().id()));
        boolean drew = !arms(loop).equals(before);
        chances.check(r, drew, p, e);
      }
      chances.assertDrawsOverSets();
      // a query without text, or a task with a record of its own, draws nothing
      List<Object> before = arms(loop);
      Retrieval vectorsOnly = loop.retrieve("ns", Intent.ofEmbedding(vector(0.66, 0.62, rnd)));
      loop.reward("ns", vectorsOnly.id(), 1, List.of(vectorsOnly.selected().getFirst().id()));
      assertThat(arms(loop)).as("a query without text: no draw").isEqualTo(before);
      Intent task = Intent.of("restart the beta cluster, ticket again", vector(0.66, 0.62, rnd));
      Retrieval once = loop.retrieve("ns", task);
      loop.reward("ns", once.id(), -1, List.of(once.selected().getFirst().id()));
      List<Object> between = arms(loop);
      Retrieval again = loop.retrieve("ns", task);
      loop.reward("ns", again.id(), -1, List.of(again.selected().getFirst().id()));
      assertThat(arms(loop)).as("the same task again has a record of its own: no draw").isEqualTo(between);
    }
  }
}
