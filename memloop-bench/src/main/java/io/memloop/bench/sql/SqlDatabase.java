package io.memloop.bench.sql;

import io.memloop.bench.Seeds;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The SQL environment's database: one in-memory H2 database holding every {@link SqlSchema}, filled
 * from a seed, read-only once built.
 *
 * <p>Queries run as a user that may only {@code SELECT}, each on its own connection, so a query
 * taken from an experience text can neither change the data nor see another thread's state.
 * Because the data never changes, a query's result is a pure function of its text and is cached:
 * a run repeats the same few hundred queries thousands of times.
 *
 * <p>Thread-safe. {@link #close()} drops the database; queries after it throw.
 */
final class SqlDatabase implements AutoCloseable {
  /** Result rows kept at most; larger results are truncated, which no gold result comes near. */
  static final int MAX_ROWS = 10_000;
  /** Entries the result cache holds at most; past it, results are computed but not cached. */
  static final int MAX_CACHED = 100_000;

  private static final AtomicLong INSTANCES = new AtomicLong();
  private static final String READER = "MEMLOOP_READER";
  private static final String READER_PASSWORD = "reader";
  private static final int QUERY_TIMEOUT_SECONDS = 10;
  /** Separates the values of a row; never part of a value. */
  private static final String COLUMN_SEPARATOR = "\u001f";

  private final String name;
  private final Connection admin;
  private final ConcurrentHashMap<String, Optional<List<String>>> cache = new ConcurrentHashMap<>();
  private volatile boolean closed;

  private SqlDatabase(String name, Connection admin) {
    this.name = name;
    this.admin = admin;
  }

  /** A fresh database under a unique name, filled from {@code seed}: same seed, same rows. */
  static SqlDatabase create(long seed) {
    String name = "memloop-sql-" + Long.toHexString(seed) + "-" + INSTANCES.incrementAndGet();
    Connection admin = null;
    try {
      // DB_CLOSE_DELAY=-1 keeps the database when the last connection closes, until close() shuts it down.
      admin = DriverManager.getConnection("jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "");
      for (SqlSchema schema : SqlSchema.values()) {
        schema.populate(admin, new SplittableRandom(Seeds.derive(seed, "sql:data:" + schema.name())));
      }
      try (Statement st = admin.createStatement()) {
        st.execute("CREATE USER " + READER + " PASSWORD '" + READER_PASSWORD + "'");
        st.execute("GRANT SELECT ON SCHEMA PUBLIC TO " + READER);
      }
      return new SqlDatabase(name, admin);
    } catch (SQLException e) {
      if (admin != null) {
        try {
          admin.close();
        } catch (SQLException suppressed) {
          e.addSuppressed(suppressed);
        }
      }
      throw new IllegalStateException("could not create the H2 database " + name + " for seed " + seed, e);
    }
  }

  String name() {
    return name;
  }

  /**
   * The rows {@code sql} returns, each row's values normalised and joined; empty when the query
   * fails (a syntax error, a write the reader may not do, a timeout): for the policy that is a wrong
   * answer, not a harness error.
   */
  Optional<List<String>> query(String sql) {
    String key = sql.strip();
    Optional<List<String>> cached = cache.get(key);
    if (cached != null) {
      return cached;
    }
    Optional<List<String>> result = run(key);
    if (cache.size() < MAX_CACHED) {
      cache.putIfAbsent(key, result);
    }
    return result;
  }

  private Optional<List<String>> run(String sql) {
    checkOpen();
    // IFEXISTS: a reader connecting after close() must fail, not create an empty database.
    String url = "jdbc:h2:mem:" + name + ";IFEXISTS=TRUE";
    try (Connection c = DriverManager.getConnection(url, READER, READER_PASSWORD);
        Statement st = c.createStatement()) {
      c.setReadOnly(true);
      st.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
      st.setMaxRows(MAX_ROWS);
      if (!st.execute(sql)) {
        return Optional.empty(); // an update count: not an answer to a question
      }
      try (ResultSet rs = st.getResultSet()) {
        ResultSetMetaData meta = rs.getMetaData();
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
          StringBuilder row = new StringBuilder();
          for (int col = 1; col <= meta.getColumnCount(); col++) {
            if (col > 1) {
              row.append(COLUMN_SEPARATOR);
            }
            row.append(normalize(rs.getObject(col)));
          }
          rows.add(row.toString());
        }
        return Optional.of(List.copyOf(rows));
      }
    } catch (SQLException e) {
      checkOpen(); // a query failing because the database was closed under it is the caller's error
      return Optional.empty();
    }
  }

  /**
   * A value as compared between results: numbers at 6 decimals without trailing zeros (so COUNT's
   * {@code 3}, SUM's {@code 3} and AVG's {@code 3.0} agree), NULL as {@code NULL}, the rest as text.
   */
  static String normalize(Object value) {
    if (value == null) {
      return "NULL";
    }
    if (value instanceof Number n && !(value instanceof Double x && !Double.isFinite(x))
        && !(value instanceof Float f && !Float.isFinite(f))) {
      BigDecimal d = n instanceof BigDecimal b ? b : new BigDecimal(n.toString());
      return d.setScale(6, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
    return value.toString();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the SQL environment's database " + name + " is closed");
    }
  }

  /** Shuts the database down and frees its memory; idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    cache.clear();
    try (Statement st = admin.createStatement()) {
      st.execute("SHUTDOWN");
    } catch (SQLException e) {
      throw new IllegalStateException("could not shut down the H2 database " + name, e);
    } finally {
      try {
        admin.close();
      } catch (SQLException ignored) {
        // already shut down: nothing left to release
      }
    }
  }
}
