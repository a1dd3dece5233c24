package io.memloop.cli;

/**
 * Text from users and agents, made safe to print on a terminal: control characters (C0, DEL, C1 —
 * newlines, carriage returns, ANSI escape sequences) are shown as {@code \}{@code uXXXX}, so a stored
 * experience cannot move the cursor or recolour the screen, and an error stays on one line.
 */
final class Text {
  private Text() {}

  /**
   * {@code s} as lines to print, each {@link #printable}: its line breaks ({@code \n}, {@code \r\n}) end lines
   * instead of showing as {@code \}{@code u000a}, so a multi-line experience reads as written; every other control
   * character (a lone {@code \r}, which would overwrite the line, escape sequences) stays escaped.
   */
  static java.util.List<String> lines(String s) {
    return java.util.Arrays.stream(s.split("\r?\n", -1)).map(Text::printable).toList();
  }

  /**
   * {@code s} for a terminal with its line breaks kept ({@link #lines}), every line after the first indented by
   * {@code indent}.
   */
  static String indented(String s, String indent) {
    return String.join(System.lineSeparator() + indent, lines(s));
  }

  static String printable(String s) {
    StringBuilder out = null;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      boolean control = c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029';
      if (control) {
        if (out == null) {
          out = new StringBuilder(s.length() + 16).append(s, 0, i);
        }
        out.append(String.format("\\u%04x", (int) c));
      } else if (out != null) {
        out.append(c);
      }
    }
    return out == null ? s : out.toString();
  }
}
