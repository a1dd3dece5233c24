package io.memloop.bench.sql;

import io.memloop.bench.sql.SqlAlignment.Kind;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the frozen SQL policy knows about SQL without an example: the queries a model that has read
 * the three schemas would write for a kind of question, with the details it cannot tell from the
 * question's wording left open. A stand-in for an LLM's general SQL knowledge.
 *
 * <p>It is written from the schemas' tables and columns, not from the environment's question
 * catalogue ({@link SqlTemplates}): each {@link Shape} is a query skeleton reached by a few words of
 * the question (its {@code cues}: "revenue", "took", "earn"...) with alternatives for the parts that
 * the distractor questions turn on and a model gets wrong without an example: the comparison
 * ({@code > >= < <=} for thresholds, {@code = < > >=} for years), {@code =} or {@code <>} for the
 * entity, the aggregate, the ordering and its direction, {@code EXISTS} or {@code NOT EXISTS}. So a
 * guess has the right tables and joins and the right literals, and its semantics right about one time
 * in four to one in thirty-two depending on the task; most alternatives answer no question of the
 * catalogue at all. The tests check that every catalogue question's gold rows are among the
 * alternatives its cues reach (otherwise no task could be solved without a case).
 *
 * <p>Immutable; thread-safe.
 */
final class SqlKnowledge {
  private SqlKnowledge() {}

  /** Alternatives of a skeleton: {@code [a|b|c]}. */
  private static final Pattern CHOICE = Pattern.compile("\\[([^\\[\\]]*)]");

  private static final String CMP = "[>|>=|<|<=]";
  private static final String CMP_YEAR = "[=|<|>|>=]";
  private static final String EQ = "[=|<>]";
  private static final String DIR = "[DESC|ASC]";
  private static final String EMPLOYEES = " FROM employees e JOIN departments d ON d.id = e.department_id WHERE d.name "
      + EQ + " '{E}'";
  private static final String COURSE_GRADES = " FROM grades g JOIN courses c ON c.id = g.course_id WHERE c.title ";

  /**
   * A query skeleton, written out once: every query it stands for, with the literals {@code {E}} (the
   * question's entity) and {@code {N}} (its number) still open.
   *
   * @param cues lower-case words the question must all contain for the skeleton to come to mind
   * @param expansions every query the skeleton stands for, in {@link #expand} order
   */
  record Shape(SqlSchema schema, Set<String> cues, List<String> expansions) {
    Shape {
      cues = Set.copyOf(cues);
      expansions = List.copyOf(expansions);
    }
  }

  /** The shape of skeleton {@code sql}, alternatives written {@code [a|b]}. */
  private static Shape shape(SqlSchema schema, Set<String> cues, String sql) {
    if (!sql.contains("'{E}'") || !sql.contains("{N}")) {
      throw new IllegalArgumentException("a shape needs the slots '{E}' and {N}: " + sql);
    }
    return new Shape(schema, cues, expand(sql));
  }

  static final List<Shape> SHAPES = List.of(
      shape(SqlSchema.SHOP, Set.of("customers", "orders"),
          "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city " + EQ
              + " '{E}' GROUP BY c.id, c.name HAVING COUNT(*) " + CMP + " {N}"),
      shape(SqlSchema.SHOP, Set.of("customers", "orders"),
          "SELECT c.name FROM customers c WHERE c.city " + EQ
              + " '{E}' AND (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) " + CMP + " {N}"),
      shape(SqlSchema.SHOP, Set.of("list", "products"),
          "SELECT name FROM products WHERE category " + EQ + " '{E}' ORDER BY price " + DIR + ", id LIMIT {N}"),
      shape(SqlSchema.SHOP, Set.of("list", "products"),
          "SELECT p.name FROM products p JOIN orders o ON o.product_id = p.id WHERE p.category " + EQ
              + " '{E}' GROUP BY p.id, p.name ORDER BY [SUM(o.quantity)|COUNT(*)] " + DIR + ", p.id LIMIT {N}"),
      shape(SqlSchema.SHOP, Set.of("quantity"),
          "SELECT [SUM|AVG|MAX|MIN](o.quantity) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city "
              + EQ + " '{E}' AND o.order_year " + CMP_YEAR + " {N}"),
      shape(SqlSchema.SHOP, Set.of("revenue"),
          "SELECT [SUM|AVG](o.quantity * p.price) FROM orders o JOIN products p ON p.id = o.product_id"
              + " WHERE p.category " + EQ + " '{E}' AND o.order_year " + CMP_YEAR + " {N}"),
      shape(SqlSchema.SCHOOL, Set.of("scored"),
          "SELECT s.name FROM students s JOIN grades g ON g.student_id = s.id JOIN courses c ON c.id = g.course_id"
              + " WHERE c.title " + EQ + " '{E}' AND g.score " + CMP + " {N}"),
      shape(SqlSchema.SCHOOL, Set.of("score"),
          "SELECT [AVG|MAX|MIN|SUM](g.score)" + COURSE_GRADES + EQ + " '{E}' AND g.term_year " + CMP_YEAR + " {N}"),
      shape(SqlSchema.SCHOOL, Set.of("took"),
          "SELECT COUNT(*)" + COURSE_GRADES + EQ + " '{E}' AND g.term_year " + CMP_YEAR + " {N}"),
      shape(SqlSchema.SCHOOL, Set.of("took"),
          "SELECT COUNT(*) FROM students s WHERE [NOT EXISTS|EXISTS] (SELECT g.student_id" + COURSE_GRADES
              + "= '{E}' AND g.term_year " + CMP_YEAR + " {N} AND g.student_id = s.id)"),
      shape(SqlSchema.HR, Set.of("earn"), "SELECT e.name" + EMPLOYEES + " AND e.salary " + CMP + " {N}"),
      shape(SqlSchema.HR, Set.of("many", "hired"),
          "SELECT COUNT(*)" + EMPLOYEES + " AND e.hire_year " + CMP_YEAR + " {N}"),
      shape(SqlSchema.HR, Set.of("name", "employees"),
          "SELECT e.name" + EMPLOYEES + " ORDER BY [e.salary|e.hire_year] " + DIR + ", e.id LIMIT {N}"),
      shape(SqlSchema.HR, Set.of("salary"),
          "SELECT [SUM|AVG|MAX|MIN](e.salary)" + EMPLOYEES + " AND e.hire_year " + CMP_YEAR + " {N}"));

  /**
   * The queries the policy could write for {@code question} without an example, literals filled in:
   * the expansions of every shape of the schemas its words point to (all schemas when they point
   * nowhere) whose cues the question holds; when none does, of every shape of those schemas. Empty when the question does not
   * have exactly one entity and one number. In a fixed order, without duplicates.
   */
  static List<String> candidates(String question) {
    List<String> entities = SqlAlignment.literals(question, Kind.ENTITY);
    List<String> numbers = SqlAlignment.literals(question, Kind.NUMBER);
    if (entities.size() != 1 || numbers.size() != 1) {
      return List.of();
    }
    Set<String> words = new HashSet<>(SqlAlignment.literals(question, Kind.WORD));
    Set<SqlSchema> schemas = schemasOf(words);
    List<Shape> ofSchema = SHAPES.stream().filter(s -> schemas.isEmpty() || schemas.contains(s.schema())).toList();
    List<Shape> reached = ofSchema.stream().filter(s -> words.containsAll(s.cues())).toList();
    if (reached.isEmpty()) {
      reached = ofSchema;
    }
    List<String> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (Shape s : reached) {
      for (String sql : s.expansions()) {
        String filled = sql.replace("{E}", entities.getFirst()).replace("{N}", numbers.getFirst());
        if (seen.add(filled)) {
          out.add(filled);
        }
      }
    }
    return List.copyOf(out);
  }

  /** Schemas whose keywords the question uses, all of those with the most hits (at least one). */
  private static Set<SqlSchema> schemasOf(Set<String> words) {
    Set<SqlSchema> best = new HashSet<>();
    int bestHits = 1;
    for (SqlSchema s : SqlSchema.values()) {
      int hits = (int) s.keywords().stream().filter(words::contains).count();
      if (hits > bestHits) {
        best.clear();
        bestHits = hits;
      }
      if (hits == bestHits) {
        best.add(s);
      }
    }
    return best;
  }

  /** Every string {@code skeleton} stands for, alternatives expanded left to right. */
  static List<String> expand(String skeleton) {
    Matcher m = CHOICE.matcher(skeleton);
    if (!m.find()) {
      return List.of(skeleton);
    }
    List<String> out = new ArrayList<>();
    for (String option : m.group(1).split("\\|", -1)) {
      String head = skeleton.substring(0, m.start()) + option;
      for (String tail : expand(skeleton.substring(m.end()))) {
        out.add(head + tail);
      }
    }
    return out;
  }
}
