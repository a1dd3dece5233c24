package io.memloop.bench.sql;

import static io.memloop.bench.Fixtures.memory;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Memory;
import io.memloop.MemLoopException;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamTask;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class SqlStreamTest {
  private static SqlEnvironment env;
  private static SqlStream stream;

  @BeforeAll
  static void generate() {
    env = SqlEnvironment.generate(7, new SqlEnvironment.Knobs(120, 0.4, 40, 0)); // the full size, slips off
    stream = (SqlStream) env.stream(7, StreamShape.defaults());
  }

  @AfterAll
  static void close() {
    env.close();
  }

  private static Map<String, List<StreamTask>> byKind() {
    Map<String, List<StreamTask>> out = new LinkedHashMap<>();
    stream.tasks().forEach(t -> out.computeIfAbsent(t.kind(), k -> new ArrayList<>()).add(t));
    return out;
  }

  private static Memory successOf(StreamTask t) {
    return memory(SqlPolicy.successExperience(t.task().intent(), stream.goldSqlOf(t.task())));
  }

  private static boolean solves(StreamWorld world, Task task, Memory m) {
    return world.attempt(task, List.of(m), new SplittableRandom(1)).success();
  }

  @Test
  void stream_sameSeed_sameInstancesAndAnswers() {
    try (SqlEnvironment other = SqlEnvironment.generate(7, new SqlEnvironment.Knobs(120, 0.4, 40, 0))) {
      SqlStream again = (SqlStream) other.stream(7, StreamShape.defaults());
      assertThat(again.tasks()).isEqualTo(stream.tasks());
      assertThat(again.driftAt()).isEqualTo(stream.driftAt()).isEqualTo(1000);
      for (StreamTask t : stream.tasks().subList(0, 200)) {
        assertThat(again.goldSqlOf(t.task())).isEqualTo(stream.goldSqlOf(t.task()));
      }
      assertThat(((SqlStream) other.stream(8, StreamShape.defaults())).tasks()).isNotEqualTo(stream.tasks());
    }
  }

  @Test
  void stream_defaultLength_everyInstanceNeverSeen() {
    assertThat(stream.tasks()).hasSize(StreamShape.DEFAULT_LENGTH);
    Set<String> ids = new HashSet<>();
    Set<String> intents = new HashSet<>();
    env.tasks().forEach(t -> {
      ids.add(t.id());
      intents.add(t.intent());
    });
    env.heldOut().forEach(t -> {
      ids.add(t.id());
      intents.add(t.intent());
    });
    for (StreamTask t : stream.tasks()) {
      assertThat(ids.add(t.task().id())).as(t.task().id()).isTrue();
      assertThat(intents.add(t.task().intent())).as(t.task().intent()).isTrue();
    }
  }

  @Test
  void stream_everyTemplateRecursOnBothSidesOfTheDrift() {
    Map<String, List<StreamTask>> byKind = byKind();
    assertThat(byKind).hasSize(SqlTemplates.ALL.size());
    for (List<StreamTask> instances : byKind.values()) {
      assertThat(instances.stream().filter(t -> stream.tasks().indexOf(t) < stream.driftAt())).hasSizeGreaterThan(3);
      assertThat(instances.stream().filter(t -> stream.tasks().indexOf(t) >= stream.driftAt())).hasSizeGreaterThan(3);
    }
    assertThat(byKind.values().stream().filter(l -> l.getFirst().driftingKind())).hasSize(11); // a third of 33
  }

  @Test
  void drift_oldSuccessOfADriftingTemplateFails_othersStillHelp_newSuccessHelpsTheNext() {
    int drifting = 0;
    for (List<StreamTask> instances : byKind().values()) {
      int d = stream.driftAt();
      StreamTask before = instances.stream().filter(t -> stream.tasks().indexOf(t) < d).reduce((a, b) -> b).orElseThrow();
      List<StreamTask> after = instances.stream().filter(t -> stream.tasks().indexOf(t) >= d).toList();
      Memory old = successOf(before);
      assertThat(stream.helps(before.task(), old)).isTrue();
      if (before.driftingKind()) {
        drifting++;
        assertThat(stream.helps(after.getFirst().task(), old)).as(before.kind()).isFalse();
        assertThat(solves(stream, after.getFirst().task(), old)).as(before.kind()).isFalse();
        Memory fresh = successOf(after.getFirst());
        assertThat(stream.helps(after.get(1).task(), fresh)).as(before.kind()).isTrue();
        assertThat(solves(stream, after.get(1).task(), fresh)).as(before.kind()).isTrue();
      } else {
        assertThat(stream.helps(after.getFirst().task(), old)).as(before.kind()).isTrue();
        assertThat(solves(stream, after.getFirst().task(), old)).as(before.kind()).isTrue();
      }
    }
    assertThat(drifting).isEqualTo(11);
  }

  @Test
  void drift_theFrozenPolicyCanStillFindTheNewQueryWithoutMemory() {
    for (StreamTask t : stream.tasks().subList(stream.driftAt(), stream.driftAt() + 300)) {
      assertThat(SqlKnowledge.candidates(t.task().intent()).stream()
          .anyMatch(sql -> stream.helps(t.task(), memory(SqlPolicy.successExperience(t.task().intent(), sql)))))
          .as(t.task().id()).isTrue();
    }
  }

  @Test
  void helps_agreesWithTheAttemptWithSlipsOff() {
    SplittableRandom rnd = new SplittableRandom(3);
    List<StreamTask> tasks = stream.tasks();
    int helped = 0;
    int misled = 0;
    for (int n = 0; n < 400; n++) {
      StreamTask a = tasks.get(rnd.nextInt(tasks.size()));
      StreamTask b = tasks.get(rnd.nextInt(tasks.size()));
      Memory m = successOf(a);
      boolean helps = stream.helps(b.task(), m);
      boolean adapts = env.policy().adapt(b.task().intent(), List.of(m), new HashSet<>()).isPresent();
      if (helps) {
        helped++;
        assertThat(solves(stream, b.task(), m)).isTrue();
      } else if (adapts) {
        misled++;
        assertThat(solves(stream, b.task(), m)).isFalse();
      }
    }
    assertThat(helped).isPositive();
    assertThat(misled).isPositive();
  }

  @Test
  void stream_tooLongForTheCatalogue_isRefusedNamingTheLength() {
    assertThatThrownBy(() -> env.stream(7, new StreamShape(100_000, 0.5, 1.0 / 3)))
        .isInstanceOf(MemLoopException.class)
        .satisfies(e -> System.out.println("sql " + e.getMessage()))
        .hasMessageContaining("streamLength")
        .hasMessageContaining("at most");
  }

  @Test
  void attempt_taskOfAnotherStream_isRefused() {
    assertThatThrownBy(() -> stream.attempt(env.tasks().getFirst(), List.of(), new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not one of");
  }

  /** Measures the no-memory success before and after the drift (printed, for the report). */
  @Test
  void noMemory_succeedsSometimesBeforeAndAfterTheDrift() {
    int[] wins = new int[2];
    int[] plays = new int[2];
    for (int i = 0; i < stream.tasks().size(); i++) {
      Task task = stream.tasks().get(i).task();
      int side = i < stream.driftAt() ? 0 : 1;
      plays[side]++;
      if (stream.attempt(task, List.of(), new SplittableRandom(i)).success()) {
        wins[side]++;
      }
    }
    System.out.printf("sql no-memory success before %.3f after %.3f%n", wins[0] / (double) plays[0],
        wins[1] / (double) plays[1]);
    assertThat(wins[0]).isPositive();
    assertThat(wins[1]).isPositive();
  }
}
