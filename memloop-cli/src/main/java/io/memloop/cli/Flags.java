package io.memloop.cli;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import java.util.Map;

/**
 * Error messages in the words of the command line: the engine names the request field at fault
 * ({@code retrievalId}, {@code intent.embedding}, a knob), the user typed a flag ({@code --retrieval},
 * {@code --embedding}, {@code --set k1=...}); the message names the flag.
 */
final class Flags {
  private static final Map<String, String> FLAG_OF_FIELD = Map.of(
      "retrievalId", "--retrieval",
      "memoryId", "--memory",
      "intent.embedding", "--embedding",
      "intent", "--intent",
      "experience", "--experience",
      "outcome", "--outcome",
      "reward", "--reward",
      "usedMemoryIds", "--used",
      "nextRetrievalId", "--next",
      "namespace", "--namespace");

  private Flags() {}

  /** The flag the user typed for {@code field}, or {@code field} when it is not a flag's. */
  static String of(String field) {
    String flag = FLAG_OF_FIELD.get(field);
    if (flag != null) {
      return flag;
    }
    return MemLoopConfig.KNOBS.contains(field) || field.equals("delta") ? "--set " + field : field;
  }

  /** {@code e}'s message, its leading {@code field:} replaced by the flag's name. */
  static String message(MemLoopException e) {
    String m = String.valueOf(e.getMessage());
    String field = e.field();
    if (field.isEmpty() || !m.startsWith(field + ":")) {
      return m;
    }
    return of(field) + m.substring(field.length());
  }
}
