package io.memloop.bench.ops;

import static io.memloop.bench.ops.CopyFirstPolicy.failureExperience;
import static io.memloop.bench.ops.CopyFirstPolicy.successExperience;
import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The frozen policy's reading rules, independent of any environment. */
class CopyFirstPolicyTest {
  private static final List<String> PROCEDURES = List.of("a", "b", "c", "d", "e");
  private static final CopyFirstPolicy NO_SLIP = new CopyFirstPolicy(0);

  private static String choose(List<Memory> shown, long seed) {
    return NO_SLIP.choose(PROCEDURES, shown, new SplittableRandom(seed));
  }

  @Test
  void experience_quotesItsProcedure() {
    assertThat(CopyFirstPolicy.quoted(successExperience("Do x.", "kubectl scale --replicas=4")))
        .contains("kubectl scale --replicas=4");
    assertThat(CopyFirstPolicy.quoted(failureExperience("Do x.", "b"))).contains("b");
    assertThat(CopyFirstPolicy.quoted("no procedure here")).isEmpty();
  }

  @Test
  void choose_copiesTheFirstSuccessShown() {
    List<Memory> shown = List.of(memory(successExperience("t", "c")), memory(successExperience("t", "a")));
    for (long seed = 0; seed < 50; seed++) {
      assertThat(choose(shown, seed)).isEqualTo("c");
    }
  }

  @Test
  void choose_skipsASuccessThatAHigherRankedFailureNoteContradicts() {
    List<Memory> shown =
        List.of(memory(failureExperience("t", "c")), memory(successExperience("t", "c")),
            memory(successExperience("t", "d")));
    assertThat(choose(shown, 1)).isEqualTo("d");
  }

  @Test
  void choose_withOnlyFailureNotes_guessesAmongTheOthers() {
    List<Memory> shown =
        List.of(memory(failureExperience("t", "a")), memory(failureExperience("t", "b")),
            memory(failureExperience("t", "c")), memory(failureExperience("t", "d")));
    for (long seed = 0; seed < 50; seed++) {
      assertThat(choose(shown, seed)).isEqualTo("e");
    }
  }

  @Test
  void choose_withEveryProcedureReportedWrong_guessesAmongAll() {
    List<Memory> shown = PROCEDURES.stream().map(p -> memory(failureExperience("t", p))).toList();
    assertThat(java.util.stream.LongStream.range(0, 200).mapToObj(s -> choose(shown, s)).distinct())
        .containsExactlyInAnyOrderElementsOf(PROCEDURES);
  }

  @Test
  void choose_ignoresExperiencesOfOtherKindsOfTask() {
    List<Memory> shown =
        List.of(memory(successExperience("other", "zz-not-a-procedure-here")), memory(successExperience("t", "b")));
    assertThat(choose(shown, 3)).isEqualTo("b");
  }

  @Test
  void choose_withSlips_sometimesIgnoresTheMemory() {
    CopyFirstPolicy policy = new CopyFirstPolicy(0.5);
    List<Memory> shown = List.of(memory(successExperience("t", "a")));
    SplittableRandom rnd = new SplittableRandom(11);
    int copied = 0;
    int n = 4000;
    for (int i = 0; i < n; i++) {
      copied += policy.choose(PROCEDURES, shown, rnd).equals("a") ? 1 : 0;
    }
    // P(a) = 0.5 (copy) + 0.5 · 1/5 (blind guess) = 0.6
    assertThat((double) copied / n).isBetween(0.56, 0.64);
  }
}
