package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.policy.DirectionsUse;
import io.memloop.policy.Doubt;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The two-armed records of the namespace-level draws ({@link Doubt#update}, {@link DirectionsUse#update}) against a
 * reference count: over seeded random streams of draws and rewards, each arm's episodes and summed reward are exact,
 * their means converge to each arm's true success rate, and the probability of the first arm stays in [0, 1], never
 * NaN, and ends on the better arm's side.
 */
class TwoArmedRecordTest {
  /** A draw's record update: the entry after one episode of {@code arm} rewarded {@code unit}. */
  private interface Update {
    double[] apply(double @Nullable [] entry, int arm, double unit);
  }

  /**
   * Checks {@code update} whose record holds {@code first} (the arm its probability is of) first, then {@code second};
   * the arms are 0 and 1.
   */
  private static void countsExactly_convergesToEachArmsRate_andLeansToTheBetterArm(Update update, int first, int second) {
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      double firstRate = rnd.nextDouble();
      double secondRate = rnd.nextDouble();
      double[] entry = null;
      long[] n = new long[2];
      double[] sum = new double[2];
      for (int i = 0; i < 4000; i++) {
        int arm = rnd.nextBoolean() ? first : second;
        double unit = rnd.nextDouble() < (arm == first ? firstRate : secondRate) ? 1 : 0;
        entry = update.apply(entry, arm, unit);
        n[arm]++;
        sum[arm] += unit;
        assertThat(TaskLedger.explorationProbability(entry)).isBetween(0.0, 1.0).isNotNaN();
      }
      assertThat(entry).containsExactly((double) n[first], sum[first], (double) n[second], sum[second]);
      assertThat(entry[1] / entry[0]).as("seed %d", seed).isCloseTo(firstRate, within(0.05));
      assertThat(entry[3] / entry[2]).as("seed %d", seed).isCloseTo(secondRate, within(0.05));
      double p = TaskLedger.explorationProbability(entry);
      if (firstRate > secondRate + 0.1) {
        assertThat(p).as("seed %d", seed).isGreaterThan(0.99);
      } else if (secondRate > firstRate + 0.1) {
        assertThat(p).as("seed %d", seed).isLessThan(0.01);
      }
    }
  }

  @Test
  void doubtsRecord_ofDemotedThenKept() {
    countsExactly_convergesToEachArmsRate_andLeansToTheBetterArm(Doubt::update, Doubt.DEMOTED, Doubt.KEPT);
  }

  @Test
  void directionsUsesRecord_ofLearnedThenCosine() {
    countsExactly_convergesToEachArmsRate_andLeansToTheBetterArm(
        DirectionsUse::update, DirectionsUse.LEARNED, DirectionsUse.COSINE);
  }
}
