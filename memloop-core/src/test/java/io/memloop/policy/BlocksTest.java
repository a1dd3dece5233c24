package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.Candidate;
import io.memloop.store.Annotations;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Blocks}' learning rule against a reference model (the sums written out over the whole history), its bounds,
 * and what it converges to on seeded random stationary streams: the block whose ranking foretells success, equal
 * weights where none does — even where most episodes fail and one block is always the one that chose.
 */
class BlocksTest {

  /** One rewarded retrieval: the reward in [0, 1] and the credited memory's z-scored block cosines. */
  private record Step(double unit, double[] z) {}

  /**
   * The reference: G_b = Σ_t (u_t − ū_{t−1}) z_tb, S = Σ_t Σ_b (g_tb − mean_b g_tb)², z_b = (G_b − mean G) / √(1 + S/B),
   * weights softmax(2 · sign(z_b) · max(0, |z_b| − 2)).
   */
  private static double[] referenceWeights(List<Step> history, int blocks) {
    double[] g = new double[blocks];
    double s = 0;
    double sumU = 0;
    for (int t = 0; t < history.size(); t++) {
      double baseline = t == 0 ? 0.5 : sumU / t;
      double[] gt = new double[blocks];
      double mean = 0;
      for (int b = 0; b < blocks; b++) {
        gt[b] = (history.get(t).unit() - baseline) * history.get(t).z()[b];
        mean += gt[b];
      }
      mean /= blocks;
      for (int b = 0; b < blocks; b++) {
        g[b] += gt[b];
        s += (gt[b] - mean) * (gt[b] - mean);
      }
      sumU += history.get(t).unit();
    }
    double meanG = 0;
    for (double v : g) {
      meanG += v / blocks;
    }
    double norm = 0;
    double[] w = new double[blocks];
    for (int b = 0; b < blocks; b++) {
      double z = (g[b] - meanG) / Math.sqrt(1 + s / blocks);
      w[b] = Math.exp(2 * Math.signum(z) * Math.max(0, Math.abs(z) - 2));
      norm += w[b];
    }
    for (int b = 0; b < blocks; b++) {
      w[b] /= norm;
    }
    return w;
  }

  private static double clippedGaussian(SplittableRandom rnd) {
    double u1 = rnd.nextDouble();
    double u2 = rnd.nextDouble();
    double z = Math.sqrt(-2 * Math.log(1 - u1)) * Math.cos(2 * Math.PI * u2);
    return Math.max(-Score.Z_CLIP, Math.min(Score.Z_CLIP, z));
  }

  @Test
  void noEvidence_equalWeights() {
    assertThat(Blocks.weights(null, 2)).containsExactly(0.5, 0.5);
    assertThat(Blocks.weights(new double[] {1, 2}, 3)).containsExactly(1.0 / 3, 1.0 / 3, 1.0 / 3); // another layout
  }

  @Test
  void theRule_matchesTheReference_andStaysAProbabilityVector_overRandomHistories() {
    SplittableRandom seeds = new SplittableRandom(20261127);
    for (int run = 0; run < 300; run++) {
      SplittableRandom rnd = seeds.split();
      int blocks = 2 + rnd.nextInt(3);
      int steps = rnd.nextInt(400);
      List<Step> history = new ArrayList<>();
      double[] entry = null;
      for (int t = 0; t < steps; t++) {
        double[] z = new double[blocks];
        for (int b = 0; b < blocks; b++) {
          z[b] = rnd.nextInt(10) == 0 ? (rnd.nextBoolean() ? Score.Z_CLIP : -Score.Z_CLIP) : clippedGaussian(rnd);
        }
        double unit = rnd.nextInt(3) == 0 ? rnd.nextDouble() : rnd.nextInt(2);
        history.add(new Step(unit, z));
        entry = Blocks.update(entry, unit, z);
        double[] w = Blocks.weights(entry, blocks);
        double sum = 0;
        for (double v : w) {
          assertThat(v).isFinite().isBetween(0.0, 1.0);
          sum += v;
        }
        assertThat(sum).isCloseTo(1, within(1e-12));
      }
      double[] expected = referenceWeights(history, blocks);
      double[] actual = Blocks.weights(entry, blocks);
      for (int b = 0; b < blocks; b++) {
        assertThat(actual[b]).as("run %d block %d", run, b).isCloseTo(expected[b], within(1e-9));
      }
      if (entry != null) {
        assertThat(entry[0]).isEqualTo(steps);
        assertThat(entry[2]).isNotNegative();
      }
    }
  }

  @Test
  void swappingTheBlocks_swapsTheWeights() {
    SplittableRandom rnd = new SplittableRandom(5);
    double[] a = null;
    double[] b = null;
    for (int t = 0; t < 200; t++) {
      double z0 = clippedGaussian(rnd);
      double z1 = clippedGaussian(rnd);
      double unit = rnd.nextInt(2);
      a = Blocks.update(a, unit, new double[] {z0, z1});
      b = Blocks.update(b, unit, new double[] {z1, z0});
    }
    double[] wa = Blocks.weights(a, 2);
    double[] wb = Blocks.weights(b, 2);
    assertThat(wa[0]).isCloseTo(wb[1], within(1e-12));
    assertThat(wa[1]).isCloseTo(wb[0], within(1e-12));
  }

  /**
   * A stationary stream where success follows how high block {@code informative}'s ranking put the credited memory
   * (logistic in its z, slope {@code slope}; 0: success is a coin of {@code base}), and the credited memory was chosen
   * by block 0 ({@code z_0} shifted up by {@code chooserBias}).
   */
  private static double finalWeight(long seed, int informative, double slope, double base, double chooserBias, int steps) {
    SplittableRandom rnd = new SplittableRandom(seed);
    double[] entry = null;
    for (int t = 0; t < steps; t++) {
      double[] z = {Math.min(Score.Z_CLIP, clippedGaussian(rnd) + chooserBias), clippedGaussian(rnd)};
      double logit = Math.log(base / (1 - base)) + slope * z[informative];
      double unit = rnd.nextDouble() < 1 / (1 + Math.exp(-logit)) ? 1 : 0;
      entry = Blocks.update(entry, unit, z);
    }
    return Blocks.weights(entry, 2)[informative];
  }

  @Test
  void onAStationaryStream_theBlockThatForetellsSuccess_isTrustedNearlyAlone() {
    for (int informative = 0; informative < 2; informative++) {
      for (long seed = 1; seed <= 20; seed++) {
        assertThat(finalWeight(seed, informative, 1.0, 0.3, 0, 1000)).as("seed %d", seed).isGreaterThan(0.9);
        // rare success, and block 0 is the one that chose: the informative block still wins
        assertThat(finalWeight(seed, informative, 1.0, 0.1, 1.0, 2000)).as("seed %d, rare", seed).isGreaterThan(0.8);
      }
    }
  }

  @Test
  void whereNoBlockForetellsSuccess_neitherIsTrusted_evenWhenOneAlwaysChoseAndMostEpisodesFail() {
    double sum = 0;
    int seeds = 40;
    for (long seed = 1; seed <= seeds; seed++) {
      double w = finalWeight(seed, 0, 0, 0.1, 1.0, 2000);
      assertThat(w).isFinite().isBetween(0.0, 1.0);
      sum += w;
    }
    // Without the running-mean baseline, every failure (nine in ten) would blame block 0, which chose: weight near 0.
    assertThat(sum / seeds).isBetween(0.35, 0.65);
  }

  @Test
  void theAnnotation_keepsTheSelectedScores_andGivesTheCreditedMean() {
    List<Candidate> candidates = List.of(
        new Candidate("a", 0.9, 0, 1, true, 1), new Candidate("b", 0.8, 0, 0.5, false, 0),
        new Candidate("c", 0.7, 0, 0.2, true, 1));
    Annotations kept = Blocks.into(Annotations.EMPTY, List.of(new double[] {1, -1}, new double[] {0.5, 2}), 2);
    assertThat(Blocks.creditedZ(kept, candidates, List.of("c"))).containsExactly(0.5, 2.0);
    assertThat(Blocks.creditedZ(kept, candidates, List.of("a", "c"))).containsExactly(0.75, 0.5);
    assertThat(Blocks.creditedZ(kept, candidates, List.of("b"))).isNull(); // not selected: not the blocks' doing
    assertThat(Blocks.creditedZ(kept, candidates, List.of())).isNull();
    assertThat(Blocks.creditedZ(Annotations.EMPTY, candidates, List.of("a"))).isNull();
    Annotations truncated = Annotations.EMPTY.with(Blocks.ANNOTATION, Blocks.VERSION, new byte[] {2, 0, 0});
    assertThatThrownBy(() -> Blocks.creditedZ(truncated, candidates, List.of("a")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("'blocks'");
    Annotations newer = Annotations.EMPTY.with(Blocks.ANNOTATION, Blocks.VERSION + 1, new byte[] {2});
    assertThatThrownBy(() -> Blocks.creditedZ(newer, candidates, List.of("a")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("version");
  }
}
