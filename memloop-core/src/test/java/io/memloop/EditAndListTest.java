package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.events.EventSink;
import io.memloop.store.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** {@link MemLoop#edit} and {@link MemLoop#list}: validation, the event, and the query's own checks. */
class EditAndListTest {
  private static final int DIM = 4;
  private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
  private final List<String> events = new ArrayList<>();

  private MemLoop engine() {
    return MemLoop.builder().store(new InMemoryStore(DIM)).clock(clock).events(new EventSink() {
      @Override
      public void configured(String namespace, Instant at, MemLoopConfig config) {
        events.add("config " + namespace);
      }

      @Override
      public void edited(String namespace, Instant at, Memory memory) {
        events.add("edit " + namespace + " " + memory.id() + " " + memory.experience() + " " + at);
      }
    }).build();
  }

  private static Intent intent(int axis) {
    float[] v = new float[DIM];
    v[axis] = 1;
    return Intent.of("task " + axis, v);
  }

  @Test
  void edit_replacesTheExperience_keepsTheRest_andReportsAnEditEvent() {
    try (MemLoop loop = engine()) {
      Memory m = loop.remember("ns", intent(0), "first try", Outcome.FAILURE);
      Retrieval r = loop.retrieve("ns", intent(0));
      loop.reward("ns", r.id(), 1);
      Memory rewarded = loop.get("ns", m.id()).orElseThrow();
      clock.advance(Duration.ofMinutes(5));
      events.clear();
      Memory edited = loop.edit("ns", m.id(), "corrected: use --force");
      assertThat(edited.experience()).isEqualTo("corrected: use --force");
      assertThat(edited.withExperience(rewarded.experience()))
          .isEqualTo(new Memory(m.id(), "ns", m.intentId(), "task 0", m.intentEmbedding(), "first try", Outcome.FAILURE,
              rewarded.q(), 1, m.createdAt(), clock.instant()));
      assertThat(loop.get("ns", m.id())).contains(edited);
      assertThat(events).containsExactly("edit ns " + m.id() + " corrected: use --force " + clock.instant());
    }
  }

  @Test
  void edit_ofAnUnknownMemory_isNotFound_andABlankText_isInvalid_andNothingIsReported() {
    try (MemLoop loop = engine()) {
      Memory m = loop.remember("ns", intent(0), "text", Outcome.SUCCESS);
      events.clear();
      assertThatThrownBy(() -> loop.edit("ns", "m404", "x")).isInstanceOfSatisfying(MemLoopException.class, e -> {
        assertThat(e.reason()).isEqualTo(MemLoopException.Reason.NOT_FOUND);
        assertThat(e.field()).isEqualTo("memoryId");
      });
      assertThatThrownBy(() -> loop.edit("other", m.id(), "x")).isInstanceOfSatisfying(MemLoopException.class,
          e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.NOT_FOUND));
      for (String blank : new String[] {"", "  \n"}) {
        assertThatThrownBy(() -> loop.edit("ns", m.id(), blank)).isInstanceOfSatisfying(MemLoopException.class, e -> {
          assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT);
          assertThat(e.field()).isEqualTo("experience");
        });
      }
      assertThat(events).allMatch(e -> e.startsWith("config"));
      assertThat(loop.get("ns", m.id()).orElseThrow().experience()).isEqualTo("text");
    }
  }

  @Test
  void list_pagesThroughTheStore() {
    try (MemLoop loop = engine()) {
      for (int i = 0; i < 4; i++) {
        loop.remember("ns", intent(i), "experience " + i, Outcome.SUCCESS);
      }
      MemoryPage first = loop.list("ns", MemoryQuery.all(3));
      assertThat(first.memories()).extracting(Memory::experience).containsExactly("experience 0", "experience 1", "experience 2");
      assertThat(first.total()).isEqualTo(4);
      MemoryPage second = loop.list("ns", MemoryQuery.all(3).after(first.next()));
      assertThat(second.memories()).extracting(Memory::experience).containsExactly("experience 3");
      assertThat(second.next()).isNull();
      assertThat(loop.list("ns", MemoryQuery.builder().text("EXPERIENCE 2").build()).memories()).hasSize(1);
      assertThatThrownBy(() -> loop.list("bad ns", MemoryQuery.all(1))).isInstanceOf(MemLoopException.class)
          .hasMessageStartingWith("namespace:");
    }
  }

  @Test
  void query_refusesBadFields_namingEach() {
    record Bad(String field, Supplier<MemoryQuery> query) {}
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    for (Bad bad : List.of(
        new Bad("limit", () -> MemoryQuery.all(0)),
        new Bad("limit", () -> MemoryQuery.all(1001)),
        new Bad("minQ", () -> MemoryQuery.builder().minQ(Double.NaN).build()),
        new Bad("minQ", () -> MemoryQuery.builder().minQ(Double.POSITIVE_INFINITY).build()),
        new Bad("maxQ", () -> MemoryQuery.builder().maxQ(Double.NaN).build()),
        new Bad("maxQ", () -> MemoryQuery.builder().maxQ(Double.NEGATIVE_INFINITY).build()),
        new Bad("maxQ", () -> MemoryQuery.builder().minQ(0.5).maxQ(0.4).build()),
        new Bad("minVisits", () -> MemoryQuery.builder().minVisits(-1).build()),
        new Bad("maxVisits", () -> MemoryQuery.builder().minVisits(3).maxVisits(2).build()),
        new Bad("createdTo", () -> MemoryQuery.builder().createdFrom(t).createdTo(t.minusNanos(1)).build()),
        new Bad("updatedTo", () -> MemoryQuery.builder().updatedFrom(t).updatedTo(t.minusSeconds(1)).build()),
        new Bad("sort", () -> MemoryQuery.builder().sort(null).build()),
        new Bad("text", () -> MemoryQuery.builder().text("x".repeat(MemoryQuery.MAX_TEXT_CHARS + 1)).build()),
        new Bad("after", () -> MemoryQuery.builder().after("").build()),
        new Bad("after", () -> MemoryQuery.builder().after("c".repeat(600)).build()))) {
      assertThatThrownBy(bad.query::get).as(bad.field).isInstanceOfSatisfying(MemLoopException.class, e -> {
        assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT);
        assertThat(e.field()).isEqualTo(bad.field);
        assertThat(e.getMessage()).startsWith(bad.field + ": ");
      });
    }
    MemoryQuery q = MemoryQuery.builder().text(" \t").outcomes(Set.of()).createdFrom(t).createdTo(t).build();
    assertThat(q.text()).isNull();
    assertThat(q.words()).isEmpty();
  }

  @Test
  void words_areCaseFoldedRunsOfLettersAndDigits_distinct_inOrder() {
    assertThat(MemoryQuery.words("Deploy the API-gateway: v2.3, deploy_again! ÉTÉ x42")).containsExactly(
        "deploy", "the", "api", "gateway", "v2", "3", "again", "été", "x42");
    assertThat(MemoryQuery.words("—…  ")).isEmpty();
    assertThat(MemoryQuery.words("𝒳𝒴 z")).containsExactly("𝒳𝒴", "z"); // letters outside the BMP are letters
  }
}
