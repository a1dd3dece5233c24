package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.MemLoopConfig;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ExploreTest {
  @Test
  void epsilon_isTheConfiguredOne_onlyUnderEpsilonGreedy() {
    MemLoopConfig greedy = MemLoopConfig.builder().exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.2).build();
    assertThat(Explore.epsilon(greedy)).isEqualTo(0.2);
    assertThat(Explore.epsilon(MemLoopConfig.builder().exploration(MemLoopConfig.Exploration.NONE).build())).isZero();
  }

  @Test
  void noEpsilon_orNoEligibleCandidate_drawsNothing() {
    boolean[] greedy = {true, false};
    assertThat(Explore.draw(new int[] {0, 1}, 2, 1, greedy, 0, Draws.NONE)).isSameAs(greedy);
    assertThat(Explore.draw(new int[] {0, 1}, 0, 0, greedy, 0.5, Draws.NONE)).isSameAs(greedy);
  }

  @Test
  void drawAboveEpsilon_keepsTheGreedySelection() {
    boolean[] greedy = {true, false};
    Draws.Fixed stay = new Draws.Fixed(0.5);
    assertThat(Explore.draw(new int[] {0, 1}, 2, 1, greedy, 0.3, stay)).isSameAs(greedy);
    assertThat(stay.doubles).isEqualTo(1);
  }

  @Test
  void uniformDraw_selectsTakeOfTheEligible_neverADroppedOne() {
    SplittableRandom rnd = new SplittableRandom(3);
    int[] order = {4, 2, 0, 3, 1}; // three eligible: 4, 2, 0
    boolean[] greedy = {false, false, true, false, true};
    int[] counts = new int[5];
    for (int t = 0; t < 30_000; t++) {
      boolean[] chosen = Explore.draw(order, 3, 2, greedy, 1.0, rnd);
      int n = 0;
      for (int i = 0; i < 5; i++) {
        if (chosen[i]) {
          n++;
          counts[i]++;
        }
      }
      assertThat(n).isEqualTo(2);
    }
    assertThat(counts[1]).isZero();
    assertThat(counts[3]).isZero();
    for (int i : new int[] {0, 2, 4}) {
      assertThat(counts[i] / 30_000.0).isCloseTo(2 / 3.0, within(0.01));
    }
  }

  @Test
  void inclusionProbabilities_sumToTheSelectionSize() {
    SplittableRandom rnd = new SplittableRandom(11);
    for (int trial = 0; trial < 1_000; trial++) {
      int m = rnd.nextInt(1, 20);
      int take = Math.min(rnd.nextInt(1, 8), m);
      double epsilon = rnd.nextDouble();
      double share = Explore.uniformShare(take, m);
      double sum = 0;
      for (int r = 0; r < m; r++) {
        sum += Explore.inclusion(epsilon, r < take ? 1 : 0, share);
      }
      assertThat(sum).isCloseTo(take, within(1e-9));
    }
    assertThat(Explore.uniformShare(0, 0)).isZero();
  }
}
