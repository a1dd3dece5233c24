package io.memloop.server;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * What an answer must never show a client: a stack trace, a Java class or exception name, a source file or a
 * path on the server's disk. The server checks the messages it passes on from libraries with it, and the tests
 * check every answer with it.
 */
final class Leaks {
  private Leaks() {}

  private static final List<String> MARKERS = List.of("Exception", "Caused by", "\tat ", "at io.", "at java.", "at org.",
      "at jdk.", "stackTrace", "StackTrace", "io.memloop.", "io.modelcontextprotocol", "io.javalin", "org.eclipse",
      "com.fasterxml", "java.lang", ".java", "/work/", "/tmp/", "/home/", "/root/", "/usr/", "/var/");
  /** A fully qualified class name: two or more lower-case package parts, then a capitalised name. */
  private static final Pattern CLASS_NAME = Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.){2,}[A-Z][A-Za-z0-9_$]*");

  /** The first leak in {@code text}, or null if it shows none. */
  static @Nullable String find(String text) {
    for (String m : MARKERS) {
      if (text.contains(m)) {
        return m;
      }
    }
    Matcher c = CLASS_NAME.matcher(text);
    return c.find() ? c.group() : null;
  }
}
