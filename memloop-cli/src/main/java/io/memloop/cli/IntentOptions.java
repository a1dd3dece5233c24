package io.memloop.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.memloop.Intent;
import io.memloop.MemLoopException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Option;

/** An intent given as text, as an embedding, or both. */
final class IntentOptions {
  @Option(names = "--intent", paramLabel = "TEXT", description = "The task text (embedded by the model unless --embedding is given).")
  @Nullable String text;

  @Option(names = "--embedding", paramLabel = "JSON|@FILE",
      description = "A caller-supplied intent embedding: a JSON array of numbers, or @file holding one.")
  @Nullable String embedding;

  Intent intent() {
    float[] vector = embedding == null ? null : parseEmbedding(embedding, "--embedding");
    if (text == null && vector == null) {
      throw MemLoopException.invalid("--intent", "is required (or give --embedding)");
    }
    if (text != null && text.isBlank()) {
      throw MemLoopException.invalid("--intent", "must not be empty");
    }
    return Intent.of(text, vector);
  }

  @Nullable Integer suppliedDimension() {
    return embedding == null ? null : parseEmbedding(embedding, "--embedding").length;
  }

  static float[] parseEmbedding(String arg, String field) {
    String json = arg;
    if (arg.startsWith("@")) {
      try {
        json = Files.readString(Path.of(arg.substring(1)));
      } catch (IOException e) {
        throw MemLoopException.invalid(field, "cannot read " + arg.substring(1) + ": " + e.getMessage());
      }
    }
    try {
      double[] values = Json.MAPPER.readValue(json, double[].class);
      float[] out = new float[values.length];
      for (int i = 0; i < values.length; i++) {
        out[i] = (float) values[i];
      }
      return out;
    } catch (JsonProcessingException e) {
      throw MemLoopException.invalid(field, "expected a JSON array of numbers like [0.1, 0.2], got '" + abbreviate(json) + "'");
    }
  }

  private static String abbreviate(String s) {
    String t = s.strip();
    return t.length() <= 40 ? t : t.substring(0, 40) + "...";
  }
}
