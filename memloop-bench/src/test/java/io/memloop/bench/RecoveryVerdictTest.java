package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Fewer episodes to recover is the good side: a difference wholly above zero is slower, not a gain. */
class RecoveryVerdictTest {

  @Test
  void moreEpisodesToRecoverIsSlower_fewerIsFaster_andAnIntervalAcrossZeroSaysNeither() {
    assertThat(new Headline.Difference(154, 63, 245, 3).recoveryVerdict()).isEqualTo("slower");
    assertThat(new Headline.Difference(-52, -90, -10, 3).recoveryVerdict()).isEqualTo("faster");
    assertThat(new Headline.Difference(-52, -216, 112, 3).recoveryVerdict()).isEqualTo("no clear difference");
    assertThat(new Headline.Difference(-52, Double.NaN, Double.NaN, 1).recoveryVerdict()).isEqualTo("one seed");
    // the success verdict keeps its sense
    assertThat(new Headline.Difference(154, 63, 245, 3).verdict()).isEqualTo("gain");
  }
}
