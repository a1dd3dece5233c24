package io.memloop.bench.sql;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the frozen SQL policy relates a remembered question to a new one: token alignment, literal
 * mapping and substitution. A stand-in for what an LLM does with a few-shot example: it sees that
 * "customers from Lyon ... more than 8" and "customers from Oslo ... more than 6" ask the same thing
 * and rewrites the example's query with the new literals.
 *
 * <p>Literals are numbers and capitalised words after the first; everything else is wording, compared
 * case-insensitively. Two questions align when the longest common subsequence of their tokens (a
 * literal matching any literal of its type, a word only itself) covers at least
 * {@link #MIN_OVERLAP} of both (Dice coefficient) and every literal of both questions is matched. The
 * tolerance is deliberate: a question differing in a word or two of wording aligns too, which is how
 * a near-identical question with other semantics ("never placed", "cheapest") fools the policy.
 *
 * <p>Stateless; thread-safe.
 */
final class SqlAlignment {
  /**
   * Smallest Dice overlap of two aligned questions. Over the catalogue, questions of one kind overlap
   * by at least 0.73, questions of different kinds by at most 0.67.
   */
  static final double MIN_OVERLAP = 0.7;

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z]+|[0-9]+");
  /** A quoted string or a bare integer of a SQL text; integers inside identifiers are not matched. */
  private static final Pattern SQL_LITERAL = Pattern.compile("'([^']*)'|(?<![\\w.])([0-9]+)(?![\\w.])");

  private SqlAlignment() {}

  enum Kind {
    WORD,
    NUMBER,
    ENTITY
  }

  record Token(String text, Kind kind) {
    boolean matches(Token o) {
      return kind == o.kind && (kind != Kind.WORD || text.equals(o.text));
    }

    boolean literal() {
      return kind != Kind.WORD;
    }
  }

  static List<Token> tokens(String question) {
    List<Token> out = new ArrayList<>();
    Matcher m = TOKEN.matcher(question);
    while (m.find()) {
      String t = m.group();
      if (Character.isDigit(t.charAt(0))) {
        out.add(new Token(t, Kind.NUMBER));
      } else if (!out.isEmpty() && Character.isUpperCase(t.charAt(0))) {
        out.add(new Token(t, Kind.ENTITY));
      } else {
        out.add(new Token(t.toLowerCase(Locale.ROOT), Kind.WORD));
      }
    }
    return out;
  }

  /** The literals of {@code question} of one kind, in order. */
  static List<String> literals(String question, Kind kind) {
    return tokens(question).stream().filter(t -> t.kind() == kind).map(Token::text).toList();
  }

  /**
   * The mapping from {@code from}'s literals to {@code to}'s when the two questions align; empty
   * when they do not.
   */
  static Optional<Map<String, String>> align(String from, String to) {
    List<Token> a = tokens(from);
    List<Token> b = tokens(to);
    if (a.isEmpty() || b.isEmpty()) {
      return Optional.empty();
    }
    // Longest common subsequence, then walk back to recover the matched pairs.
    int[][] lcs = new int[a.size() + 1][b.size() + 1];
    for (int i = a.size() - 1; i >= 0; i--) {
      for (int j = b.size() - 1; j >= 0; j--) {
        lcs[i][j] = a.get(i).matches(b.get(j)) ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    double overlap = 2.0 * lcs[0][0] / (a.size() + b.size());
    if (overlap < MIN_OVERLAP) {
      return Optional.empty();
    }
    Map<String, String> mapping = new HashMap<>();
    int matchedLiterals = 0;
    int i = 0;
    int j = 0;
    while (i < a.size() && j < b.size()) {
      if (a.get(i).matches(b.get(j)) && lcs[i][j] == lcs[i + 1][j + 1] + 1) {
        if (a.get(i).literal()) {
          String previous = mapping.putIfAbsent(a.get(i).text(), b.get(j).text());
          if (previous != null && !previous.equals(b.get(j).text())) {
            return Optional.empty(); // one literal of the case would need two values: no consistent rewrite
          }
          matchedLiterals++;
        }
        i++;
        j++;
      } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
        i++;
      } else {
        j++;
      }
    }
    long literalsA = a.stream().filter(Token::literal).count();
    long literalsB = b.stream().filter(Token::literal).count();
    if (matchedLiterals != literalsA || matchedLiterals != literalsB) {
      return Optional.empty(); // a literal left over would stay unsubstituted, or be lost
    }
    return Optional.of(Map.copyOf(mapping));
  }

  /**
   * {@code sql} with its literals rewritten by {@code mapping}, in one pass (so a swap Lyon ↔ Oslo
   * works): a quoted string whose content is a mapped entity, a bare integer that is a mapped number.
   */
  static String substitute(String sql, Map<String, String> mapping) {
    Matcher m = SQL_LITERAL.matcher(sql);
    StringBuilder out = new StringBuilder(sql.length());
    while (m.find()) {
      String replacement;
      if (m.group(1) != null) {
        String to = mapping.get(m.group(1));
        replacement = to == null ? m.group() : "'" + to + "'";
      } else {
        replacement = mapping.getOrDefault(m.group(2), m.group(2));
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }
}
