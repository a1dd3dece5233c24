package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.store.InMemoryStore;
import io.memloop.store.NewMemory;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One intent bound for every way in (issue 23 item 13): the engine refuses a longer intent text, naming it. */
class IntentBoundTest {
  private static final float[] AXIS = {1, 0, 0, 0};

  private static MemLoop engine(InMemoryStore store) {
    return MemLoop.builder().store(store).build();
  }

  private static void refused(Runnable call) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(MemLoopException.class, e -> {
      assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT);
      assertThat(e.field()).isEqualTo("intent");
      assertThat(e.getMessage()).contains("is 8193 characters, over the limit of 8192");
    });
  }

  @Test
  void retrieveRememberAndImportRefuseAnIntentOverTheBoundAndAcceptOneAtIt() {
    InMemoryStore store = new InMemoryStore(4);
    try (MemLoop loop = engine(store)) {
      Intent over = Intent.of("o".repeat(Checks.MAX_INTENT_CHARS + 1), AXIS);
      refused(() -> loop.retrieve("ns", over));
      refused(() -> loop.remember("ns", over, "did it", Outcome.SUCCESS));
      refused(() -> loop.importAll("ns", List.of(new NewMemory("ns", over.text(), AXIS, "did it", Outcome.SUCCESS, 0.5,
          Instant.EPOCH))));
      assertThat(loop.stats("ns").memories()).isZero();

      Intent at = Intent.of("a".repeat(Checks.MAX_INTENT_CHARS), AXIS);
      Memory m = loop.remember("ns", at, "did it", Outcome.SUCCESS);
      assertThat(loop.retrieve("ns", at).selected()).extracting(Memory::id).containsExactly(m.id());
    }
  }

  @Test
  void theBoundIsEightKibiCharactersAsHttpCountsThem() {
    assertThat(Checks.MAX_INTENT_CHARS).isEqualTo(8 * 1024);
    assertThat(Checks.intentLengthProblem("\uD83D\uDE00".repeat(4_096))).isEmpty(); // 8,192 UTF-16 code units
    assertThat(Checks.intentLengthProblem("\uD83D\uDE00".repeat(4_096) + "x")).hasValue("is 8193 characters, over the limit of 8192");
  }
}
