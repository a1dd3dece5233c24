package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#firstEncounterK2()}: a task with no record of its own is shown more of the greedy order, recalled
 * from {@link MemLoopConfig#firstEncounterK1()} intents; once it has a record (a rewarded use, a failure), it is shown
 * the learned selection of k2 from k1 intents again.
 */
class FirstEncounterTest {
  private static final int DIM = 8;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

  private MemLoop engine(MemLoopConfig config) {
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(config).clock(clock).seed(5).build();
    // five intent groups (pairwise cosine 0.81, below the merge threshold), two successes each, all near axis 0
    for (int j = 1; j <= 5; j++) {
      float[] v = new float[DIM];
      v[0] = 0.9f;
      v[j] = (float) Math.sqrt(1 - 0.81);
      for (String which : new String[] {"a", "b"}) {
        clock.advance(Duration.ofSeconds(1));
        loop.remember("ns", Intent.of("other task " + j, v), "what worked for " + j + which, Outcome.SUCCESS);
      }
    }
    return loop;
  }

  private static final float[] AXIS0 = {1, 0, 0, 0, 0, 0, 0, 0};

  @Test
  void aNewTask_seesFirstEncounterK2_thenTheLearnedSelectionOfK2() {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK2(6).build();
    try (MemLoop loop = engine(config)) {
      Intent task = Intent.of("a task never seen", AXIS0);
      Retrieval first = loop.retrieve("ns", task);
      assertThat(first.selected()).hasSize(6);
      loop.reward("ns", first.id(), 1.0);
      assertThat(loop.retrieve("ns", task).selected()).hasSize(config.k2()).hasSize(3);
      // another new task still gets the wide view; the pool (10 memories) bounds it
      Intent other = Intent.of("another task never seen", AXIS0);
      assertThat(loop.retrieve("ns", other).selected()).hasSize(6);
      MemLoopConfig wider = config.toBuilder().firstEncounterK2(50).build();
      try (MemLoop wide = engine(wider)) {
        assertThat(wide.retrieve("ns", task).selected()).hasSize(10);
      }
    }
  }

  @Test
  void aTaskThatFailed_hasARecord_andSeesK2() {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK2(6).build();
    try (MemLoop loop = engine(config)) {
      Intent task = Intent.of("a task never seen", AXIS0);
      Retrieval first = loop.retrieve("ns", task);
      loop.reward("ns", first.id(), -1.0);
      assertThat(loop.retrieve("ns", task).selected()).hasSize(3);
    }
  }

  @Test
  void aTaskWhoseOwnMemoryIsInView_hasARecord_andSeesK2() {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK2(6).build();
    try (MemLoop loop = engine(config)) {
      // remembered without a retrieval (or imported): the ledger knows nothing of the task, its memory is in the pool
      Intent task = Intent.of("a task remembered before", AXIS0);
      loop.remember("ns", task, "what this task did last time", Outcome.SUCCESS);
      assertThat(loop.retrieve("ns", task).selected()).hasSize(3);
      // another wording with the very same embedding is the same intent (TaskOrder's same-intent test)
      assertThat(loop.retrieve("ns", Intent.of("a task never seen", AXIS0)).selected()).hasSize(3);
    }
  }

  /** Eight intent groups of one success each, in order of cosine to axis 0 (0.89 down to 0.82): more than k1. */
  private MemLoop eightIntents(MemLoopConfig config) {
    int dim = 16;
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(dim)).config(config).clock(clock).seed(5).build();
    for (int j = 1; j <= 8; j++) {
      float[] v = new float[dim];
      v[0] = 0.9f - 0.01f * j;
      v[j] = (float) Math.sqrt(1 - v[0] * v[0]);
      clock.advance(Duration.ofSeconds(1));
      loop.remember("ns", Intent.of("other task " + j, v), "what worked for " + j, Outcome.SUCCESS);
    }
    return loop;
  }

  private static float[] axis0(int dim) {
    float[] v = new float[dim];
    v[0] = 1;
    return v;
  }

  @Test
  void aNewTask_recallsFirstEncounterK1Intents_aKnownOneK1() {
    // the recall alone: the order of the vectors' similarity, not reordered by the texts' words (textSimilarity)
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().textSimilarity(MemLoopConfig.TextSimilarity.OFF)
        .build();
    assertThat(config.k1()).isEqualTo(5);
    assertThat(config.firstEncounterK1()).isEqualTo(32);
    try (MemLoop loop = eightIntents(config)) { // all eight of the wider recall: fewer intents than 32 in the store
      Intent task = Intent.of("a task never seen", axis0(16));
      Retrieval first = loop.retrieve("ns", task);
      assertThat(first.candidates()).hasSize(8);
      assertThat(first.selected()).extracting(Memory::experience)
          .containsExactly("what worked for 1", "what worked for 2", "what worked for 3", "what worked for 4",
              "what worked for 5", "what worked for 6", "what worked for 7", "what worked for 8");
      assertThat(loop.explain("ns", Intent.of("another task never seen", axis0(16))).steps())
          .anySatisfy(step -> assertThat(step.detail()).contains("recalled from up to firstEncounterK1 = 32 intents instead of k1 = 5"));
      loop.reward("ns", first.id(), 1.0);
      // with a record of its own, the task's recall is the top k1 of the wider one, as without the knob
      Retrieval again = loop.retrieve("ns", task);
      assertThat(again.candidates()).hasSize(5);
      assertThat(again.selected()).hasSize(3);
    }
    try (MemLoop narrow = eightIntents(config.toBuilder().firstEncounterK1(0).build())) {
      Retrieval first = narrow.retrieve("ns", Intent.of("a task never seen", axis0(16)));
      assertThat(first.candidates()).hasSize(5);
      assertThat(first.selected()).hasSize(5);
    }
    // the wider recall needs the wider view: with firstEncounterK2 off, a new task recalls k1 intents
    try (MemLoop off = eightIntents(config.toBuilder().firstEncounterK2(0).build())) {
      assertThat(off.retrieve("ns", Intent.of("a task never seen", axis0(16))).candidates()).hasSize(5);
    }
  }

  @Test
  void aTaskWhoseOwnMemoryIsInTheWiderRecall_recallsK1() {
    try (MemLoop loop = eightIntents(MemLoopConfig.preset(Preset.DEFAULT))) {
      Intent task = Intent.of("a task remembered before", axis0(16));
      loop.remember("ns", task, "what this task did last time", Outcome.SUCCESS);
      Retrieval r = loop.retrieve("ns", task);
      assertThat(r.candidates()).hasSize(5);
      assertThat(r.selected()).hasSize(3).first().extracting(Memory::experience).isEqualTo("what this task did last time");
    }
  }

  @Test
  void eightInTheDefault_offInTheReferencePresets() {
    assertThat(MemLoopConfig.preset(Preset.DEFAULT).firstEncounterK2()).isEqualTo(8);
    assertThat(MemLoopConfig.preset(Preset.MEMRL).firstEncounterK2()).isZero();
    assertThat(MemLoopConfig.preset(Preset.SIMILARITY).firstEncounterK2()).isZero();
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      assertThat(loop.retrieve("ns", Intent.of("a task never seen", AXIS0)).selected()).hasSize(8);
    }
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK2(0).build())) {
      assertThat(loop.retrieve("ns", Intent.of("a task never seen", AXIS0)).selected()).hasSize(3);
    }
  }
}
