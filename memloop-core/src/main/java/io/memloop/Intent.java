package io.memloop;

import java.util.Arrays;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a task asks for: its text, a caller-supplied embedding, or both. MemLoop embeds the text with
 * the configured model only when no embedding is given, so agents that already embed, and offline
 * replays, need no model. MemRL embeds the task description only (not the trajectory): so do we.
 */
public record Intent(@Nullable String text, float @Nullable [] embedding) {
  public Intent {
    if (text == null && embedding == null) {
      throw MemLoopException.invalid("intent", "needs a text or an embedding");
    }
    if (text != null) {
      Checks.requireVisibleText(text, "intent");
    }
    if (embedding != null) {
      embedding = embedding.clone();
    }
  }

  public static Intent ofText(String text) {
    return new Intent(text, null);
  }

  public static Intent ofEmbedding(float[] embedding) {
    return new Intent(null, embedding);
  }

  public static Intent of(@Nullable String text, float @Nullable [] embedding) {
    return new Intent(text, embedding);
  }

  public Optional<String> optionalText() {
    return Optional.ofNullable(text);
  }

  @Override
  public float @Nullable [] embedding() {
    return embedding == null ? null : embedding.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Intent other
        && java.util.Objects.equals(text, other.text)
        && Arrays.equals(embedding, other.embedding);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Objects.hashCode(text) + Arrays.hashCode(embedding);
  }

  @Override
  public String toString() {
    return "Intent[text=" + text + ", embedding=" + (embedding == null ? "none" : embedding.length + "-d") + "]";
  }
}
