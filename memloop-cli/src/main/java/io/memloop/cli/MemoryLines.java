package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A memory as the CLI prints it on a terminal, from its JSON ({@code io.memloop.server.Json#memory}, the same whether
 * the command opened the store or asked a server): {@code [id] q=0.300 success: text}. An experience's line breaks
 * print as line breaks, its lines indented under the first; a merged failure note lists its attempts ({@code parts}),
 * newest first, numbered. Every other control character stays escaped ({@link Text#printable}).
 */
final class MemoryLines {
  /** Where the lines after a memory's first start. */
  static final String INDENT = "    ";

  private MemoryLines() {}

  static void print(PrintWriter out, JsonNode memory) {
    String head = String.format(Locale.ROOT, "[%s] q=%.3f %s", Text.printable(memory.path("id").asText()),
        memory.path("q").asDouble(), Text.printable(memory.path("outcome").asText()));
    List<String> parts = new ArrayList<>();
    memory.path("parts").forEach(p -> parts.add(p.asText()));
    if (parts.size() <= 1) {
      out.println(head + ": " + Text.indented(memory.path("experience").asText(), INDENT));
      return;
    }
    out.printf(Locale.ROOT, "%s: %d attempts, newest first:%n", head, parts.size());
    for (int i = 0; i < parts.size(); i++) {
      String number = (i + 1) + ". ";
      out.println(INDENT + number + Text.indented(parts.get(i), INDENT + " ".repeat(number.length())));
    }
  }
}
