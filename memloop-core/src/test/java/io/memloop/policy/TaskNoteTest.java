package io.memloop.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.store.Annotations;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class TaskNoteTest {
  @Test
  void none_isNoAnnotation_andNoAnnotationIsNone() {
    assertThat(TaskNote.NONE.into(Annotations.EMPTY)).isSameAs(Annotations.EMPTY);
    assertThat(TaskNote.of(Annotations.EMPTY)).isSameAs(TaskNote.NONE);
    assertThat(TaskNote.of(Annotations.of("other", 1, new byte[] {1}))).isSameAs(TaskNote.NONE);
    Annotations withTask = new TaskNote("t", "", true).into(Annotations.of("other", 1, new byte[] {1}));
    assertThat(TaskNote.NONE.into(withTask).names()).containsExactly("other"); // NONE removes an earlier note
  }

  @Test
  void everyField_roundTrips_besideOtherAnnotations() {
    Annotations other = Annotations.of("other", 3, new byte[] {7});
    for (int depth = TaskNote.NO_DRAW; depth <= TaskNote.WHOLE; depth++) {
      for (boolean explorable : new boolean[] {false, true}) {
        TaskNote note = new TaskNote("tä" + depth, explorable ? "m12" : "", explorable, "m3".repeat(100), depth);
        Annotations a = note.into(other);
        assertThat(a.names()).containsExactly("other", "task");
        assertThat(a.get("task").orElseThrow().version()).isEqualTo(TaskNote.VERSION);
        assertThat(TaskNote.of(a)).isEqualTo(note);
        assertThat(TaskNote.of(Annotations.fromBytes(a.toBytes()))).isEqualTo(note);
      }
    }
  }

  @Test
  void layout_isCompact_andStable() {
    byte[] data = new TaskNote("tk", "m1", true, "m1", TaskNote.NEWEST).into(Annotations.EMPTY).get("task").orElseThrow().data();
    // flags: depth 0 + 1 = 1, explorable 4 -> 05; then 2 "tk", 2 "m1", 2 "m1"
    assertThat(HexFormat.of().formatHex(data)).isEqualTo("05" + "02746b" + "026d31" + "026d31");
  }

  @Test
  void anotherVersion_orMalformedData_isRefused_namingTheAnnotation() {
    assertThatThrownBy(() -> TaskNote.of(Annotations.of("task", 2, new byte[] {0, 0, 0, 0})))
        .hasMessageContaining("annotation 'task' has version 2 (this build reads version 1)");
    assertThatThrownBy(() -> TaskNote.of(Annotations.of("task", 1, new byte[] {3, 0, 0, 0})))
        .hasMessageContaining("bad flags byte");
    assertThatThrownBy(() -> TaskNote.of(Annotations.of("task", 1, new byte[] {0, 5, 'a'})))
        .hasMessageContaining("runs past the end");
    assertThatThrownBy(() -> TaskNote.of(Annotations.of("task", 1, new byte[] {0, 0, 0, 0, 0})))
        .hasMessageContaining("1 trailing bytes");
    assertThatThrownBy(() -> TaskNote.of(Annotations.of("task", 1, new byte[0])))
        .hasMessageContaining("bad flags byte");
  }
}
