package io.memloop.history;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.memloop.MemLoopException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The framing of OTLP JSON files: a {@code *.jsonl} file holds one request per line, a {@code *.json} file one
 * request (or several, one after the other). Each line is decoded strictly as UTF-8 and never held beyond
 * 16 Mi characters; each request, parsed as JSON, goes to a {@link RequestSink} with the file
 * and line it came from. What the request means is not read here ({@link OtlpJsonDecoder} does that).
 *
 * <p>A line that is not UTF-8, too long or not JSON is added to the skipped list with its file, line and reason,
 * and the rest is still read. Not thread-safe: one reader per input.
 */
final class OtlpJsonFiles {
  /**
   * The one JSON configuration of the OTLP import: strict (trailing tokens and duplicate keys are errors), for the
   * requests and for the JSON that GenAI attributes carry inside strings.
   */
  static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  /** Reads one value of a sequence of concatenated values (a {@code *.json} file). */
  private static final ObjectReader SEQUENCE = MAPPER.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final int MAX_LINE_CHARS = 16 << 20;
  /** A line of more bytes has more than {@link #MAX_LINE_CHARS} characters (UTF-8 takes at most 3 bytes a char; 1 for a CR). */
  private static final int MAX_LINE_BYTES = 3 * MAX_LINE_CHARS + 1;

  /** Receives each request (a JSON value) with the name of its file and its line. */
  @FunctionalInterface
  interface RequestSink {
    void request(String file, int line, JsonNode doc);
  }

  /** Receives each line of a file; returns false to stop reading it. */
  @FunctionalInterface
  private interface LineSink {
    boolean line(int n, String text);
  }

  private final List<EventLogImport.Skipped> skipped;
  private final RequestSink sink;

  OtlpJsonFiles(List<EventLogImport.Skipped> skipped, RequestSink sink) {
    this.skipped = skipped;
    this.sink = sink;
  }

  /**
   * The files of an input: the file itself, or a directory's {@code *.json} and {@code *.jsonl} files in name order.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --input} when the input is neither a regular file nor a
   *     directory, or a directory holds no {@code .json} or {@code .jsonl} file
   */
  static List<Path> files(Path input) {
    if (Files.isRegularFile(input)) {
      return List.of(input);
    }
    if (!Files.isDirectory(input)) {
      throw MemLoopException.invalid("--input", input + " is neither a regular file nor a directory");
    }
    List<Path> files;
    try (Stream<Path> s = Files.list(input)) {
      files = s.filter(p -> isTraceFile(p.getFileName().toString()) && Files.isRegularFile(p))
          .sorted(Comparator.comparing(p -> p.getFileName().toString())).toList();
    } catch (IOException e) {
      throw MemLoopException.invalid("--input", "cannot list " + input + ": " + e.getMessage());
    }
    if (files.isEmpty()) {
      throw MemLoopException.invalid("--input", input + " holds no .json or .jsonl file");
    }
    return files;
  }

  private static boolean isTraceFile(String name) {
    return name.endsWith(".json") || name.endsWith(".jsonl");
  }

  /** Reads one file: as one or more JSON requests if its name ends in {@code .json}, else as JSON lines. */
  void readFile(Path file) {
    String name = file.getFileName().toString();
    if (name.endsWith(".json")) {
      StringBuilder text = new StringBuilder();
      boolean complete = lines(file, name, (n, line) -> {
        text.append(line).append('\n');
        return true;
      });
      if (complete) {
        documents(name, text.toString());
      }
    } else {
      lines(file, name, (n, line) -> {
        if (!line.isBlank()) {
          jsonLine(name, n, line);
        }
        return true;
      });
    }
  }

  /**
   * Feeds the lines of a file, each decoded strictly as UTF-8 (a line is never held beyond its limit); false when
   * it stopped early: on a line that is not UTF-8, or on a line too long in a {@code *.json} file.
   */
  private boolean lines(Path file, String name, LineSink sink) {
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try (InputStream in = Files.newInputStream(file)) {
      byte[] chunk = new byte[1 << 16];
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      boolean tooLong = false;
      int n = 0;
      for (int read = in.read(chunk); read >= 0; read = in.read(chunk)) {
        int from = 0;
        for (int i = 0; i < read; i++) {
          if (chunk[i] == '\n') {
            tooLong = append(line, chunk, from, i - from, tooLong);
            if (!emit(name, ++n, line, tooLong, decoder, sink)) {
              return false;
            }
            line.reset();
            tooLong = false;
            from = i + 1;
          }
        }
        tooLong = append(line, chunk, from, read - from, tooLong);
      }
      return (line.size() == 0 && !tooLong) || emit(name, n + 1, line, tooLong, decoder, sink);
    } catch (IOException e) {
      throw MemLoopException.invalid("--input", "cannot read " + file + ": " + e.getMessage());
    }
  }

  /** Adds bytes to a line unless it is already too long; whether it is too long now. */
  private static boolean append(ByteArrayOutputStream line, byte[] bytes, int from, int length, boolean tooLong) {
    if (tooLong || line.size() + (long) length > MAX_LINE_BYTES) {
      return true;
    }
    line.write(bytes, from, length);
    return false;
  }

  private boolean emit(String file, int n, ByteArrayOutputStream bytes, boolean tooLong, CharsetDecoder decoder,
      LineSink sink) {
    boolean json = file.endsWith(".json");
    if (tooLong) {
      skip(file, n, "longer than 16 Mi characters");
      return !json;
    }
    byte[] b = bytes.toByteArray();
    int length = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
    String text;
    try {
      text = decoder.decode(ByteBuffer.wrap(b, 0, length)).toString();
    } catch (CharacterCodingException e) {
      skip(file, n, json ? "not valid UTF-8 (the file is not read)" : "not valid UTF-8 (the rest of the file is not read)");
      return false;
    }
    if (n == 1 && text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    if (text.length() > MAX_LINE_CHARS) {
      skip(file, n, "longer than 16 Mi characters");
      return !json;
    }
    return sink.line(n, text);
  }

  private void jsonLine(String file, int line, String text) {
    JsonNode doc;
    try {
      doc = MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      skip(file, line, "not valid JSON: " + e.getOriginalMessage());
      return;
    }
    sink.request(file, line, doc);
  }

  /** The requests of a {@code *.json} file, one after the other; a syntax error ends the file. */
  private void documents(String file, String text) {
    try (JsonParser p = MAPPER.createParser(text)) {
      while (true) {
        int start = 0;
        try {
          if (p.nextToken() == null) {
            return;
          }
          start = p.currentTokenLocation().getLineNr();
          JsonToken first = p.currentToken();
          JsonNode doc = SEQUENCE.readTree(p);
          if (first != JsonToken.START_OBJECT || doc == null) {
            skip(file, Math.max(start, 1), "not a JSON object");
          } else {
            sink.request(file, Math.max(start, 1), doc);
          }
        } catch (JsonProcessingException e) {
          int line = start > 0 ? start : e.getLocation() != null ? Math.max(e.getLocation().getLineNr(), 1) : 1;
          skip(file, line, "not valid JSON: " + e.getOriginalMessage() + " (the rest of the file is unreadable)");
          return;
        }
      }
    } catch (IOException e) {
      skip(file, 1, "not valid JSON: " + e.getMessage());
    }
  }

  private void skip(String file, int line, String reason) {
    skipped.add(new EventLogImport.Skipped(file, line, reason));
  }
}
