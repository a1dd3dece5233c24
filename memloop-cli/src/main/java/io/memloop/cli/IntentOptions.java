package io.memloop.cli;

import io.memloop.Intent;
import io.memloop.MemLoopException;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** An intent given as text, as an embedding, or both. */
final class IntentOptions {
  @Option(names = "--intent", paramLabel = "TEXT", description = "The task text (embedded by the model unless --embedding is given).")
  @Nullable String text;

  @Option(names = "--embedding", paramLabel = "JSON|@FILE",
      description = "A caller-supplied intent embedding: a JSON array of numbers, or @FILE: a regular file "
          + "holding one (pretty-printed JSON is fine; at most 16 MiB).")
  @Nullable String embedding;

  /** The intent; validates both parts (call before opening a store). */
  Intent intent() {
    float[] vector = embedding == null ? null : Embeddings.parseArgument(embedding, "--embedding");
    if (text == null && vector == null) {
      throw MemLoopException.invalid("--intent", "is required (or give --embedding)");
    }
    if (text != null && text.isBlank()) {
      throw MemLoopException.invalid("--intent", "must not be empty");
    }
    if (text != null) { // the engine's bound, checked before a store is opened or made
      io.memloop.Checks.intentLengthProblem(text).ifPresent(p -> {
        throw MemLoopException.invalid("--intent", p);
      });
    }
    return Intent.of(text, vector);
  }
}
