package io.memloop.cli;

import io.memloop.server.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import io.memloop.Vectors;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.ByteBuffer;

/**
 * Caller-supplied intent embeddings: a JSON array of numbers given inline ({@code --embedding
 * '[0.1, 0.2]'}), in a file ({@code --embedding @vec.json}), or as a replay line's field. Strict:
 * numbers only (no {@code "1"}), finite as 32-bit floats, not empty, not all zeros, at most
 * {@link #MAX_DIMENSION} components.
 */
final class Embeddings {
  /** Largest dimension accepted (embedding models stay far below it). */
  static final int MAX_DIMENSION = 65_536;

  /** Largest embedding file read: 65,536 numbers with room for pretty-printing. */
  static final long MAX_FILE_BYTES = 16L << 20;

  private Embeddings() {}

  /** Parses {@code arg}: inline JSON, or {@code @path} of a regular file holding it. */
  static float[] parseArgument(String arg, String flag) {
    String json = arg.startsWith("@") ? readFile(arg.substring(1), flag) : arg;
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw MemLoopException.invalid(flag, "expected a JSON array of numbers like [0.1, 0.2], got '" + abbreviate(json) + "'");
    }
    return fromJson(node, flag);
  }

  /** The vector in {@code node}, or an INVALID_ARGUMENT naming {@code field}. */
  static float[] fromJson(JsonNode node, String field) {
    if (node == null || !node.isArray() || node.isEmpty()) {
      throw MemLoopException.invalid(field, "must be a non-empty JSON array of numbers");
    }
    if (node.size() > MAX_DIMENSION) {
      throw MemLoopException.invalid(field, "has " + node.size() + " components, more than " + MAX_DIMENSION);
    }
    float[] out = new float[node.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode c = node.get(i);
      if (!c.isNumber()) {
        throw MemLoopException.invalid(field, "component " + i + " is not a number: " + abbreviate(c.toString()));
      }
      out[i] = c.floatValue();
      if (!Float.isFinite(out[i])) {
        throw MemLoopException.invalid(field, "component " + i + " (" + abbreviate(c.toString()) + ") is not a finite 32-bit number");
      }
    }
    Vectors.normalized(out, field); // a zero vector has no direction: refused here, not mid-way
    return out;
  }

  private static String readFile(String name, String flag) {
    if (name.isEmpty()) {
      throw MemLoopException.invalid(flag, "@ needs a file name, e.g. @embedding.json");
    }
    Path p = Path.of(name);
    // Regular files only: a device (/dev/zero), a FIFO or a directory is refused, never read.
    if (!Files.isRegularFile(p)) {
      throw MemLoopException.invalid(flag, "@" + name + " is not a regular file");
    }
    try (InputStream in = Files.newInputStream(p)) {
      byte[] bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
      if (bytes.length > MAX_FILE_BYTES) {
        throw MemLoopException.invalid(flag, "@" + name + " is larger than " + (MAX_FILE_BYTES >> 20) + " MiB");
      }
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      throw MemLoopException.invalid(flag, "@" + name + " is not UTF-8 text");
    } catch (IOException e) {
      throw MemLoopException.invalid(flag, "cannot read @" + name + ": " + e.getMessage());
    }
  }

  static String abbreviate(String s) {
    String t = s.strip();
    return t.length() <= 40 ? t : t.substring(0, 40) + "...";
  }
}
