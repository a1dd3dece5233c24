package io.memloop.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.MemLoopException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads request bodies strictly: JSON objects only, no unknown fields, no duplicate keys, every value of
 * the type and size its field allows. Every rejection is INVALID_ARGUMENT naming the field.
 */
final class Requests {
  private Requests() {}

  /** The body as a JSON object (its fields are checked by the operation, {@link #object(JsonNode, String, Set)}). */
  static ObjectNode parse(byte[] body) {
    ObjectNode fast = ascii(body) ? parseFast(body) : null;
    return fast != null ? fast : parseGeneral(body);
  }

  /** {@link #parse} without the fast path: a Jackson tree of the strictly decoded body. */
  static ObjectNode parseGeneral(byte[] body) {
    JsonNode node;
    try {
      node = body.length == 0 ? null : Json.MAPPER.readTree(utf8(body));
    } catch (JsonProcessingException e) {
      String m = e.getOriginalMessage();
      throw MemLoopException.invalid("body", "is not valid JSON: " + abbreviate(m == null ? e.getClass().getSimpleName() : m));
    } catch (java.io.IOException e) {
      throw MemLoopException.invalid("body", "cannot be read: " + e.getMessage());
    }
    if (node == null || node.isMissingNode()) {
      throw MemLoopException.invalid("body", "must be a JSON object, got an empty body");
    }
    if (!node.isObject()) {
      throw MemLoopException.invalid("body", "must be a JSON object, got " + kind(node));
    }
    return (ObjectNode) node;
  }

  /** Longest top-level {@code embedding} the fast path reads into floats; a longer one takes the general path. */
  private static final int FAST_VECTOR_MAX = 1 << 16;
  /** Reads one field's value as a tree; the tokens after it are the object's, not trailing garbage. */
  private static final com.fasterxml.jackson.databind.ObjectReader FIELD_VALUE =
      Json.MAPPER.reader().without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /**
   * The common request, parsed without a tree node per number: an ASCII body (so valid UTF-8 without decoding it)
   * holding one JSON object whose top-level {@code embedding}, if any, is an array of finite numbers, read straight
   * into a {@code float[]} (as the general path would read it: each number as a double, then rounded to float) and
   * kept as a {@link FloatsNode}. Anything else (a malformed body, a duplicate key, trailing tokens, a non-number or
   * non-finite element, a huge integer) returns null, and the general path parses the body again and reports the
   * problem exactly as it always did.
   */
  private static @Nullable ObjectNode parseFast(byte[] body) {
    try (com.fasterxml.jackson.core.JsonParser p = Json.MAPPER.createParser(body)) {
      if (p.nextToken() != com.fasterxml.jackson.core.JsonToken.START_OBJECT) {
        return null;
      }
      ObjectNode o = Json.MAPPER.createObjectNode();
      com.fasterxml.jackson.core.JsonToken t;
      while ((t = p.nextToken()) == com.fasterxml.jackson.core.JsonToken.FIELD_NAME) {
        String name = p.currentName();
        com.fasterxml.jackson.core.JsonToken v = p.nextToken();
        if (v == com.fasterxml.jackson.core.JsonToken.START_ARRAY && name.equals("embedding")) {
          float[] floats = floats(p);
          if (floats == null) {
            return null;
          }
          o.set(name, new FloatsNode(floats));
        } else {
          o.set(name, FIELD_VALUE.readTree(p));
        }
      }
      if (t != com.fasterxml.jackson.core.JsonToken.END_OBJECT || p.nextToken() != null) {
        return null;
      }
      return o;
    } catch (java.io.IOException | RuntimeException e) {
      return null; // the general path reports it
    }
  }

  /** The numbers of the array {@code p} is at the start of, up to its end; null for anything but finite numbers. */
  private static float @Nullable [] floats(com.fasterxml.jackson.core.JsonParser p) throws java.io.IOException {
    float[] out = new float[512];
    int n = 0;
    for (com.fasterxml.jackson.core.JsonToken t = p.nextToken(); t != com.fasterxml.jackson.core.JsonToken.END_ARRAY;
        t = p.nextToken()) {
      float f;
      if (t == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_FLOAT) {
        f = (float) p.getDoubleValue(); // as DoubleNode.floatValue()
      } else if (t == com.fasterxml.jackson.core.JsonToken.VALUE_NUMBER_INT
          && p.getNumberType() != com.fasterxml.jackson.core.JsonParser.NumberType.BIG_INTEGER) {
        f = (float) p.getLongValue(); // as IntNode / LongNode.floatValue()
      } else {
        return null;
      }
      if (!Float.isFinite(f) || n == FAST_VECTOR_MAX) {
        return null;
      }
      if (n == out.length) {
        out = java.util.Arrays.copyOf(out, out.length * 2);
      }
      out[n++] = f;
    }
    return java.util.Arrays.copyOf(out, n);
  }

  /** Whether every byte is ASCII (such a body is valid UTF-8 as it is). */
  private static boolean ascii(byte[] body) {
    for (byte b : body) {
      if (b < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * A top-level {@code embedding} the fast path read: its floats, ready for {@link #optionalVector}. Only ever
   * read by that method; to anything else it is an array (of {@code size()} numbers).
   */
  static final class FloatsNode extends com.fasterxml.jackson.databind.node.POJONode {
    FloatsNode(float[] floats) {
      super(floats);
    }

    float[] floats() {
      return (float[]) getPojo();
    }

    @Override
    public com.fasterxml.jackson.databind.node.JsonNodeType getNodeType() {
      return com.fasterxml.jackson.databind.node.JsonNodeType.ARRAY;
    }

    @Override
    public int size() {
      return floats().length;
    }
  }

  /**
   * {@code body} decoded as strict UTF-8: an overlong form ({@code C0 AF} for '/'), a surrogate or a code point
   * above U+10FFFF encoded in bytes, or any malformed sequence is INVALID_ARGUMENT naming {@code body} (the JSON
   * parser would decode some of them leniently).
   */
  static String utf8(byte[] body) {
    java.nio.charset.CharsetDecoder d = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT);
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(body);
    java.nio.CharBuffer out = java.nio.CharBuffer.allocate(body.length);
    java.nio.charset.CoderResult r = d.decode(in, out, true);
    if (r.isError()) {
      throw MemLoopException.invalid("body", "is not valid UTF-8: " + r.length() + " malformed byte(s) at byte " + in.position()
          + " (an overlong form, an encoded surrogate, a code point above U+10FFFF or a broken sequence)");
    }
    d.flush(out);
    return out.flip().toString();
  }

  /** {@code node} as an object with only {@code allowed} fields ({@code where} names it in errors). */
  static ObjectNode object(JsonNode node, String where, Set<String> allowed) {
    if (!node.isObject()) {
      throw MemLoopException.invalid(where, "must be a JSON object, got " + kind(node));
    }
    var names = node.fieldNames();
    while (names.hasNext()) {
      String name = names.next();
      if (!allowed.contains(name)) {
        throw MemLoopException.invalid(field(where, name), "is not a known field (known: " + String.join(", ", allowed.stream().sorted().toList()) + ")");
      }
    }
    return (ObjectNode) node;
  }

  static @Nullable String optionalText(ObjectNode o, String field, int maxChars) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw MemLoopException.invalid(field, "must be a string, got " + kind(v));
    }
    String s = v.textValue();
    if (s.length() > maxChars) {
      throw MemLoopException.invalid(field, "is " + s.length() + " characters, over the limit of " + maxChars);
    }
    if (s.isBlank()) {
      throw MemLoopException.invalid(field, "must not be empty");
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        throw MemLoopException.invalid(field, "holds a lone surrogate at index " + i + ": not a valid Unicode text");
      }
    }
    return s;
  }

  static String text(ObjectNode o, String field, int maxChars) {
    String s = optionalText(o, field, maxChars);
    if (s == null) {
      throw MemLoopException.invalid(field, "is required");
    }
    return s;
  }

  /** A finite number (JSON has no NaN; a literal too large for a double, such as 1e999, is rejected). */
  static double number(ObjectNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      throw MemLoopException.invalid(field, "is required");
    }
    if (!v.isNumber()) {
      throw MemLoopException.invalid(field, "must be a number, got " + kind(v));
    }
    double d = v.doubleValue();
    if (!Double.isFinite(d)) {
      throw MemLoopException.invalid(field, "must be a finite number, got " + v.asText());
    }
    return d;
  }

  static float @Nullable [] optionalVector(ObjectNode o, String field, int maxLength) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (v instanceof FloatsNode read) {
      float[] floats = read.floats();
      if (floats.length == 0 || floats.length > maxLength) {
        throw MemLoopException.invalid(field, "must have 1 to " + maxLength + " numbers, got " + floats.length);
      }
      return floats.clone();
    }
    if (!v.isArray()) {
      throw MemLoopException.invalid(field, "must be an array of numbers, got " + kind(v));
    }
    if (v.size() == 0 || v.size() > maxLength) {
      throw MemLoopException.invalid(field, "must have 1 to " + maxLength + " numbers, got " + v.size());
    }
    float[] out = new float[v.size()];
    for (int i = 0; i < out.length; i++) {
      JsonNode x = v.get(i);
      if (!x.isNumber()) {
        throw MemLoopException.invalid(field + "[" + i + "]", "must be a number, got " + kind(x));
      }
      float f = x.floatValue();
      if (!Float.isFinite(f)) {
        throw MemLoopException.invalid(field + "[" + i + "]", "must be a finite 32-bit float, got " + x.asText());
      }
      out[i] = f;
    }
    return out;
  }

  static @Nullable List<String> optionalStrings(ObjectNode o, String field, int maxItems, int maxChars) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isArray()) {
      throw MemLoopException.invalid(field, "must be an array of strings, got " + kind(v));
    }
    if (v.size() > maxItems) {
      throw MemLoopException.invalid(field, "has " + v.size() + " items, over the limit of " + maxItems);
    }
    List<String> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      JsonNode x = v.get(i);
      if (!x.isTextual() || x.textValue().isBlank() || x.textValue().length() > maxChars) {
        throw MemLoopException.invalid(field + "[" + i + "]", "must be a non-empty string of at most " + maxChars + " characters");
      }
      out.add(x.textValue());
    }
    return out;
  }

  /** A query parameter as an integer in [min, max], or {@code fallback} when absent. */
  static int intParam(@Nullable String value, String name, int min, int max, int fallback) {
    if (value == null) {
      return fallback;
    }
    if (value.length() > 10 || !value.matches("[0-9]+")) {
      throw MemLoopException.invalid(name, "must be an integer in [" + min + ", " + max + "], got '" + abbreviate(value) + "'");
    }
    long n = Long.parseLong(value);
    if (n < min || n > max) {
      throw MemLoopException.invalid(name, "must be in [" + min + ", " + max + "], got " + n);
    }
    return (int) n;
  }

  /** A query parameter as a finite number, or null when absent. */
  static @Nullable Double doubleParam(@Nullable String value, String name) {
    if (value == null) {
      return null;
    }
    double d;
    try {
      d = value.length() > 40 ? Double.NaN : Double.parseDouble(value);
    } catch (NumberFormatException e) {
      d = Double.NaN;
    }
    if (!Double.isFinite(d) || value.strip().length() != value.length()) {
      throw MemLoopException.invalid(name, "must be a finite number, got '" + abbreviate(value) + "'");
    }
    return d;
  }

  /** A query parameter as a non-negative integer, or null when absent. */
  static @Nullable Long longParam(@Nullable String value, String name) {
    if (value == null) {
      return null;
    }
    if (value.isEmpty() || value.length() > 18 || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw MemLoopException.invalid(name, "must be a non-negative integer, got '" + abbreviate(value) + "'");
    }
    return Long.parseLong(value);
  }

  /** A query parameter as an ISO-8601 instant ({@code 2026-11-25T21:30:00Z}), or null when absent. */
  static java.time.@Nullable Instant instantParam(@Nullable String value, String name) {
    if (value == null) {
      return null;
    }
    try {
      return java.time.OffsetDateTime.parse(value).toInstant();
    } catch (java.time.format.DateTimeParseException e) {
      throw MemLoopException.invalid(name, "must be an ISO-8601 instant such as 2026-11-25T21:30:00Z, got '" + abbreviate(value) + "'");
    }
  }

  static String kind(JsonNode v) {
    return switch (v.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      case NULL -> "null";
      default -> v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    };
  }

  private static String field(String where, String name) {
    return where.equals("body") ? abbreviate(name) : where + "." + abbreviate(name);
  }

  static String abbreviate(String s) {
    String clean = s.replaceAll("\\p{Cntrl}", "?");
    return clean.length() <= 120 ? clean : clean.substring(0, 120) + "...";
  }
}
