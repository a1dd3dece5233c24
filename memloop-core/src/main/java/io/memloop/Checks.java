package io.memloop;

import java.util.regex.Pattern;

/**
 * Argument checks shared by the value records; each names the field it rejects. Public for
 * {@link #parseDecimal}, the number syntax every transport (CLI flags, knob values) accepts.
 */
public final class Checks {
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  /** A decimal number as people write it: no hex, no type suffix, no spaces. */
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?|[+-]?Infinity");

  /**
   * The longest intent text, in UTF-16 code units ({@link String#length()}): 8 KiB of characters. One bound
   * for every way in: the engine refuses a longer intent ({@link MemLoop#retrieve}, {@link MemLoop#remember}),
   * the HTTP service and MCP refuse it before the engine (their default limit), the CLI before opening a
   * store, and the imports skip a run or line whose intent is longer, reporting it.
   */
  public static final int MAX_INTENT_CHARS = 8_192;

  private Checks() {}

  /**
   * Why {@code text} cannot be an intent because of its length ("is N characters, over the limit of 8192",
   * the wording HTTP uses), or empty when it is within {@link #MAX_INTENT_CHARS}.
   */
  public static java.util.Optional<String> intentLengthProblem(String text) {
    return text.length() <= MAX_INTENT_CHARS ? java.util.Optional.empty()
        : java.util.Optional.of("is " + text.length() + " characters, over the limit of " + MAX_INTENT_CHARS);
  }

  /** An intent whose text is within {@link #MAX_INTENT_CHARS}; INVALID_ARGUMENT naming {@code field} otherwise. */
  static Intent requireIntentLength(Intent intent, String field) {
    intent.optionalText().flatMap(Checks::intentLengthProblem).ifPresent(p -> {
      throw MemLoopException.invalid(field, p);
    });
    return intent;
  }

  /**
   * Parses a decimal number strictly: {@code 1}, {@code -0.5}, {@code 1e-3}, {@code -Infinity};
   * not {@code 1d}, {@code 0x1p0}, {@code " 1"} or {@code NaN}, which {@link Double#parseDouble}
   * would take.
   */
  public static double parseDecimal(String text, String field) {
    if (text == null || text.length() > 64 || !DECIMAL.matcher(text).matches()) {
      throw MemLoopException.invalid(field, "expected a decimal number, got '" + abbreviate(text) + "'");
    }
    return Double.parseDouble(text);
  }

  /** {@code s} cut to 40 characters for an error message ({@code "null"} for null). */
  public static String abbreviate(String s) {
    return s == null ? "null" : s.length() <= 40 ? s : s.substring(0, 40) + "...";
  }

  static double requireFinite(double value, String field) {
    if (!Double.isFinite(value)) {
      throw MemLoopException.invalid(field, "must be a finite number, got " + value);
    }
    return value;
  }

  static double requireInRange(double value, double min, double max, String field) {
    if (!(value >= min && value <= max)) {
      throw MemLoopException.invalid(field, "must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  static int requireInRange(int value, int min, int max, String field) {
    if (value < min || value > max) {
      throw MemLoopException.invalid(field, "must be in [" + min + ", " + max + "], got " + value);
    }
    return value;
  }

  static String requireNonBlank(String value, String field) {
    if (value == null || value.isBlank()) {
      throw MemLoopException.invalid(field, "must not be empty");
    }
    return value;
  }

  /**
   * {@code value} if it shows at least one visible character and holds no lone surrogate; otherwise
   * INVALID_ARGUMENT naming {@code field}. Whitespace (also U+00A0), control and format characters (zero-width
   * spaces and joiners, U+2060, the BOM U+FEFF) and combining marks on their own show nothing: a text of only
   * those would reach the embedder as an empty task. One rule for every transport (HTTP, MCP, CLI, replay).
   */
  public static String requireVisibleText(String value, String field) {
    boolean visible = false;
    for (int i = 0; i < value.length(); ) {
      int cp = value.codePointAt(i);
      if (cp >= Character.MIN_SURROGATE && cp <= Character.MAX_SURROGATE) { // codePointAt returns an unpaired one as is
        throw MemLoopException.invalid(field, "holds a lone surrogate (U+" + Integer.toHexString(cp).toUpperCase(java.util.Locale.ROOT)
            + ") at index " + i + ": not a valid Unicode text");
      }
      if (!visible) {
        visible = switch (Character.getType(cp)) {
          case Character.SPACE_SEPARATOR, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR, Character.CONTROL,
              Character.FORMAT, Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK,
              Character.UNASSIGNED -> false;
          default -> !Character.isWhitespace(cp);
        };
      }
      i += Character.charCount(cp);
    }
    if (!visible) {
      throw MemLoopException.invalid(field, value.isEmpty() ? "must not be empty"
          : "has no visible character (only whitespace, control, zero-width or combining characters)");
    }
    return value;
  }

  /** The namespace alphabet every transport enforces before touching a store. */
  public static String requireNamespace(String namespace) {
    if (namespace == null || !NAMESPACE.matcher(namespace).matches()) {
      throw MemLoopException.invalid(
          "namespace",
          "must be 1-64 characters of letters, digits, '.', '_' or '-' starting with a letter or digit, got '"
              + namespace
              + "'");
    }
    return namespace;
  }
}
