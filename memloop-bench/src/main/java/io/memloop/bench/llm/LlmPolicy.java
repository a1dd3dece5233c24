package io.memloop.bench.llm;

import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import io.memloop.chat.ChatMessage;
import io.memloop.history.extraction.ExperienceExtractor;
import io.memloop.history.extraction.Trajectory;
import io.memloop.chat.ChatModel;
import io.memloop.chat.ChatReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A language model as the benchmark's policy: each environment renders its task, the retrieved
 * experiences (in a "successful" and a "failed" section, most relevant first) and the answer format
 * as a prompt, and parses the model's reply into its action (a procedure, a SQL query, an answer, a
 * text-world command). The environment then verifies the action exactly as it verifies the frozen
 * policy's, and distils the episode into the same kind of experience.
 *
 * <p><b>Unreadable replies:</b> a reply that does not parse is answered with a short correction
 * saying what was wrong and asked again, at most {@code formatRetries} times per decision; after that
 * the decision fails (a wrong answer for single-step tasks, a wasted step in the text world). A
 * {@code <think>…</think>} block at the start of a reply (reasoning models) is skipped before parsing.
 *
 * <p><b>Transport failures</b> (unreachable server, timeouts, HTTP errors after the client's own
 * retries) are not the policy's mistakes: they propagate as {@link MemLoopException} with reason
 * {@code MODEL_FAILED} and stop the benchmark.
 *
 * <p><b>Reproducibility:</b> every request carries a seed drawn from the episode's random generator,
 * which depends only on (run seed, epoch, task), so every strategy asks with the same seeds; with
 * temperature 0 and a server that honours seeds, runs repeat.
 *
 * <p>Thread-safe: conversations are per episode; the counters are atomic.
 */
public final class LlmPolicy implements Policy {
  /** Corrections per decision after an unreadable reply, by default. */
  public static final int DEFAULT_FORMAT_RETRIES = 2;

  private static final Pattern THINKING = Pattern.compile("^\\s*<think>.*?</think>", Pattern.DOTALL);

  private final ChatModel model;
  private final int formatRetries;
  private final Consumer<Transcript> transcripts;
  private final LongAdder requests = new LongAdder();
  private final LongAdder corrections = new LongAdder();
  private final LongAdder unreadable = new LongAdder();
  private final LongAdder truncated = new LongAdder();
  private final LongAdder promptTokens = new LongAdder();
  private final LongAdder completionTokens = new LongAdder();
  private final @Nullable ExperienceExtractor extractor;
  private final LongAdder distilled = new LongAdder();
  private final LongAdder rawFallbacks = new LongAdder();

  /**
   * @param model borrowed, not closed
   * @param formatRetries corrections per decision, 0 to 10
   * @param transcripts receives every finished episode's conversation (from any thread); {@code
   *     null} keeps none
   */
  public LlmPolicy(ChatModel model, int formatRetries, @Nullable Consumer<Transcript> transcripts) {
    this(model, formatRetries, transcripts, null);
  }

  /**
   * As {@link #LlmPolicy(ChatModel, int, Consumer)}, with experience extraction: each episode's conversation and
   * result are distilled by {@code extractor} (a success into a script, a failure into a reflection) and the
   * distilled text is what the strategies remember, instead of the environment's own summary.
   *
   * @param extractor null to remember the environment's summary
   */
  public LlmPolicy(ChatModel model, int formatRetries, @Nullable Consumer<Transcript> transcripts,
      @Nullable ExperienceExtractor extractor) {
    this.extractor = extractor;
    if (formatRetries < 0 || formatRetries > 10) {
      throw MemLoopException.invalid("formatRetries", "must be in [0, 10], got " + formatRetries);
    }
    this.model = model;
    this.formatRetries = formatRetries;
    this.transcripts = transcripts == null ? t -> {} : transcripts;
  }

  @Override
  public String id() {
    return model.modelId();
  }

  /**
   * What the model was asked so far, over all runs; {@code distilled} and {@code rawFallbacks} count the
   * experiences extraction distilled and those it kept raw (model unavailable or no usable answer).
   */
  public record Usage(long requests, long corrections, long unreadable, long truncated, long promptTokens,
      long completionTokens, long distilled, long rawFallbacks) {}

  public Usage usage() {
    return new Usage(requests.sum(), corrections.sum(), unreadable.sum(), truncated.sum(), promptTokens.sum(),
        completionTokens.sum(), distilled.sum(), rawFallbacks.sum());
  }

  /** Whether episodes are distilled by an extractor before they are remembered. */
  public boolean extracts() {
    return extractor != null;
  }

  /**
   * The episode with the experience to remember: distilled from its conversation and result when extraction is
   * on, else as the environment summarised it.
   */
  public Episode distil(Task task, Episode e) {
    if (extractor == null) {
      return e;
    }
    StringBuilder steps = new StringBuilder();
    for (ChatMessage m : e.transcript()) {
      if (m.role() != ChatMessage.Role.SYSTEM) {
        steps.append(m.role().name().toLowerCase(java.util.Locale.ROOT)).append(": ").append(m.content()).append('\n');
      }
    }
    steps.append("result: ").append(e.experience());
    ExperienceExtractor.Extraction x = extractor.extract(
        new Trajectory(task.intent(), steps.toString(), e.success() ? Outcome.SUCCESS : Outcome.FAILURE));
    (x.distilled() ? distilled : rawFallbacks).increment();
    return new Episode(e.task(), e.success(), e.reward(), x.experience(), e.transcript());
  }

  public void record(Transcript transcript) {
    transcripts.accept(transcript);
  }

  /** A new episode's conversation, framed by {@code system}; its requests draw seeds from {@code rnd}. */
  public Conversation open(String system, RandomGenerator rnd) {
    return new Conversation(system, rnd);
  }

  /** What a parser makes of a reply: the action, or what was wrong with the reply. */
  public record Parsed<T>(@Nullable T value, String problem) {
    public static <T> Parsed<T> of(T value) {
      return new Parsed<>(value, "");
    }

    public static <T> Parsed<T> wrong(String problem) {
      return new Parsed<>(null, problem);
    }
  }

  /** Reads an action from a reply (with any leading thinking block already removed). */
  @FunctionalInterface
  public interface ReplyParser<T> {
    Parsed<T> parse(String reply);
  }

  /** One episode's exchange with the model. For one thread. */
  public final class Conversation {
    private final List<ChatMessage> messages = new ArrayList<>();
    private final RandomGenerator rnd;

    private Conversation(String system, RandomGenerator rnd) {
      this.rnd = rnd;
      messages.add(ChatMessage.system(system));
    }

    /**
     * Says {@code prompt}, then reads the reply with {@code parser}, correcting up to {@code
     * formatRetries} times; empty when no reply could be read.
     */
    public <T> Optional<T> ask(String prompt, ReplyParser<T> parser) {
      messages.add(ChatMessage.user(prompt));
      for (int attempt = 0; ; attempt++) {
        ChatReply reply = model.complete(List.copyOf(messages), rnd.nextLong());
        requests.increment();
        promptTokens.add(reply.promptTokens());
        completionTokens.add(reply.completionTokens());
        if (reply.truncated()) {
          truncated.increment();
        }
        messages.add(ChatMessage.assistant(reply.content()));
        Parsed<T> parsed = parser.parse(withoutThinking(reply.content()));
        if (parsed.value() != null) {
          return Optional.of(parsed.value());
        }
        if (attempt == formatRetries) {
          unreadable.increment();
          return Optional.empty();
        }
        corrections.increment();
        messages.add(ChatMessage.user("I could not use that reply: " + parsed.problem() + " Reply again, in the format asked."));
      }
    }

    public List<ChatMessage> messages() {
      return List.copyOf(messages);
    }
  }

  static String withoutThinking(String reply) {
    return THINKING.matcher(reply).replaceFirst("").strip();
  }
}
