package io.memloop.history.extraction;

import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.chat.ChatMessage;
import io.memloop.chat.ChatModel;
import io.memloop.chat.ChatReply;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * Experience extraction with a language model (any OpenAI-compatible chat endpoint through {@link ChatModel}),
 * as MemRL and Complementary RL's extractor do: a success is distilled into a short reusable script, a
 * failure into a reflection (what went wrong, what to avoid). The prompts are versioned resources
 * ({@code success-v1.txt}, {@code failure-v1.txt}; {@link #PROMPT_VERSION}).
 *
 * <p>When the model is unavailable (after the client's own timeout and retries), refuses, or answers with
 * nothing usable, the experience falls back to the raw trajectory, marked as such, so nothing is lost.
 * Thread-safe if the model is.
 */
public final class LlmExperienceExtractor implements ExperienceExtractor {
  public static final String PROMPT_VERSION = "v1";
  private static final String SUCCESS = load("success-" + PROMPT_VERSION + ".txt");
  private static final String FAILURE = load("failure-" + PROMPT_VERSION + ".txt");

  private final ChatModel model;
  private final int maxTrajectoryChars;
  private final int maxExperienceChars;

  /**
   * @param maxTrajectoryChars longer trajectories are cut (their start and end kept) before prompting
   * @param maxExperienceChars longer answers (and fallbacks) are cut
   */
  public LlmExperienceExtractor(ChatModel model, int maxTrajectoryChars, int maxExperienceChars) {
    this.model = Objects.requireNonNull(model, "model");
    if (maxTrajectoryChars < 200 || maxExperienceChars < 200) {
      throw MemLoopException.invalid("maxExperienceChars", "limits must be at least 200 characters");
    }
    this.maxTrajectoryChars = maxTrajectoryChars;
    this.maxExperienceChars = maxExperienceChars;
  }

  /** 16,000-character trajectories, 4,000-character experiences. */
  public LlmExperienceExtractor(ChatModel model) {
    this(model, 16_000, 4_000);
  }

  /** The prompt sent for {@code t} (for logs and tests). */
  public String prompt(Trajectory t) {
    String template = t.outcome() == Outcome.SUCCESS ? SUCCESS : FAILURE;
    return template.replace("{{task}}", t.task()).replace("{{trajectory}}", middleCut(t.steps(), maxTrajectoryChars));
  }

  @Override
  public Extraction extract(Trajectory t) {
    ChatReply reply;
    try {
      reply = model.complete(List.of(ChatMessage.user(prompt(t))), 0);
    } catch (MemLoopException e) {
      return fallback(t, "model unavailable: " + e.getMessage());
    }
    String text = clean(reply.content());
    if (text.isBlank()) {
      return fallback(t, "the model answered nothing usable");
    }
    return new Extraction(cut(text, maxExperienceChars), true,
        "distilled by " + model.modelId() + " (prompt " + PROMPT_VERSION + (reply.truncated() ? ", answer truncated" : "") + ")");
  }

  /** The raw trajectory as the experience, said to be so. */
  public Extraction fallback(Trajectory t, String why) {
    String head = (t.outcome() == Outcome.SUCCESS ? "What worked" : t.outcome() == Outcome.FAILURE ? "What failed" : "What was tried")
        + " (raw trajectory, not distilled):\n";
    return new Extraction(head + middleCut(t.steps(), maxExperienceChars - head.length()), false, why);
  }

  /** Strips a surrounding code fence and blank edges. */
  static String clean(String s) {
    String t = s.strip();
    if (t.startsWith("```")) {
      int nl = t.indexOf('\n');
      t = nl < 0 ? "" : t.substring(nl + 1);
      if (t.endsWith("```")) {
        t = t.substring(0, t.length() - 3);
      }
    }
    return t.strip();
  }

  private static String cut(String s, int max) {
    return s.length() <= max ? s : s.substring(0, max - 1) + "…";
  }

  /** Keeps the start and the end of a long text (the setup and how it ended matter most). */
  static String middleCut(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    String marker = "\n[... " + (s.length() - max) + " characters left out ...]\n";
    int keep = Math.max(0, max - marker.length());
    return s.substring(0, keep / 2) + marker + s.substring(s.length() - (keep - keep / 2));
  }

  private static String load(String name) {
    try (InputStream in = LlmExperienceExtractor.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("prompt " + name + " is missing from the build");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
