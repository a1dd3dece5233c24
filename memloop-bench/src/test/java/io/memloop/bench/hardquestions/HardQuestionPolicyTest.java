package io.memloop.bench.hardquestions;

import static io.memloop.bench.Fixtures.memory;
import static io.memloop.bench.hardquestions.HardQuestionPolicy.failureExperience;
import static io.memloop.bench.hardquestions.HardQuestionPolicy.successExperience;
import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import java.math.BigInteger;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The hard-questions policy's reading rules and the catalogue's solvers, independent of generation. */
class HardQuestionPolicyTest {
  private static final String Q7 = "What is the 7th prime number greater than 1000?";
  private static final String Q8 = "What is the 8th prime number greater than 1000?";
  private static final String OTHER = "In how many ways can a committee of 4 be chosen from 17 people?";
  private static final List<String> OPTIONS = List.of("1039", "1049", "1051", "1061", "1063", "1069", "1087", "1091",
      "1093", "1097");
  private static final HardQuestionPolicy NO_SLIP = new HardQuestionPolicy(0);

  private static String answer(String question, List<Memory> shown, long seed) {
    return NO_SLIP.answer(question, OPTIONS, shown, new SplittableRandom(seed));
  }

  @Test
  void words_areLowerCaseAndTrimmedOfPunctuation() {
    assertThat(HardQuestionPolicy.words("What is the 7th prime, after 1000? (Answer: 1039.)"))
        .containsExactly("what", "is", "the", "7th", "prime", "after", "1000", "answer", "1039");
  }

  @Test
  void overlap_oneChangedNumber_readsAsTheSameQuestion() {
    Set<String> a = HardQuestionPolicy.words(Q7);
    Set<String> b = HardQuestionPolicy.words(Q8);
    assertThat(HardQuestionPolicy.overlap(a, b)).isEqualTo(8.0 / 9);
    assertThat(HardQuestionPolicy.sameQuestion(a, b)).isTrue();
    assertThat(HardQuestionPolicy.sameQuestion(a, HardQuestionPolicy.words(OTHER))).isFalse();
    // A preamble adds words: the shorter question is still contained.
    assertThat(HardQuestionPolicy.overlap(a, HardQuestionPolicy.words("Quick check: " + Q7))).isEqualTo(1.0);
  }

  @Test
  void experiences_roundTrip() {
    assertThat(HardQuestionPolicy.question(successExperience(Q7, "1039"))).contains(Q7);
    assertThat(HardQuestionPolicy.quoted(successExperience(Q7, "1039"))).contains("1039");
    assertThat(HardQuestionPolicy.quoted(failureExperience(Q7, "1049"))).contains("1049");
    assertThat(HardQuestionPolicy.question("no question here")).isEmpty();
  }

  @Test
  void answer_copiesTheFirstVerifiedAnswerToTheSameQuestion_evenANearDuplicates() {
    List<Memory> shown = List.of(memory(successExperience(Q8, "1049")), memory(successExperience(Q7, "1039")));
    assertThat(LongStream.range(0, 30).mapToObj(s -> answer(Q7, shown, s)).distinct()).containsExactly("1049");
  }

  @Test
  void answer_skipsAVerifiedAnswerThatAHigherRankedNoteContradicts() {
    List<Memory> shown = List.of(memory(failureExperience(Q7, "1049")), memory(successExperience(Q8, "1049")),
        memory(successExperience(Q7, "1039")));
    assertThat(answer(Q7, shown, 1)).isEqualTo("1039");
  }

  @Test
  void answer_ignoresExperiencesOfOtherQuestions() {
    List<Memory> shown = List.of(memory(successExperience(OTHER, "2380")), memory(failureExperience(OTHER, "1039")));
    assertThat(LongStream.range(0, 300).mapToObj(s -> answer(Q7, shown, s)).distinct())
        .containsExactlyInAnyOrderElementsOf(OPTIONS);
  }

  @Test
  void answer_withEveryOptionReportedWrong_guessesAmongAll() {
    List<Memory> shown = OPTIONS.stream().map(o -> memory(failureExperience(Q7, o))).toList();
    assertThat(LongStream.range(0, 300).mapToObj(s -> answer(Q7, shown, s)).distinct())
        .containsExactlyInAnyOrderElementsOf(OPTIONS);
  }

  @Test
  void answer_withSlips_sometimesIgnoresTheMemory() {
    HardQuestionPolicy policy = new HardQuestionPolicy(0.5);
    List<Memory> shown = List.of(memory(successExperience(Q7, "1039")));
    SplittableRandom rnd = new SplittableRandom(3);
    int copied = 0;
    int n = 4000;
    for (int i = 0; i < n; i++) {
      copied += policy.answer(Q7, OPTIONS, shown, rnd).equals("1039") ? 1 : 0;
    }
    // P = 0.5 (copy) + 0.5 · 1/10 (blind guess) = 0.55
    assertThat((double) copied / n).isBetween(0.51, 0.59);
  }

  @Test
  void solvers_computeKnownValues() {
    assertThat(HardQuestionTemplates.primeAfter(1000, 7)).isEqualTo(1039);
    assertThat(HardQuestionTemplates.primeAfter(1000, 1)).isEqualTo(1009);
    assertThat(HardQuestionTemplates.fibonacciMod(10, 1000)).isEqualTo(55);
    assertThat(HardQuestionTemplates.fibonacciMod(1, 7)).isEqualTo(1);
    assertThat(HardQuestionTemplates.binomial(17, 4)).isEqualTo(BigInteger.valueOf(2380));
    assertThat(HardQuestionTemplates.arrangements("BANANA")).isEqualTo(BigInteger.valueOf(60));
    assertThat(HardQuestionTemplates.ordinal(1)).isEqualTo("1st");
    assertThat(HardQuestionTemplates.ordinal(12)).isEqualTo("12th");
    assertThat(HardQuestionTemplates.ordinal(22)).isEqualTo("22nd");
    assertThat(HardQuestionTemplates.ordinal(113)).isEqualTo("113th");
    assertThat(HardQuestionTemplates.ordinalValue("23rd")).isEqualTo(23);
  }

  @Test
  void catalogue_everyPhrasingIsLongEnoughForAOneWordChangeToReadAsTheSame() {
    SplittableRandom rnd = new SplittableRandom(5);
    for (HardQuestionTemplate t : HardQuestionTemplates.ALL) {
      for (int p = 0; p < t.phrasings().size(); p++) {
        for (int i = 0; i < 20; i++) {
          String text = t.render(p, t.sample(rnd));
          assertThat(HardQuestionPolicy.words(text)).as(text).hasSizeGreaterThanOrEqualTo(HardQuestionPolicy.MIN_WORDS);
        }
      }
    }
  }
}
