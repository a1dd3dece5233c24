package io.memloop.bench.llm;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.Task;
import io.memloop.chat.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** What the environments' LLM prompts share: the experiences section and the reply parsers. */
public final class LlmPrompts {
  private LlmPrompts() {}

  private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern CODE_BLOCK = Pattern.compile("```[a-zA-Z]*\\s*\\n?(.*?)```", Pattern.DOTALL);

  /**
   * The experiences shown, as MemRL's prompt has them: successful ones (what worked) and failed ones
   * (what went wrong), each in the ranking order the strategy gave, with a warning that a similar
   * task is not necessarily the same task.
   */
  public static String experiences(List<Memory> shown) {
    if (shown.isEmpty()) {
      return "No experiences from earlier tasks are available for this task.";
    }
    List<String> succeeded = new ArrayList<>();
    List<String> failed = new ArrayList<>();
    List<String> other = new ArrayList<>();
    for (Memory m : shown) {
      (m.outcome() == Outcome.SUCCESS ? succeeded : m.outcome() == Outcome.FAILURE ? failed : other)
          .add(m.experience().strip());
    }
    StringBuilder out = new StringBuilder(
        "Experiences from earlier tasks, most relevant first. An experience may come from a task that only looks"
            + " like this one; use it only if it is about the same task.\n");
    section(out, "Successful experiences (what worked)", succeeded);
    section(out, "Failed experiences (what went wrong; do not repeat it)", failed);
    section(out, "Other notes", other);
    return out.toString().strip();
  }

  private static void section(StringBuilder out, String title, List<String> items) {
    if (items.isEmpty()) {
      return;
    }
    out.append("\n## ").append(title).append('\n');
    for (int i = 0; i < items.size(); i++) {
      out.append(i + 1).append(". ").append(items.get(i).replace("\n", "\n   ")).append('\n');
    }
  }

  /** A single-step decision: the action read from the reply (empty if none could be), and the conversation. */
  public record Decision<T>(Optional<T> action, List<ChatMessage> transcript) {
    /**
     * The verified episode, remembered as the frozen policy's would be: reward +1 when the action is
     * {@code correct}, else −1; a success or failure experience of the action, or {@code unreadable}
     * when there was none.
     */
    public Episode episode(Task task, Predicate<T> correct, BiFunction<String, T, String> successExperience,
        BiFunction<String, T, String> failureExperience, String unreadable) {
      boolean success = action.filter(correct).isPresent();
      String experience = action
          .map(a -> (success ? successExperience : failureExperience).apply(task.intent(), a))
          .orElse(unreadable);
      return new Episode(task, success, success ? 1 : -1, experience, transcript);
    }
  }

  /** Asks {@code prompt} in a new conversation framed by {@code system} and reads the reply with {@code parser}. */
  public static <T> Decision<T> decide(LlmPolicy llm, RandomGenerator rnd, String system, String prompt,
      LlmPolicy.ReplyParser<T> parser) {
    LlmPolicy.Conversation c = llm.open(system, rnd);
    Optional<T> action = c.ask(prompt, parser);
    return new Decision<>(action, c.messages());
  }

  /** A bulleted list of options, each between backticks. */
  public static String options(List<String> options) {
    StringBuilder out = new StringBuilder();
    for (String o : options) {
      out.append("- `").append(o).append("`\n");
    }
    return out.toString().strip();
  }

  /**
   * Reads one of {@code options} from a reply: the first backticked text that is an option (case and
   * a trailing period ignored); else the reply itself if it is one; else the one option the reply
   * mentions. Naming several options without backticks, or none, is a problem to correct.
   */
  public static LlmPolicy.ReplyParser<String> oneOf(List<String> options, String what) {
    return reply -> {
      Matcher m = BACKTICKED.matcher(reply);
      while (m.find()) {
        String match = match(options, m.group(1));
        if (match != null) {
          return LlmPolicy.Parsed.of(match);
        }
      }
      String whole = match(options, reply);
      if (whole != null) {
        return LlmPolicy.Parsed.of(whole);
      }
      String lower = reply.toLowerCase(Locale.ROOT);
      List<String> mentioned = options.stream().filter(o -> lower.contains(o.toLowerCase(Locale.ROOT))).toList();
      if (mentioned.size() == 1) {
        return LlmPolicy.Parsed.of(mentioned.getFirst());
      }
      return LlmPolicy.Parsed.wrong(mentioned.isEmpty()
          ? "it names none of the listed " + what + "s."
          : "it names " + mentioned.size() + " of the listed " + what + "s; name exactly one, between backticks.");
    };
  }

  private static @Nullable String match(List<String> options, String text) {
    String t = text.strip();
    if (t.endsWith(".")) {
      t = t.substring(0, t.length() - 1).strip();
    }
    for (String o : options) {
      if (o.equalsIgnoreCase(t)) {
        return o;
      }
    }
    return null;
  }

  /** The content of the first fenced code block, or the whole reply when there is none. */
  public static String codeOrWhole(String reply) {
    Matcher m = CODE_BLOCK.matcher(reply);
    return (m.find() ? m.group(1) : reply).strip();
  }

  /**
   * The first non-blank line of a reply, without decoration models add to a command: backticks, a
   * leading {@code >}, a {@code Command:} label, a trailing period; lower case.
   */
  public static String commandLine(String reply) {
    for (String line : codeOrWhole(reply).split("\n")) {
      String t = line.strip().replace("`", "");
      if (t.startsWith(">")) {
        t = t.substring(1).strip();
      }
      if (t.toLowerCase(Locale.ROOT).startsWith("command:")) {
        t = t.substring("command:".length()).strip();
      }
      if (t.endsWith(".")) {
        t = t.substring(0, t.length() - 1).strip();
      }
      if (!t.isEmpty()) {
        return t.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ");
      }
    }
    return "";
  }
}
