package io.memloop.bench.hardquestions;

import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Memory;
import io.memloop.MemLoopException;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamTask;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HardQuestionStreamTest {
  /** The bench's quick size (the fewest questions, so the most askings of each), slips off. */
  private static HardQuestionsEnvironment env(long seed) {
    return HardQuestionsEnvironment.generate(seed, HardQuestionsEnvironment.Knobs.defaults().withSlip(0));
  }

  private static final HardQuestionsEnvironment ENV = env(13);
  private static final HardQuestionStream STREAM = (HardQuestionStream) ENV.stream(13, StreamShape.defaults());

  private static Map<String, List<Integer>> indicesByKind() {
    Map<String, List<Integer>> out = new LinkedHashMap<>();
    for (int i = 0; i < STREAM.tasks().size(); i++) {
      out.computeIfAbsent(STREAM.tasks().get(i).kind(), k -> new ArrayList<>()).add(i);
    }
    return out;
  }

  private static Task at(int i) {
    return STREAM.tasks().get(i).task();
  }

  private static Memory successOf(int i) {
    return memory(HardQuestionPolicy.successExperience(at(i).intent(), STREAM.answerOf(at(i))));
  }

  private static boolean solves(Task task, Memory m) {
    return STREAM.attempt(task, List.of(m), new SplittableRandom(1)).success();
  }

  @Test
  void stream_sameSeed_sameAskingsAndAnswers_otherSeed_other() {
    HardQuestionStream again = (HardQuestionStream) env(13).stream(13, StreamShape.defaults());
    assertThat(again.tasks()).isEqualTo(STREAM.tasks());
    for (StreamTask t : STREAM.tasks()) {
      assertThat(again.answerOf(t.task())).isEqualTo(STREAM.answerOf(t.task()));
    }
    assertThat(ENV.stream(14, StreamShape.defaults()).tasks()).isNotEqualTo(STREAM.tasks());
  }

  @Test
  void stream_defaultLength_everyAskingNeverSeen() {
    assertThat(STREAM.tasks()).hasSize(StreamShape.DEFAULT_LENGTH);
    Set<String> ids = new HashSet<>();
    Set<String> intents = new HashSet<>();
    for (Task t : ENV.tasks()) {
      ids.add(t.id());
      intents.add(t.intent());
    }
    for (Task t : ENV.heldOut()) {
      ids.add(t.id());
      intents.add(t.intent());
    }
    for (StreamTask t : STREAM.tasks()) {
      assertThat(ids.add(t.task().id())).as(t.task().id()).isTrue();
      assertThat(intents.add(t.task().intent())).as(t.task().intent()).isTrue();
    }
  }

  @Test
  void stream_everyQuestionRecursOnBothSidesOfTheDrift_askingsOfOneQuestionReadAlike() {
    Map<String, List<Integer>> byKind = indicesByKind();
    assertThat(byKind).hasSize(ENV.tasks().size());
    for (List<Integer> at : byKind.values()) {
      assertThat(at.stream().filter(i -> i < STREAM.driftAt())).hasSizeGreaterThan(10);
      assertThat(at.stream().filter(i -> i >= STREAM.driftAt())).hasSizeGreaterThan(10);
      Set<String> first = HardQuestionPolicy.words(at(at.getFirst()).intent());
      for (int i : at) {
        assertThat(HardQuestionPolicy.sameQuestion(first, HardQuestionPolicy.words(at(i).intent()))).isTrue();
      }
    }
    assertThat(byKind.values().stream().filter(at -> STREAM.tasks().get(at.getFirst()).driftingKind())).hasSize(20);
  }

  @Test
  void stream_askingsOfOtherQuestionsReadAsOtherQuestions_butATwinMay() {
    Map<String, Task> kinds = new LinkedHashMap<>();
    ENV.tasks().forEach(t -> kinds.put(t.id(), t));
    SplittableRandom rnd = new SplittableRandom(5);
    int twinsAlike = 0;
    for (int n = 0; n < 5000; n++) {
      StreamTask a = STREAM.tasks().get(rnd.nextInt(STREAM.tasks().size()));
      StreamTask b = STREAM.tasks().get(rnd.nextInt(STREAM.tasks().size()));
      boolean alike = HardQuestionPolicy.sameQuestion(HardQuestionPolicy.words(a.task().intent()),
          HardQuestionPolicy.words(b.task().intent()));
      boolean twins = ENV.twinOf(kinds.get(a.kind())).map(t -> t.id().equals(b.kind())).orElse(false);
      if (twins) {
        twinsAlike += alike ? 1 : 0;
      } else if (!a.kind().equals(b.kind())) {
        assertThat(alike).as(a.task().intent() + " / " + b.task().intent()).isFalse();
      }
    }
    System.out.println("hard-questions twin askings read alike: " + twinsAlike);
  }

  @Test
  void drift_oldAnswerOfADriftingQuestionFails_othersStillHelp_newAnswerHelpsTheNext() {
    int d = STREAM.driftAt();
    for (List<Integer> at : indicesByKind().values()) {
      int before = at.stream().filter(i -> i < d).reduce((a, b) -> b).orElseThrow();
      List<Integer> after = at.stream().filter(i -> i >= d).toList();
      Memory old = successOf(before);
      String kind = STREAM.tasks().get(before).kind();
      assertThat(STREAM.helps(at(before), old)).isTrue();
      if (STREAM.tasks().get(before).driftingKind()) {
        assertThat(STREAM.helps(at(after.getFirst()), old)).as(kind).isFalse();
        assertThat(solves(at(after.getFirst()), old)).as(kind).isFalse();
        Memory fresh = successOf(after.getFirst());
        assertThat(STREAM.helps(at(after.get(1)), fresh)).as(kind).isTrue();
        assertThat(solves(at(after.get(1)), fresh)).as(kind).isTrue();
      } else {
        assertThat(STREAM.answerOf(at(after.getFirst()))).isEqualTo(STREAM.answerOf(at(before)));
        assertThat(STREAM.helps(at(after.getFirst()), old)).as(kind).isTrue();
        assertThat(solves(at(after.getFirst()), old)).as(kind).isTrue();
      }
    }
  }

  @Test
  void helps_agreesWithTheAttemptWithSlipsOff() {
    SplittableRandom rnd = new SplittableRandom(3);
    int helped = 0;
    int misled = 0;
    for (int n = 0; n < 3000; n++) {
      int a = rnd.nextInt(STREAM.tasks().size());
      int b = rnd.nextInt(STREAM.tasks().size());
      Memory m = successOf(a);
      boolean same = HardQuestionPolicy.sameQuestion(HardQuestionPolicy.words(at(a).intent()),
          HardQuestionPolicy.words(at(b).intent()));
      if (STREAM.helps(at(b), m)) {
        helped++;
        assertThat(solves(at(b), m)).isTrue();
      } else if (same) {
        misled++;
        assertThat(solves(at(b), m)).isFalse();
      }
    }
    assertThat(helped).isPositive();
    assertThat(misled).isPositive();
  }

  @Test
  void stream_longerThanTheTagsAllow_isRefusedNamingTheLength() {
    assertThatThrownBy(() -> ENV.stream(13, new StreamShape(100_000, 0.5, 1.0 / 3)))
        .isInstanceOf(MemLoopException.class)
        .satisfies(e -> System.out.println("hard-questions quick " + e.getMessage()))
        .hasMessageContaining("streamLength");
    HardQuestionsEnvironment full = HardQuestionsEnvironment.generate(13, new HardQuestionsEnvironment.Knobs(120, 0.5,
        24, 0));
    assertThatThrownBy(() -> full.stream(13, new StreamShape(100_000, 0.5, 1.0 / 3)))
        .satisfies(e -> System.out.println("hard-questions full " + e.getMessage()));
  }

  @Test
  void noMemory_succeedsAboutOneTimeInTenBeforeAndAfterTheDrift() {
    int[] wins = new int[2];
    int[] plays = new int[2];
    for (int i = 0; i < STREAM.tasks().size(); i++) {
      int side = i < STREAM.driftAt() ? 0 : 1;
      plays[side]++;
      if (STREAM.attempt(at(i), List.of(), new SplittableRandom(i)).success()) {
        wins[side]++;
      }
    }
    double before = wins[0] / (double) plays[0];
    double after = wins[1] / (double) plays[1];
    System.out.printf("hard-questions no-memory success before %.3f after %.3f%n", before, after);
    assertThat(before).isBetween(0.06, 0.14);
    assertThat(after).isBetween(0.06, 0.14);
  }
}
