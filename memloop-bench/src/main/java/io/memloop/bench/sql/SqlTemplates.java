package io.memloop.bench.sql;

import static io.memloop.bench.sql.SqlSchema.HR;
import static io.memloop.bench.sql.SqlSchema.SCHOOL;
import static io.memloop.bench.sql.SqlSchema.SHOP;

import io.memloop.bench.sql.SqlTemplate.Slot;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalogue of the SQL environment: eleven kinds of question over the three
 * {@link SqlSchema schemas}, three variants each (33 templates). Within a kind the variants differ by
 * a word or two with different semantics, in the spirit of the product spec's distractors: "more
 * than" / "never ... more than" / "at least", "most expensive" / "cheapest" / "most ordered",
 * "total" / "average", "in" / "outside", "before" / "since". Every template has one entity slot and
 * one numeric slot, so a case of any template can be aligned to any question literal by literal;
 * only the wording tells them apart.
 *
 * <p>The gold SQL of every template has no numeric constant and no quoted string besides its
 * slots, so that substituting a case's literals rewrites exactly the slots (checked by the tests). A
 * query with {@code ORDER BY} breaks ties by id, so its order is total.
 */
final class SqlTemplates {
  private SqlTemplates() {}

  private static Slot slot(String name, List<String> values) {
    return new Slot(name, values);
  }

  private static List<String> range(int from, int to, int step) {
    List<String> out = new ArrayList<>();
    for (int v = from; v <= to; v += step) {
      out.add(Integer.toString(v));
    }
    return out;
  }

  static final Slot CITY = slot("city", SqlSchema.CITIES);
  static final Slot CATEGORY = slot("category", SqlSchema.CATEGORIES);
  static final Slot COURSE = slot("course", SqlSchema.COURSES);
  static final Slot DEPT = slot("dept", SqlSchema.DEPARTMENTS);
  static final Slot ORDER_COUNT = slot("count", range(5, 14, 1));
  static final Slot TOP = slot("top", range(2, 5, 1));
  static final Slot ORDER_YEAR = slot("year", range(2020, 2024, 1));
  static final Slot SCORE = slot("score", range(50, 90, 5));
  static final Slot TERM_YEAR = slot("year", range(2020, 2024, 1));
  static final Slot SALARY = slot("salary", range(4000, 8500, 500));
  static final Slot HIRE_YEAR = slot("year", range(2010, 2022, 1));

  private static final String CUSTOMER_ORDERS =
      "SELECT c.name FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.city = '{city}'"
          + " GROUP BY c.id, c.name HAVING COUNT(*) ";
  private static final String CITY_QUANTITY =
      " FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.city ";
  private static final String REVENUE =
      "SELECT SUM(o.quantity * p.price) FROM orders o JOIN products p ON p.id = o.product_id"
          + " WHERE p.category = '{category}' AND o.order_year ";
  private static final String SCORES =
      "SELECT s.name FROM students s JOIN grades g ON g.student_id = s.id JOIN courses c ON c.id = g.course_id"
          + " WHERE c.title = '{course}' AND g.score ";
  private static final String COURSE_YEAR =
      " FROM grades g JOIN courses c ON c.id = g.course_id WHERE c.title = '{course}' AND g.term_year ";
  private static final String EMPLOYEES = " FROM employees e JOIN departments d ON d.id = e.department_id WHERE ";

  static final List<SqlTemplate> ALL =
      List.of(
          // shop
          new SqlTemplate("shop.order-count", 0, SHOP,
              "Which customers from {city} placed more than {count} orders?",
              CUSTOMER_ORDERS + "> {count}", List.of(CITY, ORDER_COUNT)),
          new SqlTemplate("shop.order-count", 1, SHOP,
              "Which customers from {city} never placed more than {count} orders?",
              "SELECT c.name FROM customers c WHERE c.city = '{city}'"
                  + " AND (SELECT COUNT(*) FROM orders o WHERE o.customer_id = c.id) <= {count}",
              List.of(CITY, ORDER_COUNT)),
          new SqlTemplate("shop.order-count", 2, SHOP,
              "Which customers from {city} placed at least {count} orders?",
              CUSTOMER_ORDERS + ">= {count}", List.of(CITY, ORDER_COUNT)),
          new SqlTemplate("shop.top-products", 0, SHOP,
              "List the {top} most expensive products in the {category} category.",
              "SELECT name FROM products WHERE category = '{category}' ORDER BY price DESC, id LIMIT {top}",
              List.of(TOP, CATEGORY)),
          new SqlTemplate("shop.top-products", 1, SHOP,
              "List the {top} cheapest products in the {category} category.",
              "SELECT name FROM products WHERE category = '{category}' ORDER BY price ASC, id LIMIT {top}",
              List.of(TOP, CATEGORY)),
          new SqlTemplate("shop.top-products", 2, SHOP,
              "List the {top} most ordered products in the {category} category.",
              "SELECT p.name FROM products p JOIN orders o ON o.product_id = p.id WHERE p.category = '{category}'"
                  + " GROUP BY p.id, p.name ORDER BY SUM(o.quantity) DESC, p.id LIMIT {top}",
              List.of(TOP, CATEGORY)),
          new SqlTemplate("shop.city-quantity", 0, SHOP,
              "What was the total quantity ordered by customers from {city} in {year}?",
              "SELECT SUM(o.quantity)" + CITY_QUANTITY + "= '{city}' AND o.order_year = {year}",
              List.of(CITY, ORDER_YEAR)),
          new SqlTemplate("shop.city-quantity", 1, SHOP,
              "What was the average quantity ordered by customers from {city} in {year}?",
              "SELECT AVG(o.quantity)" + CITY_QUANTITY + "= '{city}' AND o.order_year = {year}",
              List.of(CITY, ORDER_YEAR)),
          new SqlTemplate("shop.city-quantity", 2, SHOP,
              "What was the total quantity ordered by customers outside {city} in {year}?",
              "SELECT SUM(o.quantity)" + CITY_QUANTITY + "<> '{city}' AND o.order_year = {year}",
              List.of(CITY, ORDER_YEAR)),
          new SqlTemplate("shop.category-revenue", 0, SHOP,
              "How much revenue did {category} products earn in {year}?", REVENUE + "= {year}",
              List.of(CATEGORY, ORDER_YEAR)),
          new SqlTemplate("shop.category-revenue", 1, SHOP,
              "How much revenue did {category} products earn before {year}?", REVENUE + "< {year}",
              List.of(CATEGORY, ORDER_YEAR)),
          new SqlTemplate("shop.category-revenue", 2, SHOP,
              "How much revenue did {category} products earn since {year}?", REVENUE + ">= {year}",
              List.of(CATEGORY, ORDER_YEAR)),
          // school
          new SqlTemplate("school.course-scores", 0, SCHOOL,
              "Which students scored above {score} in {course}?", SCORES + "> {score}", List.of(SCORE, COURSE)),
          new SqlTemplate("school.course-scores", 1, SCHOOL,
              "Which students scored below {score} in {course}?", SCORES + "< {score}", List.of(SCORE, COURSE)),
          new SqlTemplate("school.course-scores", 2, SCHOOL,
              "Which students scored at least {score} in {course}?", SCORES + ">= {score}", List.of(SCORE, COURSE)),
          new SqlTemplate("school.course-stats", 0, SCHOOL,
              "What was the average score in {course} in {year}?", "SELECT AVG(g.score)" + COURSE_YEAR + "= {year}",
              List.of(COURSE, TERM_YEAR)),
          new SqlTemplate("school.course-stats", 1, SCHOOL,
              "What was the highest score in {course} in {year}?", "SELECT MAX(g.score)" + COURSE_YEAR + "= {year}",
              List.of(COURSE, TERM_YEAR)),
          new SqlTemplate("school.course-stats", 2, SCHOOL,
              "What was the lowest score in {course} in {year}?", "SELECT MIN(g.score)" + COURSE_YEAR + "= {year}",
              List.of(COURSE, TERM_YEAR)),
          new SqlTemplate("school.enrolment", 0, SCHOOL,
              "How many students took {course} in {year}?", "SELECT COUNT(*)" + COURSE_YEAR + "= {year}",
              List.of(COURSE, TERM_YEAR)),
          new SqlTemplate("school.enrolment", 1, SCHOOL,
              "How many students took {course} after {year}?", "SELECT COUNT(*)" + COURSE_YEAR + "> {year}",
              List.of(COURSE, TERM_YEAR)),
          new SqlTemplate("school.enrolment", 2, SCHOOL,
              "How many students never took {course} in {year}?",
              "SELECT COUNT(*) FROM students s WHERE NOT EXISTS (SELECT g.student_id" + COURSE_YEAR
                  + "= {year} AND g.student_id = s.id)",
              List.of(COURSE, TERM_YEAR)),
          // hr
          new SqlTemplate("hr.salary-filter", 0, HR,
              "Which employees in {dept} earn more than {salary}?",
              "SELECT e.name" + EMPLOYEES + "d.name = '{dept}' AND e.salary > {salary}", List.of(DEPT, SALARY)),
          new SqlTemplate("hr.salary-filter", 1, HR,
              "Which employees outside {dept} earn more than {salary}?",
              "SELECT e.name" + EMPLOYEES + "d.name <> '{dept}' AND e.salary > {salary}", List.of(DEPT, SALARY)),
          new SqlTemplate("hr.salary-filter", 2, HR,
              "Which employees in {dept} earn less than {salary}?",
              "SELECT e.name" + EMPLOYEES + "d.name = '{dept}' AND e.salary < {salary}", List.of(DEPT, SALARY)),
          new SqlTemplate("hr.hiring", 0, HR,
              "How many employees in {dept} were hired before {year}?",
              "SELECT COUNT(*)" + EMPLOYEES + "d.name = '{dept}' AND e.hire_year < {year}", List.of(DEPT, HIRE_YEAR)),
          new SqlTemplate("hr.hiring", 1, HR,
              "How many employees in {dept} were hired after {year}?",
              "SELECT COUNT(*)" + EMPLOYEES + "d.name = '{dept}' AND e.hire_year > {year}", List.of(DEPT, HIRE_YEAR)),
          new SqlTemplate("hr.hiring", 2, HR,
              "How many employees in {dept} were hired in {year}?",
              "SELECT COUNT(*)" + EMPLOYEES + "d.name = '{dept}' AND e.hire_year = {year}", List.of(DEPT, HIRE_YEAR)),
          new SqlTemplate("hr.top-earners", 0, HR,
              "Name the {top} best paid employees in {dept}.",
              "SELECT e.name" + EMPLOYEES + "d.name = '{dept}' ORDER BY e.salary DESC, e.id LIMIT {top}",
              List.of(TOP, DEPT)),
          new SqlTemplate("hr.top-earners", 1, HR,
              "Name the {top} worst paid employees in {dept}.",
              "SELECT e.name" + EMPLOYEES + "d.name = '{dept}' ORDER BY e.salary ASC, e.id LIMIT {top}",
              List.of(TOP, DEPT)),
          new SqlTemplate("hr.top-earners", 2, HR,
              "Name the {top} newest employees in {dept}.",
              "SELECT e.name" + EMPLOYEES + "d.name = '{dept}' ORDER BY e.hire_year DESC, e.id LIMIT {top}",
              List.of(TOP, DEPT)),
          new SqlTemplate("hr.dept-payroll", 0, HR,
              "What is the total salary of {dept} employees hired since {year}?",
              "SELECT SUM(e.salary)" + EMPLOYEES + "d.name = '{dept}' AND e.hire_year >= {year}",
              List.of(DEPT, HIRE_YEAR)),
          new SqlTemplate("hr.dept-payroll", 1, HR,
              "What is the average salary of {dept} employees hired since {year}?",
              "SELECT AVG(e.salary)" + EMPLOYEES + "d.name = '{dept}' AND e.hire_year >= {year}",
              List.of(DEPT, HIRE_YEAR)),
          new SqlTemplate("hr.dept-payroll", 2, HR,
              "What is the highest salary of {dept} employees hired since {year}?",
              "SELECT MAX(e.salary)" + EMPLOYEES + "d.name = '{dept}' AND e.hire_year >= {year}",
              List.of(DEPT, HIRE_YEAR)));

  /**
   * The numbers a numeric slot takes in a stream ({@link SqlStream}): the training values and more, within the range
   * of the generated data (scores 40–100, salaries 3000–9900, hiring years 2008–2024, six products per category), so
   * that two thousand questions never asked before exist. Entity slots and the order and term years keep their
   * values: the data has no other cities or years.
   */
  static List<String> streamValues(Slot slot) {
    return STREAM_VALUES.getOrDefault(slot, slot.values());
  }

  private static final Map<Slot, List<String>> STREAM_VALUES = Map.of(
      ORDER_COUNT, range(2, 25, 1),
      TOP, range(2, 6, 1),
      SCORE, range(41, 99, 1),
      SALARY, range(3100, 9800, 100),
      HIRE_YEAR, range(2009, 2024, 1));

  /** The templates grouped by kind, kinds in catalogue order, variants in order. */
  static final Map<String, List<SqlTemplate>> BY_KIND = byKind();

  private static Map<String, List<SqlTemplate>> byKind() {
    Map<String, List<SqlTemplate>> out = new LinkedHashMap<>();
    for (SqlTemplate t : ALL) {
      out.computeIfAbsent(t.kind(), k -> new ArrayList<>()).add(t);
    }
    out.replaceAll((k, v) -> List.copyOf(v));
    for (List<SqlTemplate> variants : out.values()) {
      for (int i = 0; i < variants.size(); i++) {
        SqlTemplate t = variants.get(i);
        if (t.variant() != i || !t.slots().equals(variants.getFirst().slots())) {
          throw new IllegalStateException(
              t.id() + ": variants of a kind must be numbered 0.. in order and share their slots");
        }
      }
    }
    return Collections.unmodifiableMap(out);
  }
}
