package io.memloop.bench.sql;

import io.memloop.Memory;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.StreamKinds;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamTask;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * The stream of the SQL environment ({@link SqlEnvironment#stream}).
 *
 * <p>A kind is a template ({@code shop.order-count/v1}); an instance is that template with slot values no training
 * task, held-out task or earlier instance of the template used, drawn, like the training tasks, only among values
 * contested by the kind's variants (every variant returns an informative result, no two the same), from numeric
 * ranges wider than the training tasks' ({@link SqlTemplates#streamValues}). Each template gets as equal a share of
 * the stream as its values allow and recurs evenly from start to end ({@link StreamKinds}); the variants of a kind
 * stay each other's distractors, as in the epochs.
 *
 * <p>The drift: for the drifting templates (a share of the 33, seeded), the question now means the query of another
 * variant of its kind, chosen per template (the business rule changed: "more than" now counts "at least"). Since the
 * values are contested, a query that was right before the drift returns other rows after it; the frozen policy's
 * guesses ({@link SqlKnowledge}) still cover the new query, as they cover every variant's.
 *
 * <p>Immutable and thread-safe; shares the environment's database, so it is usable until the environment is closed.
 */
final class SqlStream implements StreamWorld {
  private final SqlEnvironment env;
  private final List<StreamTask> tasks;
  private final Map<String, SqlEnvironment.Hidden> hidden;
  private final int driftAt;

  private SqlStream(SqlEnvironment env, List<StreamTask> tasks, Map<String, SqlEnvironment.Hidden> hidden,
      int driftAt) {
    this.env = env;
    this.tasks = List.copyOf(tasks);
    this.hidden = Map.copyOf(hidden);
    this.driftAt = driftAt;
  }

  static SqlStream generate(SqlEnvironment env, long seed, StreamShape shape) {
    SplittableRandom rnd = new SplittableRandom(Seeds.derive(seed, "sql:stream"));
    Set<String> seen = env.taskIdsAndIntents();
    List<SqlTemplate> templates = SqlTemplates.ALL;
    Map<String, List<List<String>>> contestedByKind = new HashMap<>();
    List<List<List<String>>> unused = new ArrayList<>();
    for (SqlTemplate t : templates) {
      List<List<String>> contested = contestedByKind.computeIfAbsent(t.kind(), kind -> {
        List<SqlTemplate> variants = SqlTemplates.BY_KIND.get(kind);
        List<List<String>> all = SqlEnvironment.combinations(
            variants.getFirst().slots().stream().map(SqlTemplates::streamValues).toList());
        return all.stream().filter(v -> SqlEnvironment.contested(variants, env.database(), v)).toList();
      });
      List<List<String>> left = new ArrayList<>();
      for (List<String> values : SqlEnvironment.shuffled(contested, rnd)) {
        if (!seen.contains(t.id() + "/" + String.join(",", values)) && !seen.contains(t.question(values))) {
          left.add(values);
        }
      }
      unused.add(left);
    }
    int[] capacities = unused.stream().mapToInt(List::size).toArray();
    int[] quotas = StreamKinds.quotas(shape.length(), capacities);
    List<Integer> playing = new ArrayList<>();
    for (int k = 0; k < quotas.length; k++) {
      if (quotas[k] > 0) {
        playing.add(k);
      }
    }
    Map<Integer, SqlTemplate> newMeaning = new HashMap<>();
    for (int p : StreamKinds.drifting(playing.size(), shape.driftedShare(), rnd)) {
      SqlTemplate t = templates.get(playing.get(p));
      List<SqlTemplate> others = new ArrayList<>(SqlTemplates.BY_KIND.get(t.kind()));
      others.remove(t);
      newMeaning.put(playing.get(p), others.get(rnd.nextInt(others.size())));
    }
    int driftAt = shape.driftIndex();
    int[] next = new int[templates.size()];
    List<StreamTask> tasks = new ArrayList<>();
    Map<String, SqlEnvironment.Hidden> hidden = new HashMap<>();
    List<Integer> order = StreamKinds.order(quotas, rnd);
    for (int i = 0; i < order.size(); i++) {
      int k = order.get(i);
      SqlTemplate t = templates.get(k);
      List<String> values = unused.get(k).get(next[k]++);
      SqlTemplate meaning = i >= driftAt ? newMeaning.getOrDefault(k, t) : t;
      String sql = meaning.sql(values);
      List<String> rows = env.database().query(sql)
          .orElseThrow(() -> new IllegalStateException("gold query of " + meaning.id() + " fails: " + sql));
      Task task = new Task("sql-stream/" + i + "/" + t.id() + "/" + String.join(",", values), t.question(values));
      hidden.put(task.id(), new SqlEnvironment.Hidden(t, values, sql, rows));
      tasks.add(new StreamTask(task, t.id(), newMeaning.containsKey(k)));
    }
    return new SqlStream(env, tasks, hidden, driftAt);
  }

  @Override
  public List<StreamTask> tasks() {
    return tasks;
  }

  @Override
  public int driftAt() {
    return driftAt;
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return List.of();
  }

  /** As {@link SqlEnvironment#attempt}: the policy writes a query, the database checks its rows. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    SqlEnvironment.Hidden h = hiddenOf(task);
    String sql = env.policy().choose(task.intent(), shown, rnd);
    boolean success = env.correct(h, sql);
    return new Episode(task, success, success ? 1 : -1,
        success ? SqlPolicy.successExperience(task.intent(), sql) : SqlPolicy.failureExperience(task.intent(), sql));
  }

  /** Whether the policy, shown {@code memory} alone, adapts it into a query with the instance's gold rows. */
  @Override
  public boolean helps(Task task, Memory memory) {
    SqlEnvironment.Hidden h = hiddenOf(task);
    Optional<String> sql = env.policy().adapt(task.intent(), List.of(memory), new HashSet<>());
    return sql.isPresent() && env.correct(h, sql.get());
  }

  /** The query that answers an instance in its world (after the drift, another variant's for a drifting kind). */
  String goldSqlOf(Task task) {
    return hiddenOf(task).goldSql();
  }

  private SqlEnvironment.Hidden hiddenOf(Task task) {
    SqlEnvironment.Hidden h = hidden.get(task.id());
    if (h == null || !h.template().question(h.values()).equals(task.intent())) {
      throw new IllegalArgumentException(
          "task " + task.id() + " is not one of the " + hidden.size() + " instances of this " + SqlEnvironment.NAME
              + " stream");
    }
    return h;
  }
}
