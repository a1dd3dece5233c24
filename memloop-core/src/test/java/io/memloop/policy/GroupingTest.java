package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.IntentMatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class GroupingTest {
  @Test
  void qualifies_atTheThresholdAndAbove_notBelow() {
    assertThat(Grouping.qualifies(0.9, 0.9)).isTrue();
    assertThat(Grouping.qualifies(0.95, 0.9)).isTrue();
    assertThat(Grouping.qualifies(Math.nextDown(0.9), 0.9)).isFalse();
  }

  @Test
  void prefers_theMoreSimilar_thenAtATieTheOlderGroup() {
    assertThat(Grouping.prefers(0.95, 40, 0.9, 3)).isTrue();
    assertThat(Grouping.prefers(0.9, 3, 0.95, 40)).isFalse();
    assertThat(Grouping.prefers(0.9, 3, 0.9, 40)).isTrue();
    assertThat(Grouping.prefers(0.9, 40, 0.9, 3)).isFalse();
    assertThat(Grouping.prefers(0.9, 3, 0.9, 3)).isFalse(); // the same group is no better than itself
  }

  @Test
  void join_takesTheNearestIfItQualifies_elseANewGroup() {
    assertThat(Grouping.join("i4", 0.91, 0.9)).isEqualTo("i4");
    assertThat(Grouping.join("i4", 0.89, 0.9)).isNull();
    assertThat(Grouping.join(null, 1.0, 0.9)).isNull();
  }

  @Test
  void join_ofARecall_looksAtItsFirstMatchOnly() {
    assertThat(Grouping.join(List.of(), 0.5)).isNull();
    assertThat(Grouping.join(List.of(new IntentMatch("i2", 0.8, List.of()), new IntentMatch("i1", 0.6, List.of())), 0.7))
        .isEqualTo("i2");
    assertThat(Grouping.join(List.of(new IntentMatch("i2", 0.6, List.of())), 0.7)).isNull();
  }
}
