package io.memloop.cli;

/**
 * Text from users and agents, made safe to print on a terminal: control characters (C0, DEL, C1 —
 * newlines, carriage returns, ANSI escape sequences) are shown as {@code \}{@code uXXXX}, so a stored
 * experience cannot move the cursor or recolour the screen, and an error stays on one line.
 */
final class Text {
  private Text() {}

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
