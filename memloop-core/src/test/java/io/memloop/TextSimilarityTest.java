package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#textSimilarity()}: a task with no record of its own is ranked by the vectors' similarity and
 * the words its text shares with each memory's intent, weighed by what the namespace's rewards taught it. The world:
 * two kinds of task (the alpha and the beta cluster) and a third memory far from both; the vectors put each new task
 * nearer the other kind's memory (a dense model that hardly moves for the one word that tells them apart), or, in the
 * second world, the texts do.
 */
class TextSimilarityTest {
  private static final int DIM = 16;

  /** A task's vector: {@code alpha} and {@code beta} its cosines to the alpha and beta clusters' memories. */
  static float[] vector(double alpha, double beta, int round) {
    float[] v = new float[DIM];
    v[1] = (float) alpha;
    v[2] = (float) beta;
    v[3] = 0.2f;
    v[5 + round % 8] = 0.1f; // each task its own vector
    double rest = 1 - alpha * alpha - beta * beta - 0.04 - 0.01;
    v[4] = (float) Math.sqrt(rest);
    return v;
  }

  private static float[] axis(int i) {
    float[] v = new float[DIM];
    v[i] = 1;
    return v;
  }

  private static MemLoop engine(MemLoopConfig config) {
    return engine(config, 3);
  }

  /** An engine seeded {@code seed} holding the alpha, beta and gamma clusters' ways (also {@link TextAloneTest}'s). */
  static MemLoop engine(MemLoopConfig config, long seed) {
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(config).seed(seed).build();
    loop.remember("ns", Intent.of("restart the alpha cluster", axis(1)), "alpha's way", Outcome.SUCCESS);
    loop.remember("ns", Intent.of("restart the beta cluster", axis(2)), "beta's way", Outcome.SUCCESS);
    loop.remember("ns", Intent.of("restart the gamma cluster", axis(3)), "gamma's way", Outcome.SUCCESS);
    return loop;
  }

  /**
   * Every memory above the gate, the cosine of the vectors (no similarity learned from them), and no newer-first
   * order where a success has gone stale (the three memories are as old as each other).
   */
  private static MemLoopConfig config(MemLoopConfig.TextSimilarity text) {
    // the mix's weights as they learn, without the draw of the texts alone (TextAloneTest)
    return MemLoopConfig.builder().similarityThreshold(-1).similarityDirections(0).freshness(0).textSimilarity(text)
        .textAlone(MemLoopConfig.TextAlone.NEVER).build();
  }

  private static String first(MemLoop loop, Intent task) {
    return loop.retrieve("ns", task).selected().get(0).experience();
  }

  @Test
  void aNewTask_weighsTheWordsItShares_asMuchAsTheVectors_beforeAnyReward() {
    Intent task = Intent.of("restart the alpha cluster now", vector(0.62, 0.66, 0)); // nearer beta by its vector
    try (MemLoop loop = engine(config(MemLoopConfig.TextSimilarity.LEARNED))) {
      String detail = loop.explain("ns", task).steps().get(0).detail();
      assertThat(detail).contains("weights 0.5 (vectors) and 0.5 (texts)");
      assertThat(first(loop, task)).isEqualTo("alpha's way");
      assertThat(loop.learned("ns").textWeights()).containsExactly(0.5, 0.5);
      // a query given without text keeps the vectors' similarity
      Intent vectorOnly = Intent.ofEmbedding(vector(0.62, 0.66, 1));
      assertThat(loop.explain("ns", vectorOnly).steps().get(0).detail()).doesNotContain("texts");
      assertThat(first(loop, vectorOnly)).isEqualTo("beta's way");
    }
    try (MemLoop off = engine(config(MemLoopConfig.TextSimilarity.OFF))) {
      assertThat(first(off, task)).isEqualTo("beta's way");
      assertThat(off.explain("ns", task).steps().get(0).detail()).doesNotContain("texts");
      assertThat(off.learned("ns").textWeights()).isEmpty();
    }
  }

  /**
   * Rounds of new tasks, alpha and beta in turn; a task succeeds when the first memory shown is its own kind's way.
   * Every third task is plain (its text names its kind and its vector is nearer it: either similarity finds it); in
   * the others one of the two points at the other kind.
   *
   * @param textsTell whether the texts name the task's own kind (and the vectors are nearer the other's), or the
   *     other way round
   * @param from the first round's number (each round's task is new)
   * @return how many of the last ten rounds succeeded
   */
  private static int rounds(MemLoop loop, int from, int n, boolean textsTell) {
    int lastTen = 0;
    for (int i = from; i < from + n; i++) {
      boolean alpha = i % 2 == 0;
      boolean plain = i % 3 == 2;
      String own = alpha ? "alpha" : "beta";
      String other = alpha ? "beta" : "alpha";
      String named = textsTell || plain ? own : other;
      double toOwn = plain ? 0.70 : textsTell ? 0.62 : 0.66;
      double toOther = plain ? 0.55 : textsTell ? 0.66 : 0.62;
      float[] v = alpha ? vector(toOwn, toOther, i) : vector(toOther, toOwn, i);
      Retrieval r = loop.retrieve("ns", Intent.of("restart the " + named + " cluster, request " + i, v));
      boolean success = r.selected().get(0).experience().equals(own + "'s way");
      loop.reward("ns", r.id(), success ? 1 : -1);
      if (i >= from + n - 10) {
        lastTen += success ? 1 : 0;
      }
    }
    return lastTen;
  }

  @Test
  void whereTheWordsTellTheKinds_theTextsFindWhatTheVectorsMiss_andKeepTheirTrust() {
    try (MemLoop loop = engine(config(MemLoopConfig.TextSimilarity.LEARNED))) {
      assertThat(rounds(loop, 0, 60, true)).isEqualTo(10);
      Learned learned = loop.learned("ns");
      assertThat(learned.textWeights()).hasSize(2);
      assertThat(learned.textWeights().get(1)).isGreaterThanOrEqualTo(0.5); // every task succeeds: no evidence against
      assertThat(learned.textUpdates()).isEqualTo(60); // every reward credited the first success shown
    }
    try (MemLoop off = engine(config(MemLoopConfig.TextSimilarity.OFF))) {
      // by the vectors alone, only the plain tasks succeed
      assertThat(rounds(off, 0, 60, true)).isEqualTo(4);
    }
  }

  @Test
  void whereTheWordsMislead_theNamespaceLearnsToTrustTheVectors() {
    try (MemLoop loop = engine(config(MemLoopConfig.TextSimilarity.LEARNED))) {
      assertThat(rounds(loop, 0, 12, false)).isEqualTo(4); // equal weights: the texts' look-alike goes first
      int lastTen = rounds(loop, 12, 200, false);
      Learned learned = loop.learned("ns");
      assertThat(learned.textWeights().get(0)).isGreaterThan(0.9);
      assertThat(learned.textUpdates()).isEqualTo(212);
      assertThat(lastTen).isEqualTo(10);
      assertThat(loop.explain("ns", Intent.of("restart the beta cluster again", vector(0.66, 0.62, 3))).steps().get(0)
          .detail()).contains("(vectors) and").contains("(texts)");
    }
  }

  @Test
  void vectorsThatAreTheTextsOwn_areNotMixedWithThemselves() {
    String text = "restart the alpha cluster now";
    float[] lexical = io.memloop.policy.TextChannel.vector(text, 384);
    assertThat(io.memloop.policy.TextChannel.isTheVector(text, lexical)).isTrue();
    float[] other = io.memloop.policy.TextChannel.vector("a different request altogether", 384);
    assertThat(io.memloop.policy.TextChannel.isTheVector(text, other)).isFalse();
    assertThat(io.memloop.policy.TextChannel.isTheVector(text, vector(0.6, 0.6, 0))).isFalse(); // another dimension
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(384)).config(config(MemLoopConfig.TextSimilarity.LEARNED))
        .seed(3).build()) {
      for (String s : List.of("restart the alpha cluster", "restart the beta cluster")) {
        loop.remember("ns", Intent.of(s, io.memloop.policy.TextChannel.vector(s, 384)), s + ": done", Outcome.SUCCESS);
      }
      assertThat(loop.explain("ns", Intent.of(text, lexical)).steps().get(0).detail()).doesNotContain("texts");
      Retrieval r = loop.retrieve("ns", Intent.of(text, lexical));
      loop.reward("ns", r.id(), 1);
      assertThat(loop.learned("ns").textUpdates()).isZero();
    }
  }
}
