package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class MemoryToStringTest {
  private static Memory memory(String experience) {
    Instant t = Instant.parse("2026-01-02T03:04:05Z");
    return new Memory("m7", "team-a", "i3", "restart billing", new float[] {1, 0}, experience, Outcome.FAILURE, 0.25, 2, t, t);
  }

  @Test
  void toString_showsTheExperience() {
    assertThat(memory("kubectl rollout restart deploy/billing").toString())
        .isEqualTo("Memory[id=m7, ns=team-a, intent=i3, q=0.25, visits=2, outcome=FAILURE, "
            + "experience=\"kubectl rollout restart deploy/billing\"]");
  }

  @Test
  void toString_ofAMergedNote_staysOnOneLine() {
    String note = Memory.joinParts(java.util.List.of("second \"try\"", "first try"), 10);
    assertThat(memory(note).toString())
        .doesNotContain("\n")
        .contains("experience=\"second \\\"try\\\"\\n--- earlier attempt ---\\nfirst try\"]");
  }

  @Test
  void toString_abbreviatesALongExperience() {
    String s = memory("x".repeat(10_000)).toString();
    assertThat(s).endsWith("x".repeat(Memory.TO_STRING_EXPERIENCE_CHARS) + "...\"]");
    assertThat(s.length()).isLessThan(Memory.TO_STRING_EXPERIENCE_CHARS + 120);
  }
}
