package io.memloop.bench;

import io.memloop.bench.sql.SqlEnvironment;
import io.memloop.bench.textworld.TextWorldEnvironment;
import io.memloop.chat.ChatMessage;
import io.memloop.chat.ChatModel;
import io.memloop.chat.ChatReply;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A stand-in for a careful LLM behind the chat SPI, reading nothing but the conversation: it reuses
 * what worked on the very same task (same task line in a successful experience) and avoids what
 * failed there; otherwise it guesses among the listed options with the request's seed. In the text
 * world it follows the same task's plan step by step, then looks around.
 */
final class ReadingChatModel implements ChatModel {
  private static final Pattern BACKTICKED = Pattern.compile("`([^`\\n]+)`");
  private static final Pattern ITEM = Pattern.compile("(?m)^\\d+\\. ");

  final AtomicInteger requests = new AtomicInteger();

  @Override
  public String modelId() {
    return "test:reading";
  }

  @Override
  public ChatReply complete(List<ChatMessage> messages, long seed) {
    requests.incrementAndGet();
    String system = messages.getFirst().content();
    String prompt = messages.get(1).content();
    String task = prompt.lines().findFirst().orElseThrow().replaceFirst("^(Task|Question): ", "");
    List<String> worked = items(prompt, "## Successful").stream().filter(i -> about(i, task)).toList();
    List<String> failed = items(prompt, "## Failed").stream().filter(i -> about(i, task)).toList();
    String reply;
    if (system.equals(TextWorldEnvironment.LLM_SYSTEM)) {
      int step = (int) messages.stream().filter(m -> m.role() == ChatMessage.Role.ASSISTANT).count();
      List<String> plan = worked.stream().flatMap(i -> i.lines().filter(l -> l.startsWith("Plan: ")))
          .map(l -> List.of(l.substring(6).replaceAll("\\.$", "").split("; "))).findFirst().orElse(List.of());
      reply = step < plan.size() ? plan.get(step) : "look";
    } else if (system.equals(SqlEnvironment.LLM_SYSTEM)) {
      reply = worked.stream().flatMap(i -> i.lines().filter(l -> l.startsWith("SQL: "))).findFirst()
          .map(l -> "```sql\n" + l.substring(5) + "\n```").orElse("```sql\nSELECT NULL\n```");
    } else {
      List<String> options = new ArrayList<>();
      prompt.lines().filter(l -> l.startsWith("- `")).forEach(l -> options.add(l.substring(3, l.length() - 1)));
      List<String> avoid = failed.stream().map(ReadingChatModel::backticked).flatMap(Optional::stream).toList();
      Optional<String> known = worked.stream().map(ReadingChatModel::backticked).flatMap(Optional::stream).findFirst();
      List<String> open = options.stream().filter(o -> !avoid.contains(o)).toList();
      List<String> pool = open.isEmpty() ? options : open;
      reply = "`" + known.orElseGet(() -> pool.get(new SplittableRandom(seed).nextInt(pool.size()))) + "`";
    }
    return new ChatReply(reply, "stop", prompt.length() / 4, reply.length() / 4);
  }

  /** Whether an experience's first line is about {@code task} ("Task: X", "Question: X", "Q: X"). */
  private static boolean about(String item, String task) {
    return item.lines().findFirst().orElse("").replaceFirst("^(Task|Question|Q): ", "").equals(task);
  }

  private static Optional<String> backticked(String item) {
    Matcher m = BACKTICKED.matcher(item.substring(item.indexOf('\n') + 1));
    return m.find() ? Optional.of(m.group(1)) : Optional.empty();
  }

  /** The numbered items of the prompt's section whose title starts with {@code title}, unindented. */
  static List<String> items(String prompt, String title) {
    int start = prompt.indexOf(title);
    if (start < 0) {
      return List.of();
    }
    int end = prompt.indexOf("\n## ", start + 1);
    String section = prompt.substring(prompt.indexOf('\n', start) + 1, end < 0 ? prompt.length() : end);
    int tail = section.indexOf("\n\n");
    section = tail < 0 ? section : section.substring(0, tail);
    List<String> out = new ArrayList<>();
    for (String part : ITEM.split(section)) {
      if (!part.isBlank()) {
        out.add(part.strip().replace("\n   ", "\n"));
      }
    }
    return out;
  }
}
