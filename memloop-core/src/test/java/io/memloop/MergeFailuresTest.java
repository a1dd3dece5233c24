package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.memloop.store.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link MemLoopConfig.Consolidation#MERGE_FAILURES}: a task's failed attempts become one failure note, and
 * what per-task learning shows a task that keeps failing.
 */
class MergeFailuresTest {
  private static final int DIM = 8;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));

  private MemLoop engine(MemLoopConfig config) {
    return MemLoop.builder().store(new InMemoryStore(DIM)).config(config).clock(clock).seed(11).build();
  }

  private static float[] axis(int i) {
    float[] v = new float[DIM];
    v[i] = 1;
    return v;
  }

  /** A unit vector with cosine {@code cos} to axis 0. */
  private static float[] nearAxis0(double cos) {
    float[] v = new float[DIM];
    v[0] = (float) cos;
    v[1] = (float) Math.sqrt(1 - cos * cos);
    return v;
  }

  private Memory remember(MemLoop loop, Intent intent, String experience, Outcome outcome) {
    clock.advance(Duration.ofSeconds(1));
    return loop.remember("ns", intent, experience, outcome);
  }

  /** A note of four failed attempts at {@code task}, "answer 4 was wrong" newest. */
  private void fourWrongAnswers(MemLoop loop, Intent task) {
    for (int i = 1; i <= 4; i++) {
      remember(loop, task, "answer " + i + " was wrong", Outcome.FAILURE);
    }
  }

  private Memory remember(MemLoop loop, Intent intent, String experience, Outcome outcome, String retrievalId) {
    clock.advance(Duration.ofSeconds(1));
    return loop.remember("ns", intent, experience, outcome, retrievalId);
  }

  @Test
  void aTasksFailedAttempts_becomeOneNote_newestFirst_keepingItsUtility() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Intent task = Intent.of("rotate the keys of service A", axis(0));
      Memory first = remember(loop, task, "attempt 1 failed", Outcome.FAILURE);
      Retrieval r = loop.retrieve("ns", task);
      loop.reward("ns", r.id(), -1); // the note's utility moves: the merged note keeps it
      double q = loop.get("ns", first.id()).orElseThrow().q();
      Memory second = remember(loop, task, "attempt 2 failed", Outcome.FAILURE);

      assertThat(second.id()).isNotEqualTo(first.id());
      assertThat(second.parts()).containsExactly("attempt 2 failed", "attempt 1 failed");
      assertThat(second.experience()).isEqualTo("attempt 2 failed" + Memory.PART_SEPARATOR + "attempt 1 failed");
      assertThat(second.q()).isCloseTo(q, within(1e-12)).isNotEqualTo(0.0);
      assertThat(second.intentId()).isEqualTo(first.intentId());
      assertThat(loop.get("ns", first.id())).as("the old note is replaced").isEmpty();
      assertThat(loop.stats("ns").memories()).isEqualTo(1);

      Memory again = remember(loop, task, "attempt 1 failed", Outcome.FAILURE);
      assertThat(again).as("an attempt the note already lists is a duplicate").isEqualTo(loop.get("ns", second.id()).orElseThrow());
    }
  }

  @Test
  void anExperienceWithAMarkdownRule_isOneAttempt() {
    String markdown = "tried the rollback\n---\nnotes: the config was stale";
    assertThat(Memory.parts(markdown)).containsExactly(markdown);
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Intent task = Intent.of("roll back the release", axis(0));
      Memory note = remember(loop, task, markdown, Outcome.FAILURE);
      Memory merged = remember(loop, task, "tried a hotfix", Outcome.FAILURE);
      assertThat(merged.parts()).containsExactly("tried a hotfix", markdown);
      assertThat(note.parts()).hasSize(1);
    }
  }

  @Test
  void aNoteListsAtMostTheNewestAttempts() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Intent task = Intent.of("rotate the keys of service A", axis(0));
      int max = MemLoopConfig.Consolidation.MAX_MERGED_ATTEMPTS;
      Memory note = null;
      for (int i = 1; i <= max + 3; i++) {
        note = remember(loop, task, "attempt " + i + " failed", Outcome.FAILURE);
      }
      assertThat(note.parts()).hasSize(max).first().isEqualTo("attempt " + (max + 3) + " failed");
      assertThat(note.parts()).last().isEqualTo("attempt 4 failed");
      assertThat(loop.stats("ns").memories()).isEqualTo(1);
    }
  }

  @Test
  void successes_otherTasks_andOtherConfigurations_areNotMerged() {
    Intent task = Intent.of("rotate the keys of service A", axis(0));
    Intent lookAlike = Intent.of("rotate the keys of service B", nearAxis0(0.95)); // same intent group, another task
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Memory fail = remember(loop, task, "attempt 1 failed", Outcome.FAILURE);
      Memory other = remember(loop, lookAlike, "attempt B failed", Outcome.FAILURE);
      Memory win1 = remember(loop, task, "plan X worked", Outcome.SUCCESS);
      Memory win2 = remember(loop, task, "plan Y worked", Outcome.SUCCESS);
      assertThat(other.intentId()).as("the look-alike joins the group").isEqualTo(fail.intentId());
      assertThat(List.of(fail, other, win1, win2)).allSatisfy(m -> assertThat(m.parts()).hasSize(1));
      assertThat(loop.stats("ns").memories()).isEqualTo(4);
    }
    MemLoopConfig exact = MemLoopConfig.preset(Preset.DEFAULT).toBuilder()
        .consolidation(MemLoopConfig.Consolidation.EXACT_DUPLICATES).build();
    try (MemLoop loop = engine(exact)) {
      remember(loop, task, "attempt 1 failed", Outcome.FAILURE);
      remember(loop, task, "attempt 2 failed", Outcome.FAILURE);
      assertThat(loop.stats("ns").memories()).isEqualTo(2);
    }
  }

  @Test
  void aRememberNamingItsRetrieval_mergesWithoutASecondSearch_likeOneThatDoesNot() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT))) {
      Intent task = Intent.of("rotate the keys of service A", axis(0));
      remember(loop, task, "attempt 1 failed", Outcome.FAILURE);
      Retrieval r = loop.retrieve("ns", task);
      loop.reward("ns", r.id(), -1);
      clock.advance(Duration.ofSeconds(1));
      Memory merged = loop.remember("ns", task, "attempt 2 failed", Outcome.FAILURE, r.id());
      assertThat(merged.parts()).containsExactly("attempt 2 failed", "attempt 1 failed");
      assertThat(loop.stats("ns").memories()).isEqualTo(1);
    }
  }

  @Test
  void aFailingTask_seesItsOwnRecord_notLookAlikesThatHaveNotHelpedIt() {
    // exploration off: the draw never lets another intent's memory in
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().exploreAfterFailures(2).exploreBudget(0).build();
    try (MemLoop loop = engine(c)) {
      Intent task = Intent.of("rotate the keys of service A", axis(0));
      remember(loop, task, "attempt 1 failed", Outcome.FAILURE);
      Memory sibling = remember(loop, Intent.of("rotate the keys of service B", nearAxis0(0.8)), "plan S worked", Outcome.SUCCESS);
      Memory siblingNote = remember(loop, Intent.of("rotate the keys of service C", nearAxis0(0.7)), "plan T failed", Outcome.FAILURE);
      // not failing yet: the look-alikes fill the slots the merged note leaves
      Retrieval before = loop.retrieve("ns", task);
      assertThat(before.selected()).extracting(Memory::id).contains(sibling.id(), siblingNote.id());
      loop.reward("ns", before.id(), -1, List.of());
      remember(loop, task, "attempt 2 failed", Outcome.FAILURE);
      Retrieval again = loop.retrieve("ns", task);
      loop.reward("ns", again.id(), -1, List.of());
      Retrieval failing = loop.retrieve("ns", task);
      assertThat(failing.selected()).as("two failures, nothing proven: only its own note")
          .singleElement().satisfies(m -> assertThat(m.parts()).hasSize(2));
      assertThat(failing.candidates()).filteredOn(cand -> !cand.selected())
          .extracting(Candidate::memoryId, Candidate::probability)
          .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(sibling.id(), 0.0),
              org.assertj.core.groups.Tuple.tuple(siblingNote.id(), 0.0));
    }
  }

  @Test
  void aLongNote_isShownWhole_orAsItsNewestK2Attempts_byALoggedDraw_andTheNamespaceLearnsWhich() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(2).exploreBudget(0).build();
    try (MemLoop loop = engine(c)) {
      Intent task = Intent.of("answer question 7", axis(0));
      fourWrongAnswers(loop, task);
      int whole = 0;
      int shortened = 0;
      int wholeWins = 0;
      for (int i = 0; i < 200; i++) {
        Retrieval r = loop.retrieve("ns", task);
        Memory shown = r.selected().getFirst();
        assertThat(shown.parts().size()).isIn(2, 4);
        // a world where the whole note helps: it succeeds when shown whole, fails when shortened
        boolean isWhole = shown.parts().size() == 4;
        if (isWhole) {
          whole++;
          wholeWins += i >= 100 ? 1 : 0;
        } else {
          shortened++;
          assertThat(shown.parts()).containsExactly("answer 4 was wrong", "answer 3 was wrong");
          assertThat(loop.get("ns", shown.id()).orElseThrow().parts()).as("the stored note is whole").hasSize(4);
        }
        loop.reward("ns", r.id(), isWhole ? 1 : -1, List.of());
      }
      assertThat(shortened).as("both are tried").isPositive();
      Map<String, double[]> d = loop.store().ledger("ns", List.of("d"));
      assertThat(d.get("d")).containsExactly(whole, whole, shortened, 0);
      assertThat(wholeWins).as("the second hundred draws mostly show the whole note").isGreaterThan(90);
    }
  }

  @Test
  void theNoteDepthDraw_isKeptWithTheRetrieval_soARewardAfterARestartCountsTowardsIt() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(2).exploreBudget(0).build();
    InMemoryStore store = new InMemoryStore(DIM);
    Intent task = Intent.of("answer question 7", axis(0));
    List<Retrieval> pending = new java.util.ArrayList<>();
    // the engine that retrieved goes away unclosed (a process that ended); a new one on the same store rewards
    MemLoop before = MemLoop.builder().store(store).config(c).clock(clock).seed(3).build();
    fourWrongAnswers(before, task);
    for (int i = 0; i < 10; i++) {
      pending.add(before.retrieve("ns", task));
    }
    int whole = (int) pending.stream().filter(r -> r.selected().getFirst().parts().size() == 4).count();
    assertThat(whole).as("both depths drawn").isBetween(1, 9);
    try (MemLoop after = MemLoop.builder().store(store).config(c).clock(clock).seed(4).build()) {
      for (Retrieval r : pending) {
        after.reward("ns", r.id(), -1);
      }
      assertThat(after.store().ledger("ns", List.of("d")).get("d")).containsExactly(whole, 0, 10 - whole, 0);
    }
  }

  @Test
  void aFixedNoteDepth_showsEveryNoteThatWay_withoutADraw() {
    for (MemLoopConfig.NoteDepth depth : List.of(MemLoopConfig.NoteDepth.WHOLE, MemLoopConfig.NoteDepth.NEWEST)) {
      MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(2).exploreBudget(0).noteDepth(depth).build();
      try (MemLoop loop = engine(c)) {
        Intent task = Intent.of("answer question 7", axis(0));
        fourWrongAnswers(loop, task);
        for (int i = 0; i < 20; i++) {
          Retrieval r = loop.retrieve("ns", task);
          assertThat(r.selected().getFirst().parts()).as(depth.name())
              .hasSize(depth == MemLoopConfig.NoteDepth.WHOLE ? 4 : 2).startsWith("answer 4 was wrong");
          loop.reward("ns", r.id(), i % 2 == 0 ? 1 : -1, List.of());
        }
        assertThat(loop.store().ledger("ns", List.of("d"))).as("no draw to learn from").isEmpty();
      }
    }
  }

  @Test
  void withoutPerTaskLearning_aNewestDepthStillBoundsTheNote_andALearnedOneShowsItWhole() {
    MemLoopConfig off = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(2).taskLearning(MemLoopConfig.TaskLearning.OFF)
        .build();
    for (MemLoopConfig c : List.of(off, off.toBuilder().noteDepth(MemLoopConfig.NoteDepth.NEWEST).build())) {
      try (MemLoop loop = engine(c)) {
        Intent task = Intent.of("answer question 7", axis(0));
        fourWrongAnswers(loop, task);
        assertThat(loop.retrieve("ns", task).selected().getFirst().parts())
            .hasSize(c.noteDepth() == MemLoopConfig.NoteDepth.NEWEST ? 2 : 4);
      }
    }
  }

  @Test
  void repeatingAnAttemptTheShortenedNoteLeftOut_countsAgainstShortenedNotes_onlyThen() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(2).exploreBudget(0).build();
    try (MemLoop loop = engine(c)) {
      Intent task = Intent.of("answer question 7", axis(0));
      fourWrongAnswers(loop, task);
      Retrieval shortened = null;
      Retrieval whole = null;
      int[] shown = new int[2]; // rewarded episodes: [whole, shortened]
      while (shortened == null || whole == null) {
        Retrieval r = loop.retrieve("ns", task);
        boolean isWhole = r.selected().getFirst().parts().size() == 4;
        shown[isWhole ? 0 : 1]++;
        loop.reward("ns", r.id(), -1);
        if (isWhole && whole == null) {
          whole = r;
        } else if (!isWhole && shortened == null) {
          shortened = r;
        }
      }
      double[] before = loop.store().ledger("ns", List.of("d")).get("d");
      assertThat(before).containsExactly(shown[0], 0, shown[1], 0);
      // shown to it: the newest two; repeating one of them is the agent's own doing
      remember(loop, task, "answer 4 was wrong", Outcome.FAILURE, shortened.id());
      // the whole note showed every attempt
      remember(loop, task, "answer 1 was wrong", Outcome.FAILURE, whole.id());
      assertThat(loop.store().ledger("ns", List.of("d")).get("d")).containsExactly(before);
      // left out by the shortened note, and repeated: counted once, however often the agent says so
      remember(loop, task, "answer 1 was wrong", Outcome.FAILURE, shortened.id());
      remember(loop, task, "answer 1 was wrong", Outcome.FAILURE, shortened.id());
      remember(loop, task, "answer 2 was wrong", Outcome.FAILURE, shortened.id());
      assertThat(loop.store().ledger("ns", List.of("d")).get("d")).containsExactly(shown[0], 0, shown[1] + 1, 0);
      assertThat(loop.get("ns", shortened.selected().getFirst().id()).orElseThrow().parts())
          .as("a repeat is not stored again").hasSize(4);
    }
  }
}
