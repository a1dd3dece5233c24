package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.IntentMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class RecallTest {
  private static IntentMatch match(String id, double similarity) {
    return new IntentMatch(id, similarity, List.of());
  }

  @Test
  void compare_putsTheMoreSimilarFirst_whateverTheSequence() {
    assertThat(Recall.compare(0.9, 50, 0.8, 1)).isNegative();
    assertThat(Recall.compare(0.8, 1, 0.9, 50)).isPositive();
  }

  @Test
  void compare_atEqualSimilarity_putsTheLowerSequenceFirst_andIsZeroOnlyForTheSameGroup() {
    assertThat(Recall.compare(0.7, 9, 0.7, 12)).isNegative();
    assertThat(Recall.compare(0.7, 12, 0.7, 9)).isPositive();
    assertThat(Recall.compare(0.7, 12, 0.7, 12)).isZero();
  }

  @Test
  void order_sortsByTheIdsSequenceNumber_notItsText() {
    List<IntentMatch> hits = new ArrayList<>(List.of(match("i12", 0.5), match("i9", 0.5), match("i100", 0.6)));
    hits.sort(Recall.ORDER);
    assertThat(hits).extracting(IntentMatch::intentId).containsExactly("i100", "i9", "i12");
  }

  @Test
  void order_putsAnIdOfAnotherFormAfterStoreIds_atTheSameSimilarity() {
    List<IntentMatch> hits = new ArrayList<>(List.of(match("x", 0.5), match("i3", 0.5), match("b", 0.5)));
    hits.sort(Recall.ORDER);
    assertThat(hits).extracting(IntentMatch::intentId).containsExactly("i3", "b", "x");
  }

  @Test
  void compare_isATotalOrderAgreeingWithAReferenceSort_onRandomTies() {
    SplittableRandom rnd = new SplittableRandom(26);
    for (int round = 0; round < 200; round++) {
      double[] sims = new double[8];
      long[] seqs = new long[8];
      for (int i = 0; i < 8; i++) {
        sims[i] = rnd.nextInt(3) / 4.0; // few distinct values: many exact ties
        seqs[i] = i * 7L + 1;
      }
      for (int a = 0; a < 8; a++) {
        for (int b = 0; b < 8; b++) {
          int c = Recall.compare(sims[a], seqs[a], sims[b], seqs[b]);
          int reference = sims[a] != sims[b] ? (sims[a] > sims[b] ? -1 : 1) : Long.signum(seqs[a] - seqs[b]);
          assertThat(Integer.signum(c)).isEqualTo(reference);
          assertThat(Integer.signum(Recall.compare(sims[b], seqs[b], sims[a], seqs[a]))).isEqualTo(-reference);
        }
      }
    }
  }
}
