package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Candidate;
import io.memloop.MemLoopException;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.RetrievalRecord;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Retrieval payloads: annotations as base64 under "ann", and the payloads of the builds before them. */
class PayloadsTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final String CANDIDATES = "\"candidates\":[[\"m1\",0.9,0.5,1.0,true,1.0]]";

  @Test
  void annotations_roundTrip_andNoneWritesNoField() {
    Annotations a = new TaskNote("tk", "m1", true, "m1", TaskNote.WHOLE).into(Annotations.of("other", 2, new byte[] {1, 2}));
    RetrievalRecord r = new RetrievalRecord("r5", "ns", T0, T0.plusSeconds(60), List.of(new Candidate("m1", 0.9, 0.5, 1, true, 1)), a);
    String payload = Payloads.retrieval(r);
    assertThat(payload).contains("\"ann\":\"" + java.util.Base64.getEncoder().encodeToString(a.toBytes()) + "\"")
        .doesNotContain("task");
    assertThat(Payloads.retrieval("r5", "ns", payload)).isEqualTo(r);
    RetrievalRecord plain = new RetrievalRecord("r6", "ns", T0, T0.plusSeconds(60), r.candidates());
    assertThat(Payloads.retrieval(plain)).doesNotContain("ann");
    assertThat(Payloads.retrieval("r6", "ns", Payloads.retrieval(plain))).isEqualTo(plain);
  }

  @Test
  void payloadsOfTheBuildsBefore_readTheirTaskFieldsIntoTheTaskAnnotation() {
    String prefix = "{\"created\":\"2026-01-01T00:00:00Z\",\"expires\":\"2026-01-01T00:01:00Z\"," + CANDIDATES;
    // with the note-depth draw, before it (four fields), and without per-task learning (all empty)
    assertThat(TaskNote.of(Payloads.retrieval("r1", "ns", prefix + ",\"task\":[\"tk\",\"\",true,\"m1\",0]}").annotations()))
        .isEqualTo(new TaskNote("tk", "", true, "m1", TaskNote.NEWEST));
    assertThat(TaskNote.of(Payloads.retrieval("r1", "ns", prefix + ",\"task\":[\"tk\",\"m1\",true,\"m1\"]}").annotations()))
        .isEqualTo(new TaskNote("tk", "m1", true, "m1"));
    assertThat(Payloads.retrieval("r1", "ns", prefix + ",\"task\":[\"\",\"\",false,\"\"]}").annotations())
        .isSameAs(Annotations.EMPTY);
    RetrievalRecord r = Payloads.retrieval("r1", "ns", prefix + "}");
    assertThat(r.annotations()).isSameAs(Annotations.EMPTY);
    assertThat(r.candidates()).containsExactly(new Candidate("m1", 0.9, 0.5, 1.0, true, 1.0));
  }

  @Test
  void damagedAnnotations_areStoreCorrupt() {
    String payload = "{\"created\":\"2026-01-01T00:00:00Z\",\"expires\":\"2026-01-01T00:01:00Z\"," + CANDIDATES + ",\"ann\":\"CQE=\"}";
    assertThatThrownBy(() -> Payloads.retrieval("r1", "ns", payload)).isInstanceOf(MemLoopException.class)
        .hasMessageContaining("unreadable stored annotations").hasMessageContaining("unknown format version 9");
  }
}
