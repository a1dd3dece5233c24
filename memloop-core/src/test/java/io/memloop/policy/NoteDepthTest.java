package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NoteDepthTest {
  private static final TaskView TASK = new TaskView("t", 0, 0, 0.5, Map.of(), 1, 0.4);

  private static Memory note(String id, Outcome outcome, int attempts) {
    List<String> parts = new ArrayList<>();
    for (int a = 0; a < attempts; a++) {
      parts.add("attempt " + a);
    }
    return new Memory(id, "ns", "i", "", new float[] {1}, String.join(Memory.PART_SEPARATOR, parts), outcome, 0, 0,
        Instant.EPOCH, Instant.EPOCH);
  }

  private static MemLoopConfig depth(MemLoopConfig.NoteDepth d) {
    return MemLoopConfig.builder().k2(2).noteDepth(d).build();
  }

  @Test
  void whole_showsEveryAttempt_withoutADraw() {
    List<Memory> selected = new ArrayList<>(List.of(note("m1", Outcome.FAILURE, 5)));
    assertThat(NoteDepth.apply(selected, depth(MemLoopConfig.NoteDepth.WHOLE), TASK, Draws.NONE)).isEqualTo(TaskNote.NO_DRAW);
    assertThat(selected.getFirst().parts()).hasSize(5);
  }

  @Test
  void newest_cutsLongFailureNotesToK2_andNothingElse() {
    List<Memory> selected = new ArrayList<>(List.of(note("s", Outcome.SUCCESS, 5), note("f", Outcome.FAILURE, 5),
        note("short", Outcome.FAILURE, 2)));
    assertThat(NoteDepth.apply(selected, depth(MemLoopConfig.NoteDepth.NEWEST), null, Draws.NONE)).isEqualTo(TaskNote.NO_DRAW);
    assertThat(selected).extracting(m -> m.parts().size()).containsExactly(5, 2, 2);
    assertThat(selected.get(1).parts()).containsExactly("attempt 0", "attempt 1");
  }

  @Test
  void learned_withoutPerTaskLearning_showsNotesWhole() {
    List<Memory> selected = new ArrayList<>(List.of(note("f", Outcome.FAILURE, 5)));
    assertThat(NoteDepth.apply(selected, depth(MemLoopConfig.NoteDepth.LEARNED), null, Draws.NONE)).isEqualTo(TaskNote.NO_DRAW);
    assertThat(selected.getFirst().parts()).hasSize(5);
  }

  @Test
  void learned_drawsOnlyWhenANoteIsLong_wholeBelowTheFullNoteProbability() {
    List<Memory> none = new ArrayList<>(List.of(note("f", Outcome.FAILURE, 2)));
    assertThat(NoteDepth.apply(none, depth(MemLoopConfig.NoteDepth.LEARNED), TASK, Draws.NONE)).isEqualTo(TaskNote.NO_DRAW);

    List<Memory> whole = new ArrayList<>(List.of(note("f", Outcome.FAILURE, 3)));
    Draws.Fixed below = new Draws.Fixed(0.39);
    assertThat(NoteDepth.apply(whole, depth(MemLoopConfig.NoteDepth.LEARNED), TASK, below)).isEqualTo(TaskNote.WHOLE);
    assertThat(whole.getFirst().parts()).hasSize(3);
    assertThat(below.doubles).isEqualTo(1);

    List<Memory> newest = new ArrayList<>(List.of(note("f", Outcome.FAILURE, 3)));
    assertThat(NoteDepth.apply(newest, depth(MemLoopConfig.NoteDepth.LEARNED), TASK, new Draws.Fixed(0.4)))
        .isEqualTo(TaskNote.NEWEST);
    assertThat(newest.getFirst().parts()).hasSize(2);
  }
}
