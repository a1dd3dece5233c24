package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.MemLoopConfig;
import org.junit.jupiter.api.Test;

class ScoreTest {
  @Test
  void zScoreClipped_usesThePopulationStd_andClipsAtThree() {
    // mean 2.5, population std sqrt(1.25) (not the sample std sqrt(5/3))
    double[] z = Score.zScoreClipped(new double[] {1, 2, 3, 4});
    double std = Math.sqrt(1.25);
    assertThat(z).containsExactly((1 - 2.5) / std, (2 - 2.5) / std, (3 - 2.5) / std, (4 - 2.5) / std);
    double[] outlier = new double[11];
    outlier[10] = 1000; // (1000 - mean) / std = sqrt(10) > 3
    assertThat(Score.zScoreClipped(outlier)[10]).isEqualTo(3.0);
  }

  @Test
  void zScoreClipped_ofAConstant_isZero_notNaN() {
    assertThat(Score.zScoreClipped(new double[] {0.3, 0.3, 0.3})).containsExactly(0.0, 0.0, 0.0);
  }

  @Test
  void score_mixesNormalisedSimilarityAndQ_byLambda() {
    double[] sim = {0.9, 0.7};
    double[] q = {-1, 1};
    MemLoopConfig fixed = MemLoopConfig.builder().lambda(0.25)
        .similarityNormalization(MemLoopConfig.SimilarityNormalization.FIXED).simMean(0.5).simStd(0.2).build();
    // normSim = (0.9-0.5)/0.2, (0.7-0.5)/0.2; normQ = -1, 1 (z-scores of ±1)
    assertThat(Score.of(sim, q, fixed))
        .containsExactly(0.75 * ((0.9 - 0.5) / 0.2) + 0.25 * -1, 0.75 * ((0.7 - 0.5) / 0.2) + 0.25 * 1);
    MemLoopConfig pool = fixed.toBuilder().similarityNormalization(MemLoopConfig.SimilarityNormalization.POOL).build();
    assertThat(Score.of(sim, q, pool)).containsExactly(new double[] {0.75 * 1 + 0.25 * -1, 0.75 * -1 + 0.25 * 1}, within(1e-12));
  }
}
