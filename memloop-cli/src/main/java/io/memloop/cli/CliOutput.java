package io.memloop.cli;

import io.memloop.MemLoopException;
import io.memloop.history.EventLogImport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/** What the commands that read logs and write files share: the {@code --output} checks and the skipped-lines summary. */
final class CliOutput {
  /** Skipped lines listed in a text summary; {@code --json} lists them all. */
  private static final int SHOWN = 10;

  private CliOutput() {}

  /**
   * Refuses an {@code --output} that is empty, a directory, or the {@code --input} file itself ({@code "-"} is
   * standard input).
   */
  static void requireOutputIsNotInput(@Nullable Path output, String input) {
    if (output == null) {
      return;
    }
    if (output.toString().isBlank()) {
      throw MemLoopException.invalid("--output", "must not be empty");
    }
    if (Files.isDirectory(output)) {
      throw MemLoopException.invalid("--output", output + " is a directory");
    }
    Path in = Path.of(input);
    try {
      if (!input.equals("-") && Files.exists(output) && Files.exists(in) && Files.isSameFile(in, output)) {
        throw MemLoopException.invalid("--output", "is the input file " + in + "; write the results elsewhere");
      }
    } catch (IOException e) {
      throw MemLoopException.invalid("--output", "cannot compare with the input file: " + e.getMessage());
    }
  }

  /**
   * Per kind of reason, "skipped N malformed WHAT:" (or "skipped N WHAT whose intent is over the 8192-character
   * limit:") and the first {@value #SHOWN} of that kind, one per line; nothing when none was skipped.
   */
  static void printSkipped(PrintWriter out, List<EventLogImport.Skipped> skipped, String what) {
    for (EventLogImport.Skipped.Kind kind : EventLogImport.Skipped.Kind.values()) {
      List<EventLogImport.Skipped> some = skipped.stream().filter(s -> s.kind() == kind).toList();
      if (some.isEmpty()) {
        continue;
      }
      out.printf(Locale.ROOT, switch (kind) {
        case MALFORMED -> "skipped %d malformed %s:%n";
        case INTENT_TOO_LONG -> "skipped %d %s whose intent is over the " + io.memloop.Checks.MAX_INTENT_CHARS
            + "-character limit:%n";
      }, some.size(), what);
      some.stream().limit(SHOWN).forEach(s -> out.println("  " + Text.printable(s.toString())));
      if (some.size() > SHOWN) {
        out.printf(Locale.ROOT, "  ... and %d more (--json lists them all)%n", some.size() - SHOWN);
      }
    }
  }
}
