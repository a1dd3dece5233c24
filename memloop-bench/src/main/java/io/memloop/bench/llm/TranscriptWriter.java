package io.memloop.bench.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Appends each {@link Transcript} as one JSON line, as the runs finish their episodes:
 * {@code {"environment", "strategy", "seed", "epoch", "task", "success", "messages": [{"role",
 * "content"}]}}. Lines are flushed as written, so a run stopped half-way keeps what it did.
 * Thread-safe.
 */
public final class TranscriptWriter implements Consumer<Transcript>, AutoCloseable {
  /** The file name {@code memloop bench} gives it in the report folder. */
  public static final String FILE_NAME = "transcripts.jsonl";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final BufferedWriter out;

  private TranscriptWriter(BufferedWriter out) {
    this.out = out;
  }

  /** Creates (or truncates) {@code file}, creating its folder. */
  public static TranscriptWriter create(Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      return new TranscriptWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void accept(Transcript t) {
    try {
      out.write(line(t));
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot append to the transcripts file: " + e.getMessage(), e);
    }
  }

  static String line(Transcript t) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("environment", t.environment());
    o.put("strategy", t.strategy());
    o.put("seed", t.seed());
    o.put("epoch", t.epoch());
    o.put("task", t.taskId());
    o.put("success", t.success());
    List<Map<String, String>> messages = t.messages().stream().map(m -> {
      Map<String, String> message = new LinkedHashMap<>();
      message.put("role", m.role().wireName());
      message.put("content", m.content());
      return message;
    }).toList();
    o.put("messages", messages);
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new AssertionError("serialising strings and numbers cannot fail", e);
    }
  }

  @Override
  public synchronized void close() {
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close the transcripts file: " + e.getMessage(), e);
    }
  }
}
