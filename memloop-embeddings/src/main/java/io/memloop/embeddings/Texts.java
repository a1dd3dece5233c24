package io.memloop.embeddings;

import io.memloop.MemLoopException;
import java.util.List;

/** Input checks shared by the embedders, so both reject the same texts with the same message. */
final class Texts {
  private Texts() {}

  /**
   * Rejects blank texts up front, naming the index: the ONNX encoder throws a bare
   * IllegalArgumentException on them and remote servers answer 400 for the whole batch, and either
   * way the caller would not learn which text was at fault.
   */
  static void requireNonBlank(List<String> texts) {
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      if (text == null || text.isBlank()) {
        throw MemLoopException.invalid(
            "texts[" + i + "]", "must not be blank, got " + (text == null ? "null" : "\"" + text + "\""));
      }
    }
  }
}
