package io.memloop.bench.ops;

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

class OpsStreamTest {
  /** The bench's full size, slips off. */
  private static RecurringTasksEnvironment env(long seed) {
    return RecurringTasksEnvironment.generate(seed, new RecurringTasksEnvironment.Knobs(40, 3, 0.25, 0, 24));
  }

  private static final RecurringTasksEnvironment ENV = env(5);
  private static final OpsStream STREAM = (OpsStream) ENV.stream(5, StreamShape.defaults());

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
    return memory(CopyFirstPolicy.successExperience(at(i).intent(), STREAM.answerOf(at(i))));
  }

  private static boolean solves(Task task, Memory m) {
    return STREAM.attempt(task, List.of(m), new SplittableRandom(1)).success();
  }

  @Test
  void stream_sameSeed_sameRequestsAndAnswers_otherSeed_other() {
    OpsStream again = (OpsStream) env(5).stream(5, StreamShape.defaults());
    assertThat(again.tasks()).isEqualTo(STREAM.tasks());
    for (StreamTask t : STREAM.tasks()) {
      assertThat(again.answerOf(t.task())).isEqualTo(STREAM.answerOf(t.task()));
      assertThat(again.proceduresOf(t.task())).isEqualTo(STREAM.proceduresOf(t.task()));
    }
    assertThat(ENV.stream(6, StreamShape.defaults()).tasks()).isNotEqualTo(STREAM.tasks());
  }

  @Test
  void stream_defaultLength_everyRequestNeverSeen() {
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
    ENV.priorExperiences().forEach(p -> intents.add(p.intent()));
    for (StreamTask t : STREAM.tasks()) {
      assertThat(ids.add(t.task().id())).as(t.task().id()).isTrue();
      assertThat(intents.add(t.task().intent())).as(t.task().intent()).isTrue();
    }
  }

  @Test
  void stream_everyTaskRecursOnBothSidesOfTheDrift() {
    Map<String, List<Integer>> byKind = indicesByKind();
    assertThat(byKind).hasSize(ENV.tasks().size());
    for (List<Integer> at : byKind.values()) {
      assertThat(at.stream().filter(i -> i < STREAM.driftAt())).hasSizeGreaterThan(5);
      assertThat(at.stream().filter(i -> i >= STREAM.driftAt())).hasSizeGreaterThan(5);
    }
    assertThat(byKind.values().stream().filter(at -> STREAM.tasks().get(at.getFirst()).driftingKind())).hasSize(40);
  }

  @Test
  void drift_oldSuccessOfADriftingTaskFails_othersStillHelp_newSuccessHelpsTheNext() {
    int d = STREAM.driftAt();
    for (List<Integer> at : indicesByKind().values()) {
      int before = at.stream().filter(i -> i < d).reduce((a, b) -> b).orElseThrow();
      List<Integer> after = at.stream().filter(i -> i >= d).toList();
      Memory old = successOf(before);
      String kind = STREAM.tasks().get(before).kind();
      if (STREAM.tasks().get(before).driftingKind()) {
        assertThat(STREAM.proceduresOf(at(after.getFirst()))).as(kind).contains(STREAM.answerOf(at(before)));
        assertThat(STREAM.helps(at(after.getFirst()), old)).as(kind).isFalse();
        assertThat(solves(at(after.getFirst()), old)).as(kind).isFalse();
        Memory fresh = successOf(after.getFirst());
        assertThat(STREAM.helps(at(after.get(1)), fresh)).as(kind).isTrue();
        assertThat(solves(at(after.get(1)), fresh)).as(kind).isTrue();
      } else {
        assertThat(STREAM.proceduresOf(at(after.getFirst()))).isEqualTo(STREAM.proceduresOf(at(before)));
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
    for (int n = 0; n < 2000; n++) {
      int a = rnd.nextInt(STREAM.tasks().size());
      Task b = at(rnd.nextInt(STREAM.tasks().size()));
      Memory m = successOf(a);
      boolean copied = STREAM.proceduresOf(b).contains(STREAM.answerOf(at(a)));
      if (STREAM.helps(b, m)) {
        helped++;
        assertThat(solves(b, m)).isTrue();
      } else if (copied) {
        misled++;
        assertThat(solves(b, m)).isFalse();
      }
    }
    assertThat(helped).isPositive();
    assertThat(misled).isPositive();
  }

  @Test
  void stream_longerThanTheTicketNumbers_isRefusedNamingTheLength() {
    assertThatThrownBy(() -> ENV.stream(5, new StreamShape(10_000, 0.5, 1.0 / 3)))
        .isInstanceOf(MemLoopException.class)
        .hasMessageContaining("streamLength");
  }

  @Test
  void noMemory_succeedsAboutAsOftenBeforeAndAfterTheDrift() {
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
    System.out.printf("recurring-ops no-memory success before %.3f after %.3f%n", before, after);
    assertThat(before).isBetween(0.15, 0.25); // one in five
    assertThat(after).isBetween(0.13, 0.25); // one in five, one in six for the drifting third
  }
}
