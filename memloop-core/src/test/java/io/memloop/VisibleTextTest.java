package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** An intent must show something: texts an embedder would see as empty are refused before it is called. */
class VisibleTextTest {
  @ParameterizedTest
  @ValueSource(strings = {" ", "\u00a0", "\u00a0\t\n", "\u200b", "\u200c\u200d", "\u2060", "\ufeff", "\u0000\u0007",
      "\u0301", "\u0301\u0308", "\u20dd", "\u3000", "\u2028", "\u202e"})
  void intent_withNoVisibleCharacter_isRefusedNamingIntent(String text) {
    assertThatThrownBy(() -> Intent.ofText(text))
        .isInstanceOf(MemLoopException.class)
        .hasMessageStartingWith("intent: has no visible character");
  }

  @ParameterizedTest
  @ValueSource(strings = {"\ud800", "task \udc00", "\udbff"})
  void intent_withALoneSurrogate_isRefused(String text) {
    assertThatThrownBy(() -> Intent.ofText(text)).hasMessageContaining("lone surrogate");
  }

  @ParameterizedTest
  @ValueSource(strings = {"restart nginx", "e\u0301", "\u00a0x", "日本", "\ud83d\ude00", "\u200bx"})
  void intent_withAVisibleCharacter_isAccepted(String text) {
    assertThat(Intent.ofText(text).text()).isEqualTo(text);
  }
}
