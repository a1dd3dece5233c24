package io.memloop;

import java.util.regex.Pattern;

/** Argument checks shared by the value records; each names the field it rejects. */
final class Checks {
  private static final Pattern NAMESPACE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private Checks() {}

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

  static int requirePositive(int value, String field) {
    if (value < 1) {
      throw MemLoopException.invalid(field, "must be at least 1, got " + value);
    }
    return value;
  }

  static String requireNonBlank(String value, String field) {
    if (value == null || value.isBlank()) {
      throw MemLoopException.invalid(field, "must not be empty");
    }
    return value;
  }

  static String requireNamespace(String namespace) {
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
