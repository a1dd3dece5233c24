package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What the tests of a namespace-level two-armed draw on a new task ({@link DirectionsUseTest}, {@link TextAloneTest})
 * check of each retrieval: where it drew with probability {@code p}, a candidate shown by both arms has chance 1, by
 * neither 0, and by one arm only that arm's chance ({@code p} or {@code 1 − p}); where it did not draw (and nothing
 * else drew), every chance is 0 or 1. Counts the draws, and the draws whose arms showed different memories.
 */
final class DrawChances {
  int drawn;
  int drawnOverSets;

  /** Checks {@code r}, rewarded after the draw's record was read: {@code drew} whether that record changed. */
  void check(Retrieval r, boolean drew, double p, int episode) {
    boolean fractional = r.candidates().stream().anyMatch(c -> c.probability() > 1e-9 && c.probability() < 1 - 1e-9);
    if (drew) {
      drawn++;
      drawnOverSets += fractional ? 1 : 0;
      assertThat(r.candidates()).allSatisfy(c -> assertThat(c.probability()).satisfiesAnyOf(
          x -> assertThat(x).isCloseTo(0, within(1e-9)), x -> assertThat(x).isCloseTo(1, within(1e-9)),
          x -> assertThat(x).isCloseTo(p, within(1e-9)), x -> assertThat(x).isCloseTo(1 - p, within(1e-9))));
    } else {
      assertThat(fractional).as("no draw (no doubt, no exploration): every chance 0 or 1 (episode %d)", episode).isFalse();
    }
  }

  /** That some retrievals drew, and some of those showed different memories by their two arms. */
  void assertDrawsOverSets() {
    assertThat(drawn).as("draws").isPositive();
    assertThat(drawnOverSets).as("draws where the arms show different memories").isPositive();
  }
}
