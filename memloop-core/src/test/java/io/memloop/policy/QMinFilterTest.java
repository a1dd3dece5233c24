package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QMinFilterTest {
  @Test
  void belowQMin_goesAfterEveryEligible_bothSidesInTheirOrder() {
    double[] q = {0, -11, 5, -20, -10};
    int[] order = {3, 2, 1, 0, 4};
    int m = QMinFilter.apply(order, q, -10);
    assertThat(m).isEqualTo(3);
    assertThat(order).containsExactly(2, 0, 4, 3, 1); // q = qMin is eligible
  }

  @Test
  void nanQ_isDropped() {
    int[] order = {0, 1};
    assertThat(QMinFilter.apply(order, new double[] {Double.NaN, 0}, -10)).isEqualTo(1);
    assertThat(order).containsExactly(1, 0);
  }

  @Test
  void nothingEligible_leavesTheOrder() {
    int[] order = {1, 0};
    assertThat(QMinFilter.apply(order, new double[] {-50, -60}, 0)).isZero();
    assertThat(order).containsExactly(1, 0);
  }
}
