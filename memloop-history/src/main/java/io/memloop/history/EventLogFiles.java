package io.memloop.history;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.Checks;
import io.memloop.MemLoopException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;

/**
 * Reads event logs (docs/event-log.md) for every consumer (import, evaluation): a file, or a directory whose
 * {@code *.jsonl} files are read in name order. Each line must be a JSON object of a known version and type
 * with {@code ns} and {@code at}; a line that is not is added to the skipped list with its file, line and
 * reason, and so is a line the visitor refuses.
 */
final class EventLogFiles {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(com.fasterxml.jackson.core.JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
  static final Set<String> TYPES = Set.of("config", "retrieval", "reward", "remember", "edit", "forget");
  private static final int MAX_LINE_CHARS = 16 << 20;

  /** Receives each well-formed event; returns null, or the reason it refuses the line. */
  @FunctionalInterface
  interface Visitor {
    @Nullable String event(String file, int line, JsonNode event);
  }

  private EventLogFiles() {}

  static void read(Path input, List<EventLogImport.Skipped> skipped, Visitor visitor) {
    List<Path> files;
    try {
      if (Files.isDirectory(input)) {
        try (Stream<Path> s = Files.list(input)) {
          files = s.filter(p -> p.getFileName().toString().endsWith(".jsonl") && Files.isRegularFile(p)).sorted().toList();
        }
      } else if (Files.isRegularFile(input)) {
        files = List.of(input);
      } else {
        throw MemLoopException.invalid("--input", input + " is neither a regular file nor a directory");
      }
    } catch (IOException e) {
      throw MemLoopException.invalid("--input", "cannot list " + input + ": " + e.getMessage());
    }
    if (files.isEmpty()) {
      throw MemLoopException.invalid("--input", input + " holds no .jsonl file");
    }
    for (Path f : files) {
      readFile(f, skipped, visitor);
    }
  }

  private static void readFile(Path file, List<EventLogImport.Skipped> skipped, Visitor visitor) {
    String name = file.getFileName().toString();
    var decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
        .onUnmappableCharacter(CodingErrorAction.REPORT);
    try (InputStream raw = Files.newInputStream(file);
        BufferedReader in = new BufferedReader(new InputStreamReader(raw, decoder))) {
      int n = 0;
      while (true) {
        String line;
        try {
          line = in.readLine();
        } catch (CharacterCodingException e) {
          skipped.add(new EventLogImport.Skipped(name, n + 1, "not valid UTF-8 (the rest of the file is unreadable)"));
          return;
        }
        if (line == null) {
          return;
        }
        n++;
        if (line.isBlank()) {
          continue;
        }
        String problem;
        if (line.length() > MAX_LINE_CHARS) {
          problem = "longer than 16 Mi characters";
        } else {
          JsonNode e = null;
          try {
            e = MAPPER.readTree(line);
            problem = check(e);
          } catch (JsonProcessingException ex) {
            problem = "not valid JSON: " + ex.getOriginalMessage();
          }
          if (problem == null) {
            problem = visitor.event(name, n, e);
          }
        }
        if (problem != null) {
          skipped.add(new EventLogImport.Skipped(name, n, problem));
        }
      }
    } catch (IOException e) {
      throw MemLoopException.invalid("--input", "cannot read " + file + ": " + e.getMessage());
    }
  }

  /**
   * The configuration a {@code config} event records.
   *
   * @throws MemLoopException INVALID_ARGUMENT, its message starting {@code knobs:}, for a missing or bad one
   */
  static io.memloop.MemLoopConfig config(JsonNode e) {
    JsonNode knobs = e.get("knobs");
    if (knobs == null || !knobs.isObject()) {
      throw MemLoopException.invalid("knobs", "missing or not an object");
    }
    java.util.Map<String, String> settings = new java.util.LinkedHashMap<>();
    knobs.fields().forEachRemaining(k -> settings.put(k.getKey(), k.getValue().asText()));
    try {
      return io.memloop.MemLoopConfig.fromSettings(settings);
    } catch (MemLoopException ex) {
      throw MemLoopException.invalid("knobs", ex.getMessage());
    }
  }

  /**
   * Records the configuration a {@code config} event gives for namespace {@code ns} in {@code configs}.
   *
   * @return null, or why the event is malformed (for the skipped list)
   */
  static @Nullable String recordConfig(java.util.Map<String, io.memloop.MemLoopConfig> configs, String ns, JsonNode e) {
    try {
      configs.put(ns, config(e));
      return null;
    } catch (MemLoopException ex) {
      return ex.getMessage();
    }
  }

  /** The common fields: the reason a line is malformed, or null. */
  private static @Nullable String check(@Nullable JsonNode e) {
    if (e == null || !e.isObject()) {
      return "not a JSON object";
    }
    if (!e.path("v").isInt()) {
      return "v: missing or not an integer";
    }
    if (e.get("v").asInt() != JsonlEventLog.VERSION) {
      return "v: version " + e.get("v").asInt() + " is not supported (this build reads " + JsonlEventLog.VERSION + ")";
    }
    if (!TYPES.contains(e.path("type").asText(""))) {
      return "type: '" + e.path("type").asText("") + "' is not one of " + TYPES.stream().sorted().toList();
    }
    if (!e.path("ns").isTextual()) {
      return "ns: missing or not a string";
    }
    try {
      Checks.requireNamespace(e.get("ns").asText());
    } catch (MemLoopException ex) {
      return ex.getMessage();
    }
    if (!e.path("at").isTextual()) {
      return "at: missing or not a string";
    }
    try {
      Instant.parse(e.get("at").asText());
    } catch (RuntimeException ex) {
      return "at: not an ISO-8601 instant";
    }
    return null;
  }
}
