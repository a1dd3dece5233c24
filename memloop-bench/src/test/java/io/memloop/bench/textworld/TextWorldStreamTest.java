package io.memloop.bench.textworld;

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

class TextWorldStreamTest {
  /** The bench's quick size, slips off. */
  private static TextWorldEnvironment env(long seed) {
    return TextWorldEnvironment.generate(seed, TextWorldEnvironment.Knobs.defaults().withSlip(0));
  }

  private static final TextWorldEnvironment ENV = env(11);
  private static final TextWorldStream STREAM = (TextWorldStream) ENV.stream(11, StreamShape.defaults());

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
    return memory(STREAM.successExperience(at(i)));
  }

  private static boolean solves(Task task, Memory m, long seed) {
    return STREAM.attempt(task, List.of(m), new SplittableRandom(seed)).success();
  }

  @Test
  void stream_sameSeed_sameGoalsAndWorlds_otherSeed_other() {
    TextWorldStream again = (TextWorldStream) env(11).stream(11, StreamShape.defaults());
    assertThat(again.tasks()).isEqualTo(STREAM.tasks());
    for (StreamTask t : STREAM.tasks()) {
      assertThat(again.successExperience(t.task())).isEqualTo(STREAM.successExperience(t.task()));
    }
    assertThat(ENV.stream(12, StreamShape.defaults()).tasks()).isNotEqualTo(STREAM.tasks());
  }

  @Test
  void stream_defaultLength_everyGoalNeverAsked() {
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
  void stream_kindsRecurOnBothSidesOfTheDrift_aboutAThirdDrift() {
    Map<String, List<Integer>> byKind = indicesByKind();
    long recurring = byKind.values().stream()
        .filter(at -> at.getFirst() < STREAM.driftAt() && at.getLast() >= STREAM.driftAt()).count();
    System.out.printf("text-world kinds %d, on both sides of the drift %d, drifting %d%n", byKind.size(), recurring,
        byKind.values().stream().filter(at -> STREAM.tasks().get(at.getFirst()).driftingKind()).count());
    assertThat(recurring).isGreaterThan(byKind.size() * 3L / 4);
    long drifting = byKind.values().stream().filter(at -> STREAM.tasks().get(at.getFirst()).driftingKind()).count();
    assertThat(drifting).isBetween(byKind.size() / 3L, byKind.size() / 2L);
  }

  @Test
  void drift_oldPlanOfADriftingKindFails_othersStillHelp_newPlanHelpsTheNext() {
    int d = STREAM.driftAt();
    int drifting = 0;
    int oldSolved = 0;
    int steady = 0;
    for (List<Integer> at : indicesByKind().values()) {
      List<Integer> before = at.stream().filter(i -> i < d).toList();
      List<Integer> after = at.stream().filter(i -> i >= d).toList();
      if (before.isEmpty() || after.size() < 2) {
        continue;
      }
      Memory old = successOf(before.getLast());
      String kind = STREAM.tasks().get(before.getLast()).kind();
      assertThat(STREAM.helps(at(before.getLast()), old)).as(kind).isTrue();
      if (STREAM.tasks().get(before.getLast()).driftingKind()) {
        drifting++;
        assertThat(STREAM.helps(at(after.getFirst()), old)).as(kind).isFalse();
        oldSolved += solves(at(after.getFirst()), old, 1) ? 1 : 0;
        Memory fresh = successOf(after.getFirst());
        assertThat(STREAM.helps(at(after.get(1)), fresh)).as(kind).isTrue();
        assertThat(solves(at(after.get(1)), fresh, 1)).as(kind).isTrue();
      } else {
        steady++;
        assertThat(STREAM.helps(at(after.getFirst()), old)).as(kind).isTrue();
        assertThat(solves(at(after.getFirst()), old, 1)).as(kind).isTrue();
      }
    }
    assertThat(drifting).isGreaterThan(20);
    assertThat(steady).isGreaterThan(20);
    assertThat(oldSolved).as("an old plan that breaks leaves too few steps to recover").isLessThan(drifting / 4);
  }

  @Test
  void helps_agreesWithTheAttemptWithSlipsOff() {
    SplittableRandom rnd = new SplittableRandom(3);
    int helped = 0;
    for (int n = 0; n < 1500; n++) {
      int a = rnd.nextInt(STREAM.tasks().size());
      int b = rnd.nextInt(STREAM.tasks().size());
      if (!STREAM.tasks().get(a).kind().equals(STREAM.tasks().get(b).kind()) && n % 3 != 0) {
        continue; // mostly pairs of one kind, so that both answers occur
      }
      Memory m = successOf(a);
      if (STREAM.helps(at(b), m)) {
        helped++;
        assertThat(solves(at(b), m, n)).isTrue();
      }
    }
    assertThat(helped).isPositive();
  }

  @Test
  void stream_longerThanTheHousesAllow_isRefusedNamingTheLength() {
    assertThatThrownBy(() -> ENV.stream(11, new StreamShape(100_000, 0.5, 1.0 / 3)))
        .isInstanceOf(MemLoopException.class)
        .satisfies(e -> System.out.println("text-world quick " + e.getMessage()))
        .hasMessageContaining("streamLength");
    TextWorldEnvironment full = TextWorldEnvironment.generate(11, new TextWorldEnvironment.Knobs(8, 8, 6, 4, 16, 0));
    assertThat(full.stream(11, StreamShape.defaults()).tasks()).hasSize(StreamShape.DEFAULT_LENGTH);
    assertThatThrownBy(() -> full.stream(11, new StreamShape(100_000, 0.5, 1.0 / 3)))
        .satisfies(e -> System.out.println("text-world full " + e.getMessage()));
  }

  @Test
  void noMemory_succeedsSometimesBeforeAndAfterTheDrift() {
    int[] wins = new int[2];
    int[] plays = new int[2];
    for (int i = 0; i < STREAM.tasks().size(); i++) {
      int side = i < STREAM.driftAt() ? 0 : 1;
      plays[side]++;
      if (STREAM.attempt(at(i), List.of(), new SplittableRandom(i)).success()) {
        wins[side]++;
      }
    }
    System.out.printf("text-world no-memory success before %.3f after %.3f%n", wins[0] / (double) plays[0],
        wins[1] / (double) plays[1]);
    assertThat(wins[0]).isPositive();
    assertThat(wins[1]).isPositive();
  }
}
