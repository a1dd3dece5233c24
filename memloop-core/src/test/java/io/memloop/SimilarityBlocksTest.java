package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.embed.Embedder;
import io.memloop.store.InMemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#similarityBlocks()} at the engine: vectors made of two models' blocks. New tasks come in two
 * kinds: the look-alike's own kind, which its success solves, and another, which the helper's success solves. For the
 * other kind the first model ranks the look-alike's success above the helper and the second model ranks them the other
 * way. New tasks of that kind fail on the look-alike until the namespace has learned, from the rewards of both kinds,
 * to trust the second block; then they are shown the helper first. Without blocks, nothing carries from one new task
 * to the next.
 */
class SimilarityBlocksTest {
  private static final int BLOCK = 4;

  /** Two unit blocks, each scaled by 1/√2, as a concatenating embedder makes them. */
  private static float[] vector(double[] first, double[] second) {
    float[] v = new float[2 * BLOCK];
    double[][] blocks = {first, second};
    for (int b = 0; b < 2; b++) {
      double norm = 0;
      for (double x : blocks[b]) {
        norm += x * x;
      }
      for (int j = 0; j < BLOCK; j++) {
        v[b * BLOCK + j] = (float) (blocks[b][j] / Math.sqrt(norm) / Math.sqrt(2));
      }
    }
    return v;
  }

  /** A new task of the helper's kind. */
  private static final float[] QUERY = vector(new double[] {1, 0, 0, 0}, new double[] {1, 0, 0, 0});
  /** The look-alike: nearer in the first block (0.97 against 0.70), farther in the second (0.72 against 0.95). */
  private static final float[] LOOK_ALIKE = vector(new double[] {0.97, 0.243, 0, 0}, new double[] {0.72, 0, 0.694, 0});
  private static final float[] HELPER = vector(new double[] {0.70, 0, 0, 0.714}, new double[] {0.95, 0.312, 0, 0});
  private static final float[] OTHER_1 = vector(new double[] {0.6, 0, 0.8, 0}, new double[] {0.6, 0, 0, 0.8});
  private static final float[] OTHER_2 = vector(new double[] {0.55, 0, 0, 0.835}, new double[] {0.55, 0.835, 0, 0});
  /** A new task of the look-alike's kind: its nearest memory in both blocks is the look-alike's. */
  private static final float[] LOOK_ALIKE_KIND = vector(new double[] {0.97, 0.2, 0, 0.1}, new double[] {0.72, 0, 0.65, 0.1});

  /** A two-model embedder of fixed vectors: a new task of either kind asks its kind's query, in its own words. */
  private static final class TwoModels implements Embedder {
    private final Map<String, float[]> known = Map.of(
        "the look-alike task", LOOK_ALIKE, "the task the helper solved", HELPER,
        "another task", OTHER_1, "a third task", OTHER_2);

    @Override
    public int dimension() {
      return 2 * BLOCK;
    }

    @Override
    public String modelId() {
      return "dense+lexical";
    }

    @Override
    public List<float[]> embedAll(List<String> texts) {
      List<float[]> out = new ArrayList<>();
      for (String t : texts) {
        out.add(known.getOrDefault(t, t.startsWith("look-alike kind") ? LOOK_ALIKE_KIND : QUERY).clone());
      }
      return out;
    }

    @Override
    public int blocks() {
      return 2;
    }
  }

  private static MemLoop engine(MemLoopConfig config) {
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(2 * BLOCK)).embedder(new TwoModels()).config(config).seed(3)
        .build();
    loop.remember("ns", Intent.ofText("the look-alike task"), "the look-alike's way", Outcome.SUCCESS);
    loop.remember("ns", Intent.ofText("the task the helper solved"), "the way that helps", Outcome.SUCCESS);
    loop.remember("ns", Intent.ofText("another task"), "another way", Outcome.SUCCESS);
    loop.remember("ns", Intent.ofText("a third task"), "a third way", Outcome.SUCCESS);
    return loop;
  }

  /**
   * {@code rounds} pairs of new tasks, one of each kind, each rewarded as the agent would fare copying the first success
   * shown: success with its kind's memory, failure with anything else. Returns what the next new task of the helper's
   * kind is shown first.
   */
  private static String afterRounds(MemLoop loop, int rounds) {
    for (int i = 0; i < rounds; i++) {
      Retrieval r = loop.retrieve("ns", Intent.ofText("new task " + i));
      loop.reward("ns", r.id(), r.selected().get(0).experience().equals("the way that helps") ? 1 : -1);
      r = loop.retrieve("ns", Intent.ofText("look-alike kind, new task " + i));
      loop.reward("ns", r.id(), r.selected().get(0).experience().equals("the look-alike's way") ? 1 : -1);
    }
    return loop.retrieve("ns", Intent.ofText("yet another new task")).selected().get(0).experience();
  }

  @Test
  void beforeAnyReward_theWholeVectorsCosine_putsTheLookAlikeFirst() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      assertThat(afterRounds(loop, 0)).isEqualTo("the look-alike's way");
      assertThat(loop.learned("ns").blockWeights()).containsExactly(0.5, 0.5);
      assertThat(loop.learned("ns").recurrence()).isNull();
      assertThat(loop.explain("ns", Intent.ofText("a new task")).steps().get(0).detail())
          .contains("the vectors are 2 blocks").contains("weights 0.5, 0.5");
    }
  }

  @Test
  void newTasksFailingOnTheLookAlike_teachTheNamespaceToTrustTheSecondBlock() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) { // similarityBlocks 0: the embedder's two
      assertThat(afterRounds(loop, 30)).isEqualTo("the way that helps");
      String detail = loop.explain("ns", Intent.ofText("a new task")).steps().get(0).detail();
      assertThat(detail).contains("the vectors are 2 blocks");
      double second = Double.parseDouble(detail.substring(detail.lastIndexOf(", ") + 2));
      assertThat(second).isGreaterThan(0.9);
      Learned learned = loop.learned("ns");
      assertThat(learned.blockWeights()).hasSize(2);
      assertThat(learned.blockWeights().get(1)).isEqualTo(second, org.assertj.core.api.Assertions.within(1e-3));
      assertThat(learned.blockUpdates()).isEqualTo(60); // every reward credited a shown success
      assertThat(learned.recurrence()).isLessThan(0.05); // every task was new
    }
  }

  @Test
  void withoutBlocks_nothingCarriesFromOneNewTaskToTheNext() {
    try (MemLoop loop = engine(MemLoopConfig.builder().similarityBlocks(1)
        .textSimilarity(MemLoopConfig.TextSimilarity.OFF).build())) { // one block, and not the texts' words either
      assertThat(afterRounds(loop, 30)).isEqualTo("the look-alike's way");
      assertThat(loop.explain("ns", Intent.ofText("a new task")).steps().get(0).detail()).doesNotContain("blocks");
    }
  }

  @Test
  void withoutPerTaskLearning_blocksAreNotWeighed() {
    MemLoopConfig memrl = MemLoopConfig.preset(Preset.MEMRL);
    try (MemLoop loop = engine(memrl.toBuilder().lambda(0).build())) {
      assertThat(afterRounds(loop, 30)).isEqualTo("the look-alike's way");
    }
  }
}
