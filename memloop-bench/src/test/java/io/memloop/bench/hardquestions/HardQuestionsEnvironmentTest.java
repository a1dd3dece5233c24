package io.memloop.bench.hardquestions;

import static io.memloop.bench.Fixtures.memory;
import static io.memloop.bench.hardquestions.HardQuestionPolicy.failureExperience;
import static io.memloop.bench.hardquestions.HardQuestionPolicy.successExperience;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HardQuestionsEnvironmentTest {

  private static HardQuestionsEnvironment env(long seed, int questions, double duplicateShare, int heldOut,
      double slip) {
    return HardQuestionsEnvironment.generate(
        seed, new HardQuestionsEnvironment.Knobs(questions, duplicateShare, heldOut, slip));
  }

  private static HardQuestionsEnvironment noSlip(long seed) {
    return env(seed, 60, 0.5, 12, 0);
  }

  private static List<Task> all(HardQuestionsEnvironment env) {
    List<Task> all = new ArrayList<>(env.tasks());
    all.addAll(env.heldOut());
    return all;
  }

  @Test
  void generate_sameSeed_sameQuestionsAnswersOptionsOrderAndHeldOut() {
    HardQuestionsEnvironment a = env(42, 60, 0.5, 12, 0.05);
    HardQuestionsEnvironment b = env(42, 60, 0.5, 12, 0.05);
    assertThat(a.tasks()).isEqualTo(b.tasks());
    assertThat(a.heldOut()).isEqualTo(b.heldOut());
    assertThat(all(a)).allSatisfy(t -> {
      assertThat(a.answerOf(t)).isEqualTo(b.answerOf(t));
      assertThat(a.optionsOf(t)).isEqualTo(b.optionsOf(t));
    });
  }

  @Test
  void generate_otherSeed_otherQuestions() {
    assertThat(noSlip(1).tasks()).isNotEqualTo(noSlip(2).tasks());
  }

  @Test
  void generate_makesTheRequestedQuestionsAndNearDuplicatePairs() {
    HardQuestionsEnvironment env = env(7, 60, 0.5, 12, 0);
    assertThat(env.tasks()).hasSize(60);
    assertThat(env.tasks().stream().map(Task::id).distinct()).hasSize(60);
    assertThat(env.tasks().stream().map(Task::intent).distinct()).hasSize(60);
    assertThat(env.nearDuplicatePairs()).hasSize(15);
    assertThat(env.tasks()).allSatisfy(t -> {
      assertThat(env.optionsOf(t)).hasSize(HardQuestionGenerator.OPTIONS).doesNotHaveDuplicates().contains(env.answerOf(t));
    });
    for (HardQuestionsEnvironment.Pair p : env.nearDuplicatePairs()) {
      assertThat(env.answerOf(p.first())).as("answers of %s", p).isNotEqualTo(env.answerOf(p.second()));
      // The twin's answer is the most plausible wrong one: a failure note about it is worth reading.
      assertThat(env.optionsOf(p.first())).contains(env.answerOf(p.second()));
    }
  }

  @Test
  void generate_withoutDuplicateShare_hasNoPairs() {
    assertThat(env(3, 40, 0, 5, 0).nearDuplicatePairs()).isEmpty();
    assertThat(env(3, 40, 1, 5, 0).nearDuplicatePairs()).hasSize(20);
  }

  /** Only a question and its twin (and their re-askings) read as the same question to the policy. */
  @Test
  void generate_differentQuestionsShareFewWords_onlyTwinsReadAsTheSame() {
    for (long seed = 1; seed <= 5; seed++) {
      HardQuestionsEnvironment env = noSlip(seed);
      List<Task> all = all(env);
      for (Task a : all) {
        for (Task b : all) {
          if (a.id().compareTo(b.id()) >= 0) {
            continue;
          }
          boolean related = root(env, a).equals(root(env, b)) || root(env, a).equals(env.twinOf(root(env, b)).orElse(null));
          boolean oneIsTraining = env.sourceOf(a).isEmpty() || env.sourceOf(b).isEmpty();
          boolean same =
              HardQuestionPolicy.sameQuestion(HardQuestionPolicy.words(a.intent()), HardQuestionPolicy.words(b.intent()));
          if (!related) {
            assertThat(same).as("unrelated: %s / %s", a.intent(), b.intent()).isFalse();
          } else if (oneIsTraining) { // two re-askings with different preambles may fall below: not needed
            assertThat(same).as("related: %s / %s", a.intent(), b.intent()).isTrue();
          }
        }
      }
    }
  }

  private static Task root(HardQuestionsEnvironment env, Task t) {
    return env.sourceOf(t).orElse(t);
  }

  @Test
  void heldOut_isDisjointFromTraining_andReasksATrainingQuestion() {
    HardQuestionsEnvironment env = noSlip(9);
    assertThat(env.heldOut()).hasSize(12);
    Set<String> trainingIds = new HashSet<>();
    Set<String> trainingIntents = new HashSet<>();
    env.tasks().forEach(t -> {
      trainingIds.add(t.id());
      trainingIntents.add(t.intent());
    });
    for (Task h : env.heldOut()) {
      assertThat(trainingIds).doesNotContain(h.id());
      assertThat(trainingIntents).doesNotContain(h.intent());
      Task source = env.sourceOf(h).orElseThrow();
      assertThat(env.tasks()).contains(source);
      assertThat(h.intent()).endsWith(source.intent());
      assertThat(env.answerOf(h)).isEqualTo(env.answerOf(source));
    }
    assertThat(env.tasks()).allSatisfy(t -> assertThat(env.sourceOf(t)).isEmpty());
  }

  @Test
  void attempt_withoutMemory_isRightAboutOneTimeInTen() {
    HardQuestionsEnvironment env = env(11, 60, 0.5, 12, HardQuestionsEnvironment.DEFAULT_SLIP);
    SplittableRandom rnd = new SplittableRandom(12);
    int successes = 0;
    int tries = 0;
    for (int round = 0; round < 50; round++) {
      for (Task t : env.tasks()) {
        successes += env.attempt(t, List.of(), rnd).success() ? 1 : 0;
        tries++;
      }
    }
    assertThat((double) successes / tries).isBetween(0.08, 0.12);
  }

  @Test
  void attempt_withTheVerifiedAnswerFirst_succeeds_onTrainingAndHeldOutQuestions() {
    HardQuestionsEnvironment env = noSlip(13);
    SplittableRandom rnd = new SplittableRandom(14);
    for (Task t : all(env)) {
      Task source = root(env, t);
      List<Memory> shown = List.of(memory(successExperience(source.intent(), env.answerOf(source))));
      Episode e = env.attempt(t, shown, rnd);
      assertThat(e.success()).as(t.id()).isTrue();
      assertThat(e.reward()).isEqualTo(1.0);
      assertThat(e.experience()).isEqualTo(successExperience(t.intent(), env.answerOf(t)));
    }
  }

  @Test
  void attempt_withTheTwinsVerifiedAnswerFirst_fails_evenWithTheRightOneBelow() {
    HardQuestionsEnvironment env = noSlip(15);
    SplittableRandom rnd = new SplittableRandom(16);
    int checked = 0;
    for (Task t : all(env)) {
      Task source = root(env, t);
      if (env.twinOf(t).isEmpty()) {
        continue;
      }
      Task twin = env.twinOf(t).get();
      List<Memory> shown =
          List.of(memory(successExperience(twin.intent(), env.answerOf(twin))),
              memory(successExperience(source.intent(), env.answerOf(source))));
      Episode e = env.attempt(t, shown, rnd);
      assertThat(e.success()).as(t.id()).isFalse();
      assertThat(e.reward()).isEqualTo(-1.0);
      assertThat(e.experience()).isEqualTo(failureExperience(t.intent(), env.answerOf(twin)));
      checked++;
    }
    assertThat(checked).isGreaterThanOrEqualTo(30);
  }

  @Test
  void attempt_withAFailureNote_neverRepeatsTheWrongAnswer() {
    HardQuestionsEnvironment env = noSlip(17);
    SplittableRandom rnd = new SplittableRandom(18);
    for (Task t : env.tasks()) {
      String wrong = env.optionsOf(t).stream().filter(o -> !o.equals(env.answerOf(t))).findFirst().orElseThrow();
      List<Memory> shown = List.of(memory(failureExperience(t.intent(), wrong)));
      for (int i = 0; i < 20; i++) {
        assertThat(env.attempt(t, shown, rnd).experience()).doesNotContain("`" + wrong + "`");
      }
    }
  }

  @Test
  void attempt_ignoresVerifiedAnswersOfOtherQuestions() {
    HardQuestionsEnvironment env = noSlip(19);
    Task t = env.tasks().get(0);
    Task other = env.tasks().stream().filter(o -> !o.equals(t) && !o.equals(env.twinOf(t).orElse(null))).findFirst()
        .orElseThrow();
    Memory unrelated = memory(successExperience(other.intent(), env.answerOf(other)));
    assertThat(env.helps(t, unrelated)).isFalse();
    SplittableRandom rnd = new SplittableRandom(20);
    int successes = 0;
    for (int i = 0; i < 400; i++) {
      successes += env.attempt(t, List.of(unrelated), rnd).success() ? 1 : 0;
    }
    assertThat(successes / 400.0).isBetween(0.05, 0.16); // a blind guess
  }

  /** Ground truth agrees with the policy: a helpful memory always wins, any other loses at least once in 30. */
  @Test
  void helps_agreesWithAttempt_whenSlipIsZero() {
    HardQuestionsEnvironment env = noSlip(21);
    SplittableRandom rnd = new SplittableRandom(22);
    int helping = 0;
    int notHelping = 0;
    for (Task t : all(env)) {
      Task source = root(env, t);
      List<Memory> candidates = new ArrayList<>();
      candidates.add(memory(successExperience(source.intent(), env.answerOf(source))));
      candidates.add(memory(failureExperience(source.intent(), env.answerOf(source))));
      env.twinOf(t).ifPresent(tw -> candidates.add(memory(successExperience(tw.intent(), env.answerOf(tw)))));
      Task other = env.tasks().get((env.tasks().indexOf(source) + 1) % env.tasks().size());
      candidates.add(memory(successExperience(other.intent(), env.answerOf(other))));
      for (Memory m : candidates) {
        boolean helps = env.helps(t, m);
        boolean allSucceeded = true;
        for (int i = 0; i < 30; i++) {
          allSucceeded &= env.attempt(t, List.of(m), rnd).success();
        }
        assertThat(allSucceeded).as("%s with %s", t.id(), m.experience()).isEqualTo(helps);
        helping += helps ? 1 : 0;
        notHelping += helps ? 0 : 1;
      }
    }
    assertThat(helping).isEqualTo(all(env).size());
    assertThat(notHelping).isGreaterThan(helping);
  }

  @Test
  void attempt_withSlips_succeedsMostlyWithTheVerifiedAnswer() {
    HardQuestionsEnvironment env = env(23, 60, 0.5, 12, HardQuestionsEnvironment.DEFAULT_SLIP);
    SplittableRandom rnd = new SplittableRandom(24);
    int successes = 0;
    int tries = 0;
    for (int round = 0; round < 20; round++) {
      for (Task t : env.tasks()) {
        List<Memory> shown = List.of(memory(successExperience(t.intent(), env.answerOf(t))));
        successes += env.attempt(t, shown, rnd).success() ? 1 : 0;
        tries++;
      }
    }
    // 1 − slip · 9/10 = 0.955
    assertThat((double) successes / tries).isBetween(0.93, 0.98);
  }

  @Test
  void attempt_ofAForeignTask_throws() {
    HardQuestionsEnvironment env = noSlip(25);
    Task foreign = new Task("hq/none/0", "What is the airspeed of an unladen swallow, in furlongs per fortnight?");
    assertThatThrownBy(() -> env.attempt(foreign, List.of(), new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hq/none/0");
  }

  @Test
  void knobs_outOfRange_areRejectedWithTheirLimits() {
    assertThatThrownBy(() -> new HardQuestionsEnvironment.Knobs(0, 0.5, 0, 0)).hasMessageContaining("questions must be in [1, ");
    assertThatThrownBy(() -> new HardQuestionsEnvironment.Knobs(10, 1.5, 0, 0)).hasMessageContaining("duplicateShare");
    assertThatThrownBy(() -> new HardQuestionsEnvironment.Knobs(10, 0.5, 11, 0)).hasMessageContaining("heldOut");
    assertThatThrownBy(() -> new HardQuestionsEnvironment.Knobs(10, 0.5, 2, 1)).hasMessageContaining("slipProbability");
  }

  @Test
  void catalogue_supportsTheLargestSize() {
    for (long seed = 1; seed <= 3; seed++) {
      int max = HardQuestionsEnvironment.Knobs.MAX_QUESTIONS;
      HardQuestionsEnvironment env = env(seed, max, 0.5, max / 5, 0);
      assertThat(env.tasks()).hasSize(max);
      assertThat(env.heldOut()).hasSizeGreaterThan(max / 10); // re-askings that would clash are skipped
    }
  }
}
