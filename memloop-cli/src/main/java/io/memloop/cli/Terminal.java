package io.memloop.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What the command can tell about the terminal it writes to, without a terminal library. */
final class Terminal {
  private Terminal() {}

  /**
   * Whether stderr is a terminal: on Linux, what {@code /proc/self/fd/2} points at ({@code /dev/pts/N},
   * {@code /dev/ttyN}); elsewhere, whether the JVM has a console (stdin and stdout interactive).
   */
  static boolean stderrIsTerminal() {
    Path fd2 = Path.of("/proc/self/fd/2");
    if (Files.isSymbolicLink(fd2)) {
      try {
        String target = Files.readSymbolicLink(fd2).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
    return System.console() != null;
  }

  /** The terminal's width from {@code COLUMNS} (exported by most shells), else 80. */
  static int columns() {
    String columns = System.getenv("COLUMNS");
    if (columns != null && columns.matches("\\d{2,4}")) {
      return Integer.parseInt(columns);
    }
    return 80;
  }
}
