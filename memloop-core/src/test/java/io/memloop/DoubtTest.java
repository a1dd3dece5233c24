package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.policy.TaskNote;
import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig#doubt()}: a task with no record of its own whose ranking holds a success experience whose latest
 * use failed is shown it last on a draw, with the probability that doing so pays in the namespace; each namespace
 * learns that from its own rewards. The arms' record is checked against a reference count in
 * {@link TwoArmedRecordTest}.
 */
class DoubtTest {
  private static final int DIM = 8;

  private static float[] unit(double... v) {
    return TestVectors.unit(DIM, v);
  }

  /** The nearer success (cosine about 0.99 to every query) and the farther one (about 0.8). */
  private static final float[] NEAR = unit(1, 0.1);
  private static final float[] FAR = unit(1, 0, 0.75);

  private static Intent newTask(int i) {
    return Intent.of("a new task " + i, unit(1, 0.05, 0.02 * (i % 5), 0.01 * (i % 7)));
  }

  /** The default with doubt alone reordering: no learned or lexical similarity, no freshness. */
  private static MemLoopConfig config(MemLoopConfig.Doubt doubt) {
    return MemLoopConfig.preset(Preset.DEFAULT).toBuilder().doubt(doubt).similarityDirections(0)
        .textSimilarity(MemLoopConfig.TextSimilarity.OFF).freshness(0).build();
  }

  private static MemLoop engine(MemLoopConfig config) {
    return MemLoop.builder().store(new InMemoryStore(DIM)).config(config)
        .clock(new MutableClock(Instant.parse("2026-03-01T12:00:00Z"))).seed(11).build();
  }

  /** What a world says of an episode: whether the agent, shown {@code first} as the first success, succeeds. */
  private interface World {
    boolean succeeds(String first, boolean firstIsNear, SplittableRandom rnd);
  }

  /** Plays {@code n} new tasks against the two successes; returns the success count of the last {@code tail}. */
  private static int play(MemLoop loop, World world, int n, int tail, long seed) {
    Memory near = loop.remember("ns", Intent.of("the near task", NEAR), "the near way", Outcome.SUCCESS);
    loop.remember("ns", Intent.of("the far task", FAR), "the far way", Outcome.SUCCESS);
    SplittableRandom rnd = new SplittableRandom(seed);
    int late = 0;
    for (int i = 0; i < n; i++) {
      Retrieval r = loop.retrieve("ns", newTask(i));
      Memory first = r.selected().stream().filter(m -> m.outcome() == Outcome.SUCCESS).findFirst().orElseThrow();
      boolean ok = world.succeeds(first.id(), first.id().equals(near.id()), rnd);
      loop.reward("ns", r.id(), ok ? 1 : -1);
      late += i >= n - tail && ok ? 1 : 0;
    }
    return late;
  }

  /** The near success misleads every task; the far one helps every task. */
  private static final World NEAR_MISLEADS = (first, isNear, rnd) -> !isNear;

  /** The near success helps seven tasks in ten; the far one two in ten: a failure of the near one is bad luck. */
  private static final World NEAR_USUALLY_RIGHT = (first, isNear, rnd) -> rnd.nextDouble() < (isNear ? 0.7 : 0.2);

  @Test
  void whereADoubtedSuccessMisleads_theNamespaceLearnsToShowItLast() {
    try (MemLoop loop = engine(config(MemLoopConfig.Doubt.LEARNED)); MemLoop off = engine(config(MemLoopConfig.Doubt.OFF))) {
      int learned = play(loop, NEAR_MISLEADS, 200, 100, 1);
      int plain = play(off, NEAR_MISLEADS, 200, 100, 1);
      Learned l = loop.learned("ns");
      assertThat(l.doubtProbability()).as("the chance of showing the doubted last").isGreaterThan(0.95);
      assertThat(l.doubtDemotedSuccessRate()).isGreaterThan(l.doubtKeptSuccessRate());
      // every episode after the first failure drew: 199 draws, each weighed down by every later one (1 − 1/256 a draw)
      assertThat((double) l.doubtDemoted() + l.doubtKept()).as("every episode after the first failure drew")
          .isCloseTo(256 * (1 - Math.pow(1 - 1.0 / 256, 199)), within(1.0));
      assertThat(learned).as("successes in the last 100: learned %d, off %d", learned, plain).isGreaterThan(90);
      assertThat(plain).as("similarity alone keeps the near success first").isZero();
      assertThat(off.learned("ns").doubtProbability()).as("off: nothing drawn").isNull();
    }
  }

  @Test
  void whereADoubtedSuccessIsUsuallyRight_itKeepsItsPlace_andDoubtCostsNoMoreThanItsFewDraws() {
    try (MemLoop loop = engine(config(MemLoopConfig.Doubt.LEARNED)); MemLoop off = engine(config(MemLoopConfig.Doubt.OFF))) {
      int learned = play(loop, NEAR_USUALLY_RIGHT, 400, 200, 2);
      int plain = play(off, NEAR_USUALLY_RIGHT, 400, 200, 2);
      Learned l = loop.learned("ns");
      // once the far success, shown first on a draw, fails, it is doubted too and never first again (a success shown
      // second is not credited): both orders are the same from then on, and the near success keeps its place
      assertThat(l.doubtDemoted() + l.doubtKept()).as("draws: %s", l).isLessThan(10);
      assertThat(learned).as("successes in the last 200: learned %d, off %d", learned, plain)
          .isGreaterThanOrEqualTo(plain - 10);
    }
  }

  @Test
  void aDrawIsMadeOnlyWhereTheTwoOrdersDiffer_andTheCandidatesCarryItsProbabilities() {
    try (MemLoop loop = engine(config(MemLoopConfig.Doubt.LEARNED))) {
      Memory near = loop.remember("ns", Intent.of("the near task", NEAR), "the near way", Outcome.SUCCESS);
      Memory far = loop.remember("ns", Intent.of("the far task", FAR), "the far way", Outcome.SUCCESS);
      Retrieval first = loop.retrieve("ns", newTask(0));
      assertThat(first.selected()).extracting(Memory::id).containsExactly(near.id(), far.id());
      assertThat(first.candidates()).allSatisfy(c -> assertThat(c.probability()).isEqualTo(1.0));
      loop.reward("ns", first.id(), -1); // the near success's latest use failed: it is doubted now
      Retrieval next = loop.retrieve("ns", newTask(1));
      // both are shown either way (eight may be), in another order: a draw at ½, each shown for certain
      assertThat(next.selected()).extracting(Memory::id).containsExactlyInAnyOrder(near.id(), far.id());
      assertThat(next.candidates()).allSatisfy(c -> assertThat(c.probability()).isEqualTo(1.0, within(1e-12)));
      loop.reward("ns", next.id(), 1);
      assertThat(loop.learned("ns").doubtDemoted() + loop.learned("ns").doubtKept()).isEqualTo(1);
      // a task with a record of its own is not doubted for: its own evidence ranks
      Retrieval again = loop.retrieve("ns", newTask(0));
      loop.reward("ns", again.id(), 1);
      assertThat(loop.learned("ns").doubtDemoted() + loop.learned("ns").doubtKept()).isEqualTo(1);
    }
  }

  @Test
  void withAShortSlate_theDoubtedSuccessIsShownOnlyWhenTheDrawKeepsIt() {
    MemLoopConfig shortSlate = config(MemLoopConfig.Doubt.LEARNED).toBuilder().firstEncounterK2(1).k2(1).build();
    try (MemLoop loop = engine(shortSlate)) {
      Memory near = loop.remember("ns", Intent.of("the near task", NEAR), "the near way", Outcome.SUCCESS);
      Memory far = loop.remember("ns", Intent.of("the far task", FAR), "the far way", Outcome.SUCCESS);
      loop.reward("ns", loop.retrieve("ns", newTask(0)).id(), -1);
      Retrieval r = loop.retrieve("ns", newTask(1));
      Map<String, Double> p = new java.util.HashMap<>();
      r.candidates().forEach(c -> p.put(c.memoryId(), c.probability()));
      // ½ (no arm has a record yet) times the share of rewarded retrievals by new tasks: one of one, (0 + 1) / (1 + 2)
      // recurring, as the recurrence's prior counts it
      double demote = 0.5 * (1 - 1.0 / 3);
      assertThat(loop.learned("ns").recurrence()).isEqualTo(1.0 / 3, within(1e-12));
      assertThat(p.get(near.id())).isEqualTo(1 - demote, within(1e-6));
      assertThat(p.get(far.id())).isEqualTo(demote, within(1e-6));
      assertThat(r.selected()).hasSize(1);
    }
  }

  @Test
  void thePerTaskReplay_enumeratesBothArms_withTheirProbabilities() {
    OfflineLearning replay = new OfflineLearning(config(MemLoopConfig.Doubt.LEARNED));
    List<Candidate> pool = List.of(new Candidate("m1", 0.95, 0, 0, false, 0), new Candidate("m2", 0.80, 0, 0, false, 0));
    Map<String, OfflineLearning.Known> known = Map.of("m1", new OfflineLearning.Known(Outcome.SUCCESS, "the near way"),
        "m2", new OfflineLearning.Known(Outcome.SUCCESS, "the far way"));
    List<OfflineLearning.Choice> first = replay.choose("ns", "a new task 0", pool, known);
    assertThat(first).hasSize(1);
    replay.learn(first.get(0).slate(), TaskNote.NO_DRAW, -1, null, known); // m1, shown first, failed
    List<OfflineLearning.Choice> next = replay.choose("ns", "a new task 1", pool, known);
    assertThat(next).extracting(OfflineLearning.Choice::slate)
        .containsExactlyInAnyOrder(List.of("m1", "m2"), List.of("m2", "m1"));
    // Φ(0) = ½ (approximated), times the share of rewarded retrievals by new tasks, 1 − (0 + 1) / (1 + 2)
    double drawn = 0.5 * (1 - 1.0 / 3);
    assertThat(next).filteredOn(c -> c.slate().get(0).equals("m2")).singleElement()
        .satisfies(c -> assertThat(c.probability()).isEqualTo(drawn, within(1e-6)));
    assertThat(next).filteredOn(c -> c.slate().get(0).equals("m1")).singleElement()
        .satisfies(c -> assertThat(c.probability()).isEqualTo(1 - drawn, within(1e-6)));
    replay.learn(List.of("m2", "m1"), TaskNote.NO_DRAW, 1, null, known); // the demoted arm succeeded
    List<OfflineLearning.Choice> third = replay.choose("ns", "a new task 2", pool, known);
    double demote = third.stream().filter(c -> c.slate().get(0).equals("m2")).mapToDouble(OfflineLearning.Choice::probability).sum();
    double share = 1 - 1.0 / 4; // two rewards, none by a task rewarded before: recurrence (0 + 1) / (2 + 2)
    assertThat(demote).as("one success of the demoted arm tilts the draw towards it").isGreaterThan(0.5 * share);
  }

  /** The default with notes-first doubt and freshness, no learned or lexical similarity. */
  private static MemLoopConfig notesFirst() {
    return MemLoopConfig.preset(Preset.DEFAULT).toBuilder().doubt(MemLoopConfig.Doubt.NOTES_FIRST)
        .similarityDirections(0).textSimilarity(MemLoopConfig.TextSimilarity.OFF).build();
  }

  /** A success nearest every new task, and two notes below it, the nearer one written an hour before the other. */
  private record Planted(Memory plan, Memory older, Memory newer) {}

  private static Planted plant(MemLoop loop, MutableClock clock) {
    Memory plan = loop.remember("ns", Intent.of("the near task", NEAR), "the near way", Outcome.SUCCESS);
    Memory older = loop.remember("ns", Intent.of("an older note", unit(1, 0.3)), "what went wrong, then",
        Outcome.FAILURE);
    clock.advance(java.time.Duration.ofHours(1));
    Memory newer = loop.remember("ns", Intent.of("a newer note", unit(1, 0.31)), "what went wrong, lately",
        Outcome.FAILURE);
    return new Planted(plan, older, newer);
  }

  @Test
  void notesFirst_drawsWithoutADoubtedSuccess_andItsArmShowsTheNotesFirst_newerFirst() {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(notesFirst()).clock(clock).seed(11)
        .build()) {
      Planted m = plant(loop, clock);
      Memory plan = m.plan();
      Memory older = m.older();
      Memory newer = m.newer();
      int notesFirst = 0;
      int kept = 0;
      for (int i = 0; i < 40; i++) {
        Retrieval r = loop.retrieve("ns", newTask(i));
        List<String> shown = r.selected().stream().map(Memory::id).toList();
        if (shown.getFirst().equals(plan.id())) { // the ranking kept: similarity order
          assertThat(shown).containsExactly(plan.id(), older.id(), newer.id());
          kept++;
        } else { // drawn: the success after the notes, the newer note first though the older is nearer
          assertThat(shown).containsExactly(newer.id(), older.id(), plan.id());
          notesFirst++;
        }
      }
      // no success is doubted (none was used), yet every new task draws: ½ × (1 − recurrence's prior ½) = ¼
      assertThat(notesFirst).as("notes first %d, kept %d", notesFirst, kept).isBetween(3, 20);
      assertThat(kept).isPositive();
      assertThat(loop.explain("ns", newTask(99)).steps()).filteredOn(s -> s.step().equals("TaskOrder")).singleElement()
          .satisfies(s -> assertThat(s.detail()).contains("every success goes after the notes", "NOTES_FIRST"));
      loop.reward("ns", loop.retrieve("ns", newTask(99)).id(), 1);
      assertThat(loop.learned("ns").doubtDemoted() + loop.learned("ns").doubtKept()).as("the draw's record")
          .isEqualTo(1);
    }
  }

  @Test
  void notesFirst_withAShortSlate_theCandidatesCarryTheChanceOfTheNoteItsArmShows() {
    MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    MemLoopConfig shortSlate = notesFirst().toBuilder().firstEncounterK2(1).k2(1).build();
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(shortSlate).clock(clock).seed(11)
        .build()) {
      Planted m = plant(loop, clock);
      Memory plan = m.plan();
      Memory older = m.older();
      Memory newer = m.newer();
      Retrieval r = loop.retrieve("ns", newTask(0));
      Map<String, Double> p = new java.util.HashMap<>();
      r.candidates().forEach(c -> p.put(c.memoryId(), c.probability()));
      double notes = 0.5 * (1 - 0.5); // ½ before any record, times 1 − the recurrence's prior ½
      assertThat(p.get(plan.id())).isEqualTo(1 - notes, within(1e-6));
      assertThat(p.get(newer.id())).as("the arm shows the newer note, the nearer older one not at all")
          .isEqualTo(notes, within(1e-6));
      assertThat(p.get(older.id())).isEqualTo(0.0, within(1e-12));
      assertThat(r.selected()).extracting(Memory::id).containsAnyOf(plan.id(), newer.id()).hasSize(1);
    }
  }

  @Test
  void whereOthersPlansMislead_notesFirstLearnsToShowTheNotesFirst_andWhereTheyHelp_toKeepThem() {
    for (boolean plansHelp : new boolean[] {false, true}) {
      try (MemLoop loop = engine(notesFirst())) {
        Memory plan = loop.remember("ns", Intent.of("the near task", NEAR), "the near way", Outcome.SUCCESS);
        loop.remember("ns", Intent.of("a note", FAR), "what went wrong", Outcome.FAILURE);
        int late = 0;
        for (int i = 0; i < 300; i++) {
          Retrieval r = loop.retrieve("ns", newTask(i));
          boolean planFirst = r.selected().getFirst().id().equals(plan.id());
          boolean ok = planFirst == plansHelp;
          loop.reward("ns", r.id(), ok ? 1 : -1);
          late += i >= 200 && ok ? 1 : 0;
        }
        Learned l = loop.learned("ns");
        assertThat(l.doubtProbability()).as("plans help: %s; %s", plansHelp, l)
            .isLessThan(plansHelp ? 0.1 : 1).isGreaterThan(plansHelp ? -1 : 0.9);
        assertThat(late).as("successes in the last 100, plans help: %s", plansHelp).isGreaterThan(85);
      }
    }
  }
}
