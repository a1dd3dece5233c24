package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.policy.DirectionsUse;
import io.memloop.policy.Doubt;
import io.memloop.policy.TextAlone;
import java.util.SplittableRandom;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The two-armed records of the namespace-level draws ({@link Doubt#update}, {@link DirectionsUse#update},
 * {@link TextAlone#update}), each of which weighs every episode down by each later one, against a reference of weighted
 * counts: over seeded random streams of draws and rewards, each arm's weighted episodes and summed reward are exact and
 * bounded by the window kept, their means track each arm's true success rate, also after the rates change, and the
 * probability of the first arm stays in [0, 1], never NaN, and ends on the better arm's side; an arm that is no longer
 * drawn loses its weight, so its early rate no longer rules it out.
 */
class TwoArmedRecordTest {
  /** The weight a record leaves on what it holds before each episode. */
  private static final double KEEP = 1 - 1.0 / 256;

  /** A draw's record update: the entry after one episode of {@code arm} rewarded {@code unit}. */
  private interface Update {
    double[] apply(double @Nullable [] entry, int arm, double unit);
  }

  /**
   * Checks {@code update} whose record holds {@code first} (the arm its probability is of) first, then {@code second};
   * the arms are 0 and 1.
   */
  private static void weighsExactly_tracksEachArmsRate_andLeansToTheBetterArm(Update update, int first, int second) {
    for (long seed = 1; seed <= 40; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      double firstRate = rnd.nextDouble();
      double secondRate = rnd.nextDouble();
      double[] entry = null;
      double[] reference = new double[4];
      for (int i = 0; i < 6000; i++) {
        if (i == 3000) { // the namespace changes: the arms swap rates
          double t = firstRate;
          firstRate = secondRate;
          secondRate = t;
        }
        int arm = rnd.nextBoolean() ? first : second;
        double unit = rnd.nextDouble() < (arm == first ? firstRate : secondRate) ? 1 : 0;
        entry = update.apply(entry, arm, unit);
        for (int k = 0; k < 4; k++) {
          reference[k] *= KEEP;
        }
        reference[arm == first ? 0 : 2]++;
        reference[arm == first ? 1 : 3] += unit;
        assertThat(TaskLedger.explorationProbability(entry)).isBetween(0.0, 1.0).isNotNaN();
        assertThat(entry[0] + entry[2]).as("bounded by the window").isLessThanOrEqualTo(1 / (1 - KEEP) + 1e-9);
      }
      for (int k = 0; k < 4; k++) {
        assertThat(entry[k]).as("seed %d, entry %d", seed, k).isCloseTo(reference[k], within(1e-9 * (1 + reference[k])));
      }
      // after the change the record holds the new rates (about 128 weighted episodes per arm)
      assertThat(entry[1] / entry[0]).as("seed %d", seed).isCloseTo(firstRate, within(0.15));
      assertThat(entry[3] / entry[2]).as("seed %d", seed).isCloseTo(secondRate, within(0.15));
      double p = TaskLedger.explorationProbability(entry);
      if (firstRate > secondRate + 0.2) {
        assertThat(p).as("seed %d", seed).isGreaterThan(0.95);
      } else if (secondRate > firstRate + 0.2) {
        assertThat(p).as("seed %d", seed).isLessThan(0.05);
      }
    }
  }

  /** The second arm loses its early draws, then only the first is drawn: the second's weight and verdict fade. */
  private static void anArmNoLongerDrawn_losesItsWeight(Update update, int first, int second) {
    double[] entry = null;
    for (int i = 0; i < 20; i++) {
      entry = update.apply(entry, second, 0);
    }
    for (int i = 0; i < 20; i++) {
      entry = update.apply(entry, first, 1);
    }
    assertThat(TaskLedger.explorationProbability(entry)).isGreaterThan(0.99);
    for (int i = 0; i < 2000; i++) { // the first arm, drawn at a rate of 0.6
      entry = update.apply(entry, first, i % 5 < 3 ? 1 : 0);
    }
    assertThat(entry[2]).as("the second arm's early episodes, weighed down").isLessThan(0.01);
    assertThat(TaskLedger.explorationProbability(entry)).as("its early rate no longer rules it out").isLessThan(0.9);
  }

  @Test
  void doubtsRecord_ofDemotedThenKept() {
    weighsExactly_tracksEachArmsRate_andLeansToTheBetterArm(Doubt::update, Doubt.DEMOTED, Doubt.KEPT);
    anArmNoLongerDrawn_losesItsWeight(Doubt::update, Doubt.DEMOTED, Doubt.KEPT);
  }

  @Test
  void directionsUsesRecord_ofLearnedThenCosine() {
    weighsExactly_tracksEachArmsRate_andLeansToTheBetterArm(
        DirectionsUse::update, DirectionsUse.LEARNED, DirectionsUse.COSINE);
    anArmNoLongerDrawn_losesItsWeight(DirectionsUse::update, DirectionsUse.LEARNED, DirectionsUse.COSINE);
  }

  @Test
  void textAlonesRecord_ofAloneThenMixed() {
    weighsExactly_tracksEachArmsRate_andLeansToTheBetterArm(TextAlone::update, TextAlone.ALONE, TextAlone.MIXED);
    anArmNoLongerDrawn_losesItsWeight(TextAlone::update, TextAlone.ALONE, TextAlone.MIXED);
  }
}
