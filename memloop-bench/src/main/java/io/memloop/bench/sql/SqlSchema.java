package io.memloop.bench.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.random.RandomGenerator;

/**
 * The generated databases of the SQL environment: a shop, a school and an HR department, each a few
 * tables filled with seeded rows. The rows are what makes the questions non-trivial: answers depend
 * on the data, so a query with the wrong semantics usually returns a different result (the
 * environment only keeps questions for which it does, see {@link SqlEnvironment}).
 *
 * <p>Entity names are single capitalised words and every other word of a question is lower case,
 * which is how the frozen policy tells literals from wording ({@link SqlAlignment}).
 */
enum SqlSchema {
  SHOP(Set.of("customers", "products", "orders", "ordered", "revenue"),
      List.of(
          "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, city VARCHAR(40) NOT NULL)",
          "CREATE TABLE products (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, category VARCHAR(40) NOT NULL,"
              + " price INT NOT NULL)",
          "CREATE TABLE orders (id INT PRIMARY KEY, customer_id INT NOT NULL REFERENCES customers(id),"
              + " product_id INT NOT NULL REFERENCES products(id), quantity INT NOT NULL, order_year INT NOT NULL)")) {
    @Override
    void populate(Connection c, RandomGenerator rnd) throws SQLException {
      execute(c, ddl());
      int customers = 48;
      int[] weight = new int[customers + 1];
      int totalWeight = 0;
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO customers VALUES (?, ?, ?)")) {
        for (int id = 1; id <= customers; id++) {
          // Half round-robin so that every city has customers, half at random so that cities differ.
          String city = id <= customers / 2 ? CITIES.get((id - 1) % CITIES.size()) : pick(CITIES, rnd);
          weight[id] = 1 + rnd.nextInt(4); // how active the customer is: order counts spread out
          totalWeight += weight[id];
          ps.setInt(1, id);
          ps.setString(2, String.format("customer-%02d", id));
          ps.setString(3, city);
          ps.addBatch();
        }
        ps.executeBatch();
      }
      int products = CATEGORIES.size() * 6;
      List<Integer> prices = distinct(5, 240, products, rnd); // distinct prices: "most expensive" has no ties
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO products VALUES (?, ?, ?, ?)")) {
        for (int id = 1; id <= products; id++) {
          ps.setInt(1, id);
          ps.setString(2, String.format("product-%02d", id));
          ps.setString(3, CATEGORIES.get((id - 1) % CATEGORIES.size()));
          ps.setInt(4, prices.get(id - 1));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?)")) {
        for (int id = 1; id <= 520; id++) {
          ps.setInt(1, id);
          ps.setInt(2, weighted(weight, totalWeight, rnd));
          ps.setInt(3, 1 + rnd.nextInt(products));
          ps.setInt(4, 1 + rnd.nextInt(9));
          ps.setInt(5, 2020 + rnd.nextInt(5));
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
  },

  SCHOOL(Set.of("students", "scored", "score", "took"),
      List.of(
          "CREATE TABLE students (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL)",
          "CREATE TABLE courses (id INT PRIMARY KEY, title VARCHAR(40) NOT NULL UNIQUE)",
          "CREATE TABLE grades (student_id INT NOT NULL REFERENCES students(id),"
              + " course_id INT NOT NULL REFERENCES courses(id), score INT NOT NULL, term_year INT NOT NULL,"
              + " PRIMARY KEY (student_id, course_id))")) {
    @Override
    void populate(Connection c, RandomGenerator rnd) throws SQLException {
      execute(c, ddl());
      int students = 60;
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO students VALUES (?, ?)")) {
        for (int id = 1; id <= students; id++) {
          ps.setInt(1, id);
          ps.setString(2, String.format("student-%02d", id));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO courses VALUES (?, ?)")) {
        for (int id = 1; id <= COURSES.size(); id++) {
          ps.setInt(1, id);
          ps.setString(2, COURSES.get(id - 1));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO grades VALUES (?, ?, ?, ?)")) {
        for (int s = 1; s <= students; s++) {
          for (int course = 1; course <= COURSES.size(); course++) {
            if (rnd.nextDouble() < 0.55) {
              ps.setInt(1, s);
              ps.setInt(2, course);
              ps.setInt(3, 40 + rnd.nextInt(61));
              ps.setInt(4, 2020 + rnd.nextInt(5));
              ps.addBatch();
            }
          }
        }
        ps.executeBatch();
      }
    }
  },

  HR(Set.of("employees", "earn", "paid", "salary", "hired"),
      List.of(
          "CREATE TABLE departments (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL UNIQUE)",
          "CREATE TABLE employees (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL,"
              + " department_id INT NOT NULL REFERENCES departments(id), salary INT NOT NULL, hire_year INT NOT NULL)")) {
    @Override
    void populate(Connection c, RandomGenerator rnd) throws SQLException {
      execute(c, ddl());
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO departments VALUES (?, ?)")) {
        for (int id = 1; id <= DEPARTMENTS.size(); id++) {
          ps.setInt(1, id);
          ps.setString(2, DEPARTMENTS.get(id - 1));
          ps.addBatch();
        }
        ps.executeBatch();
      }
      try (PreparedStatement ps = c.prepareStatement("INSERT INTO employees VALUES (?, ?, ?, ?, ?)")) {
        for (int id = 1; id <= 84; id++) {
          ps.setInt(1, id);
          ps.setString(2, String.format("employee-%02d", id));
          ps.setInt(3, id <= 36 ? 1 + (id - 1) % DEPARTMENTS.size() : 1 + rnd.nextInt(DEPARTMENTS.size()));
          ps.setInt(4, 3000 + 100 * rnd.nextInt(70));
          ps.setInt(5, 2008 + rnd.nextInt(17));
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }
  };

  static final List<String> CITIES = List.of("Lyon", "Oslo", "Porto", "Turin", "Dublin", "Ghent", "Bergen", "Krakow");
  static final List<String> CATEGORIES = List.of("Books", "Garden", "Toys", "Music", "Sports", "Kitchen");
  static final List<String> COURSES =
      List.of("Algebra", "Biology", "Chemistry", "Databases", "Economics", "Geology", "History", "Poetry");
  static final List<String> DEPARTMENTS = List.of("Sales", "Research", "Support", "Finance", "Legal", "Marketing");

  private final Set<String> keywords;
  private final List<String> ddl;

  SqlSchema(Set<String> keywords, List<String> ddl) {
    this.keywords = keywords;
    this.ddl = ddl;
  }

  /** The {@code CREATE TABLE} statements of this schema's tables, as run on the database. */
  List<String> ddl() {
    return ddl;
  }

  /**
   * Lower-case words by which a question points at this schema's tables; the frozen policy's only
   * clue, without a usable case, to which queries could answer it.
   */
  Set<String> keywords() {
    return keywords;
  }

  /** Creates this schema's tables on {@code c} and fills them from {@code rnd}. */
  abstract void populate(Connection c, RandomGenerator rnd) throws SQLException;

  private static void execute(Connection c, List<String> ddl) throws SQLException {
    try (Statement st = c.createStatement()) {
      for (String sql : ddl) {
        st.execute(sql);
      }
    }
  }

  private static String pick(List<String> values, RandomGenerator rnd) {
    return values.get(rnd.nextInt(values.size()));
  }

  /** {@code n} distinct integers from {@code [from, to]}, in random order. */
  private static List<Integer> distinct(int from, int to, int n, RandomGenerator rnd) {
    List<Integer> all = new ArrayList<>(to - from + 1);
    for (int v = from; v <= to; v++) {
      all.add(v);
    }
    Collections.shuffle(all, rnd);
    return all.subList(0, n);
  }

  /** An id in {@code [1, weight.length)} drawn with probability proportional to its weight. */
  private static int weighted(int[] weight, int total, RandomGenerator rnd) {
    int r = rnd.nextInt(total);
    for (int id = 1; id < weight.length; id++) {
      r -= weight[id];
      if (r < 0) {
        return id;
      }
    }
    throw new AssertionError("r=" + r + " past total=" + total);
  }
}
