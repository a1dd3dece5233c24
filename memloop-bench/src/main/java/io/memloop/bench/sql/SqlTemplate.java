package io.memloop.bench.sql;

import java.util.List;

/**
 * A question template with its gold SQL: the natural-language question and the query that answers
 * it, both with the same slots ({@code {city}}, {@code {year}}...). A task is a template with its
 * slots filled.
 *
 * <p>Templates of one {@code kind} share their slots and nearly all of their wording; they differ in
 * a word or two that changes the semantics (negation, ordering, aggregation, time filter), and so
 * are each other's distractors. Variant 0 is the kind's base question.
 *
 * @param slots in the order the question names them
 */
record SqlTemplate(String kind, int variant, SqlSchema schema, String question, String sql, List<Slot> slots) {

  /**
   * A slot and the values it takes. Numeric slots are written bare in the SQL, entity slots quoted
   * ({@code '{city}'}).
   */
  record Slot(String name, List<String> values) {
    Slot {
      values = List.copyOf(values);
      if (values.isEmpty()) {
        throw new IllegalArgumentException("slot " + name + " has no values");
      }
      boolean numeric = values.getFirst().chars().allMatch(Character::isDigit);
      for (String v : values) {
        if (v.chars().allMatch(Character::isDigit) != numeric || v.isEmpty()) {
          throw new IllegalArgumentException("slot " + name + " mixes numbers and entities: " + values);
        }
      }
    }

    boolean numeric() {
      return values.getFirst().chars().allMatch(Character::isDigit);
    }

    String placeholder() {
      return "{" + name + "}";
    }
  }

  SqlTemplate {
    slots = List.copyOf(slots);
    if (variant < 0) {
      throw new IllegalArgumentException("variant must be >= 0, got " + variant + " in " + kind);
    }
    for (Slot s : slots) {
      String inSql = s.numeric() ? s.placeholder() : "'" + s.placeholder() + "'";
      if (!question.contains(s.placeholder()) || !sql.contains(inSql)) {
        throw new IllegalArgumentException(
            kind + "/v" + variant + ": slot " + inSql + " must appear in the question and the SQL");
      }
    }
  }

  /** {@code kind/vN}: stable, unique in the catalogue. */
  String id() {
    return kind + "/v" + variant;
  }

  String question(List<String> values) {
    return fill(question, values);
  }

  String sql(List<String> values) {
    return fill(sql, values);
  }

  private String fill(String text, List<String> values) {
    if (values.size() != slots.size()) {
      throw new IllegalArgumentException(id() + " has " + slots.size() + " slots, got values " + values);
    }
    String out = text;
    for (int i = 0; i < slots.size(); i++) {
      out = out.replace(slots.get(i).placeholder(), values.get(i));
    }
    return out;
  }
}
