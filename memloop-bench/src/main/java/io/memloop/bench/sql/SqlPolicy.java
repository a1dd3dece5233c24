package io.memloop.bench.sql;

import io.memloop.Memory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The frozen policy of the SQL environment: a stand-in for an LLM that writes SQL by adapting the
 * (question → SQL) cases it is shown, case-based reasoning in the manner of Memento (arXiv
 * 2508.16153) on single-step tasks like Lifelong Agent Bench's database split.
 *
 * <p>It reads the shown experiences top-down, as ranked, and ignores any without a question and a
 * query. For each case whose question {@link SqlAlignment aligns} with the task's, it rewrites the
 * case's SQL with the task's literals. A failure note marks its rewritten query to avoid; the first
 * success case whose rewritten query is not marked is the answer. Alignment tolerates a word or two
 * of different wording, so a case of a near-identical question with other semantics is adapted just
 * as readily, and gives a wrong answer: the policy cannot tell, only the ranking can.
 *
 * <p>Without a usable case it guesses: among the queries its {@link SqlKnowledge general SQL
 * knowledge} offers for the question (the right tables and literals, the comparison, aggregate or
 * ordering left open), one not marked to avoid, uniformly. That is right one time in four to one
 * in thirty-two, depending on the kind of question; its knowledge is written from the schemas, not
 * from the environment's catalogue of gold queries. With probability {@code slipProbability} it
 * ignores what it was shown and guesses.
 *
 * <p>It reads only the experience text, never a memory's stored outcome or utility. Stateless apart
 * from its configuration; thread-safe.
 */
final class SqlPolicy {
  static final String QUESTION = "Question: ";
  static final String SQL = "SQL: ";
  static final String CORRECT = "Result: correct";
  static final String WRONG = "Result: wrong";

  /** A (question → SQL) case read from an experience text. */
  record Case(String question, String sql, boolean success) {}

  private final double slipProbability;

  SqlPolicy(double slipProbability) {
    if (!(slipProbability >= 0 && slipProbability < 1)) {
      throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
    }
    this.slipProbability = slipProbability;
  }

  double slipProbability() {
    return slipProbability;
  }

  /** The query the policy runs for {@code question}. */
  String choose(String question, List<Memory> shown, RandomGenerator rnd) {
    if (shown.isEmpty() || (slipProbability > 0 && rnd.nextDouble() < slipProbability)) {
      return guess(question, Set.of(), rnd);
    }
    Set<String> avoid = new HashSet<>();
    Optional<String> adapted = adapt(question, shown, avoid);
    return adapted.orElseGet(() -> guess(question, avoid, rnd));
  }

  /**
   * The query adapted from the first usable success case of {@code shown}, without randomness;
   * empty when there is none. Failure notes read on the way are added to {@code avoid} (normalised
   * queries).
   */
  Optional<String> adapt(String question, List<Memory> shown, Set<String> avoid) {
    return caseUsed(question, shown, avoid).map(Adapted::sql);
  }

  /** A case the policy uses and the query it rewrote it to. */
  record Adapted(Case source, String sql) {}

  /** Like {@link #adapt}, also telling which case was used (for analyses of what fooled the policy). */
  Optional<Adapted> caseUsed(String question, List<Memory> shown, Set<String> avoid) {
    for (String experience : Memory.partsOf(shown)) {
      Optional<Case> parsed = parse(experience);
      if (parsed.isEmpty()) {
        continue;
      }
      Case c = parsed.get();
      Optional<Map<String, String>> mapping = SqlAlignment.align(c.question(), question);
      if (mapping.isEmpty()) {
        continue; // a case of another kind of question: a model would not use it either
      }
      String sql = SqlAlignment.substitute(c.sql(), mapping.get());
      if (!c.success()) {
        avoid.add(normalized(sql));
      } else if (!avoid.contains(normalized(sql))) {
        return Optional.of(new Adapted(c, sql));
      }
    }
    return Optional.empty();
  }

  /**
   * A query written without a usable case: one of the {@link SqlKnowledge#candidates queries it knows
   * for the question}, not marked to avoid, uniformly.
   */
  String guess(String question, Set<String> avoid, RandomGenerator rnd) {
    List<String> known = SqlKnowledge.candidates(question);
    if (known.isEmpty()) {
      return "SELECT NULL"; // the question's literals fit no query it knows
    }
    List<String> options = known.stream().filter(sql -> !avoid.contains(normalized(sql))).toList();
    List<String> pool = options.isEmpty() ? known : options; // every query marked wrong: the notes are useless
    return pool.get(rnd.nextInt(pool.size()));
  }

  static String normalized(String sql) {
    return sql.strip().replaceAll("\\s+", " ");
  }

  /** The experience of a correct answer: the case to adapt next time. */
  static String successExperience(String question, String sql) {
    return QUESTION + question + "\n" + SQL + normalized(sql) + "\n" + CORRECT + ": it returned the expected rows.";
  }

  /** The experience of a wrong answer: the query not to reuse for this question. */
  static String failureExperience(String question, String sql) {
    return QUESTION + question + "\n" + SQL + normalized(sql) + "\n" + WRONG
        + ": it did not return the expected rows; do not reuse this query for this question.";
  }

  /** The case an experience text records; empty for a text that is not one. */
  static Optional<Case> parse(String experience) {
    String question = null;
    String sql = null;
    Boolean success = null;
    for (String line : experience.split("\n")) {
      if (line.startsWith(QUESTION)) {
        question = line.substring(QUESTION.length()).strip();
      } else if (line.startsWith(SQL)) {
        sql = line.substring(SQL.length()).strip();
      } else if (line.startsWith(CORRECT)) {
        success = true;
      } else if (line.startsWith(WRONG)) {
        success = false;
      }
    }
    if (question == null || sql == null || success == null || question.isEmpty() || sql.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new Case(question, sql, success));
  }
}
