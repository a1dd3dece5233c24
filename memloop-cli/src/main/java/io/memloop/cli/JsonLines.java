package io.memloop.cli;

import io.memloop.server.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Reads a JSON Lines input strictly: UTF-8 only (a malformed byte is an error naming its line, never
 * a replacement character), an optional byte-order mark at the start skipped, lines of at most
 * {@link #MAX_LINE_BYTES}, blank lines skipped. Errors name the flag and the 1-based line.
 */
final class JsonLines {
  static final int MAX_LINE_BYTES = 16 << 20;

  /** Receives each non-blank line's JSON. */
  @FunctionalInterface
  interface Visitor {
    void line(int number, JsonNode json);
  }

  private JsonLines() {}

  static void read(InputStream raw, String flag, Visitor visitor) throws IOException {
    CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    InputStream in = new BufferedInputStream(raw);
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    int number = 1;
    boolean first = true;
    for (int b = in.read(); ; b = in.read()) {
      if (b == '\n' || b == -1) {
        byte[] bytes = line.toByteArray();
        int start = first && bytes.length >= 3 && (bytes[0] & 0xff) == 0xEF && (bytes[1] & 0xff) == 0xBB
            && (bytes[2] & 0xff) == 0xBF ? 3 : 0;
        String text;
        try {
          text = utf8.decode(ByteBuffer.wrap(bytes, start, bytes.length - start)).toString();
        } catch (CharacterCodingException e) {
          throw fail(flag, number, "not valid UTF-8");
        }
        if (!text.isBlank()) {
          JsonNode node;
          try {
            node = Json.MAPPER.readTree(text);
          } catch (JsonProcessingException e) {
            throw fail(flag, number, "not valid JSON: " + e.getOriginalMessage());
          }
          visitor.line(number, node);
        }
        if (b == -1) {
          return;
        }
        line.reset();
        number++;
        first = false;
      } else {
        if (line.size() >= MAX_LINE_BYTES) {
          throw fail(flag, number, "longer than " + (MAX_LINE_BYTES >> 20) + " MiB");
        }
        line.write(b);
      }
    }
  }

  static MemLoopException fail(String flag, int line, String problem) {
    return MemLoopException.invalid(flag, "line " + line + ": " + problem);
  }
}
