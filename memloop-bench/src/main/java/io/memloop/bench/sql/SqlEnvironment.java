package io.memloop.bench.sql;

import io.memloop.Memory;
import io.memloop.bench.Environment;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.StreamShape;
import io.memloop.bench.StreamSource;
import io.memloop.bench.StreamWorld;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.LlmPrompts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

/**
 * SQL on a real embedded database: single-step question → query tasks, like BigCodeBench or the
 * database split of Lifelong Agent Bench (the MemRL paper's benchmarks), verified by running the
 * policy's query on H2 and comparing its rows with the gold query's.
 *
 * <p>A task is a {@link SqlTemplate} with its slots filled ("Which customers from Lyon placed more
 * than 8 orders?"). Tasks of one template recur with other literals, so a success case of one is
 * the right experience for the others once its literals are substituted. Each template has two
 * variants of near-identical wording and other semantics; their cases align just as well and give
 * the wrong rows. Every task, trained or held out, is drawn only among slot values for which all
 * variants of its kind return non-empty, pairwise different results: a case of another variant
 * never passes by luck, and a case of the same template always does (the query rewrites to the
 * gold query exactly).
 *
 * <p>Distractor tasks are twins where possible: the same literals as a base task, in another
 * variant, so the most similar intent in memory is often exactly the misleading one.
 *
 * <p>Results are compared in order when the gold query has {@code ORDER BY} (a "top 3" is a ranked
 * list), as multisets otherwise. Gold queries order totally, so the comparison is deterministic.
 *
 * <p>Immutable after construction and thread-safe; {@link #close()} drops the database. The same
 * seed gives the same rows, tasks, order and gold results.
 */
public final class SqlEnvironment implements Environment, GroundTruth, StreamSource, AutoCloseable {
  public static final String NAME = "sql";
  /** Default chance that the policy ignores the cases shown and writes a query from scratch. */
  public static final double DEFAULT_SLIP = 0.05;
  /** Most tasks (training plus held-out) one environment can have; the catalogue admits more. */
  static final int MAX_TASKS = 240;

  /**
   * Size and difficulty.
   *
   * @param tasks training tasks, each recurring every epoch
   * @param distractorShare fraction of training tasks drawn from the distractor variants (1 and 2)
   *     rather than the base variant 0, rounded to whole tasks; 0 leaves one template per kind
   * @param heldOut tasks for transfer, of templates that have training tasks, with literals no
   *     training task of their kind uses
   * @param slipProbability chance that the policy ignores the cases shown
   */
  public record Knobs(int tasks, double distractorShare, int heldOut, double slipProbability) {
    public Knobs {
      if (tasks < 1 || heldOut < 0 || tasks + heldOut > MAX_TASKS) {
        throw new IllegalArgumentException(
            "tasks must be >= 1 and heldOut >= 0 with tasks + heldOut <= " + MAX_TASKS + ", got tasks=" + tasks
                + " heldOut=" + heldOut);
      }
      if (!(distractorShare >= 0 && distractorShare <= 1)) {
        throw new IllegalArgumentException("distractorShare must be in [0, 1], got " + distractorShare);
      }
      if (!(slipProbability >= 0 && slipProbability < 1)) {
        throw new IllegalArgumentException("slipProbability must be in [0, 1), got " + slipProbability);
      }
    }

    /** 60 training tasks, 40 % distractors, 20 held out, 5 % slips. */
    static Knobs defaults() {
      return new Knobs(60, 0.4, 20, DEFAULT_SLIP);
    }
  }

  /** What only the environment knows of a task. */
  record Hidden(SqlTemplate template, List<String> values, String goldSql, List<String> goldRows) {
    boolean ordered() {
      return goldSql.contains("ORDER BY");
    }

    boolean matches(List<String> rows) {
      if (ordered()) {
        return rows.equals(goldRows);
      }
      List<String> a = new ArrayList<>(rows);
      List<String> b = new ArrayList<>(goldRows);
      Collections.sort(a);
      Collections.sort(b);
      return a.equals(b);
    }
  }

  private final Knobs knobs;
  private final SqlDatabase db;
  private final List<Task> tasks;
  private final List<Task> heldOut;
  private final Map<String, Hidden> hidden;
  private final SqlPolicy policy;

  private SqlEnvironment(
      Knobs knobs, SqlDatabase db, List<Task> tasks, List<Task> heldOut, Map<String, Hidden> hidden) {
    this.knobs = knobs;
    this.db = db;
    this.tasks = List.copyOf(tasks);
    this.heldOut = List.copyOf(heldOut);
    this.hidden = Map.copyOf(hidden);
    this.policy = new SqlPolicy(knobs.slipProbability());
  }

  /**
   * A fresh database and task set from {@code seed}. Base tasks go round-robin over the kinds in a
   * seeded order; the r-th distractor round of a kind uses variant 1 for r = 0, 1, variant 2 for
   * r = 2, 3, and so on, twinned with the kind's r-th base task when there is one. Held-out tasks go
   * round-robin over the templates of the training list. The caller closes the environment.
   *
   * @throws IllegalStateException when a kind runs out of slot values (too many tasks for it)
   */
  public static SqlEnvironment generate(long seed, Knobs knobs) {
    SqlDatabase db = SqlDatabase.create(seed);
    try {
      return generate(seed, knobs, db);
    } catch (RuntimeException e) {
      db.close();
      throw e;
    }
  }

  private static SqlEnvironment generate(long seed, Knobs knobs, SqlDatabase db) {
    SplittableRandom rnd = new SplittableRandom(Seeds.derive(seed, "sql:tasks"));
    List<String> kinds = shuffled(new ArrayList<>(SqlTemplates.BY_KIND.keySet()), rnd);
    Map<String, SlotSource> sources = new HashMap<>();
    for (String kind : kinds) {
      sources.put(kind, new SlotSource(SqlTemplates.BY_KIND.get(kind), db, rnd));
    }
    int distractors = (int) Math.round(knobs.distractorShare() * knobs.tasks());
    int bases = knobs.tasks() - distractors;
    Map<String, List<List<String>>> baseValues = new HashMap<>();
    List<Task> tasks = new ArrayList<>();
    Map<String, Hidden> hidden = new HashMap<>();
    for (int i = 0; i < bases; i++) {
      String kind = kinds.get(i % kinds.size());
      List<String> values = sources.get(kind).next();
      baseValues.computeIfAbsent(kind, k -> new ArrayList<>()).add(values);
      tasks.add(task(SqlTemplates.BY_KIND.get(kind).getFirst(), values, db, hidden));
    }
    for (int j = 0; j < distractors; j++) {
      String kind = kinds.get(j % kinds.size());
      int round = j / kinds.size();
      List<SqlTemplate> variants = SqlTemplates.BY_KIND.get(kind);
      SqlTemplate template = variants.get(1 + (round / 2) % (variants.size() - 1));
      List<List<String>> twins = baseValues.getOrDefault(kind, List.of());
      List<String> values = round < twins.size() ? twins.get(round) : sources.get(kind).next();
      tasks.add(task(template, values, db, hidden));
    }
    Set<SqlTemplate> trained = new LinkedHashSet<>();
    for (Task t : tasks) {
      trained.add(hidden.get(t.id()).template());
    }
    List<SqlTemplate> heldOutTemplates = shuffled(new ArrayList<>(trained), rnd);
    List<Task> heldOut = new ArrayList<>();
    for (int h = 0; h < knobs.heldOut(); h++) {
      SqlTemplate template = heldOutTemplates.get(h % heldOutTemplates.size());
      heldOut.add(task(template, sources.get(template.kind()).next(), db, hidden));
    }
    return new SqlEnvironment(knobs, db, shuffled(tasks, rnd), heldOut, hidden);
  }

  private static Task task(SqlTemplate template, List<String> values, SqlDatabase db, Map<String, Hidden> hidden) {
    String sql = template.sql(values);
    List<String> rows =
        db.query(sql).orElseThrow(() -> new IllegalStateException("gold query of " + template.id() + " fails: " + sql));
    Task task = new Task(template.id() + "/" + String.join(",", values), template.question(values));
    if (hidden.put(task.id(), new Hidden(template, values, sql, rows)) != null) {
      throw new AssertionError("task generated twice: " + task.id());
    }
    return task;
  }

  /**
   * Unused slot values of one kind, in seeded order, keeping only contested ones: every variant's
   * gold query returns an informative result (rows, not a lone NULL or 0) and no two variants return
   * the same.
   */
  private static final class SlotSource {
    private final List<SqlTemplate> variants;
    private final SqlDatabase db;
    private final List<List<String>> order;
    private int next;

    SlotSource(List<SqlTemplate> variants, SqlDatabase db, RandomGenerator rnd) {
      this.variants = variants;
      this.db = db;
      this.order = shuffled(combinations(variants.getFirst().slots().stream().map(SqlTemplate.Slot::values).toList()),
          rnd);
    }

    List<String> next() {
      while (next < order.size()) {
        List<String> values = order.get(next++);
        if (contested(values)) {
          return values;
        }
      }
      throw new IllegalStateException(
          "kind " + variants.getFirst().kind() + " ran out of slot values after " + order.size()
              + " combinations; ask for fewer tasks");
    }

    private boolean contested(List<String> values) {
      return SqlEnvironment.contested(variants, db, values);
    }
  }

  /** Every combination of one value per slot, the first slot varying slowest. */
  static List<List<String>> combinations(List<List<String>> slotValues) {
    List<List<String>> all = new ArrayList<>();
    all.add(List.of());
    for (List<String> slot : slotValues) {
      List<List<String>> longer = new ArrayList<>();
      for (List<String> prefix : all) {
        for (String v : slot) {
          List<String> values = new ArrayList<>(prefix);
          values.add(v);
          longer.add(List.copyOf(values));
        }
      }
      all = longer;
    }
    return all;
  }

  /**
   * Whether slot values {@code values} are contested among a kind's {@code variants}: every variant's gold query
   * returns an informative result (rows, not a lone NULL or 0) and no two variants return the same.
   */
  static boolean contested(List<SqlTemplate> variants, SqlDatabase db, List<String> values) {
    Set<List<String>> results = new HashSet<>();
    for (SqlTemplate t : variants) {
      String sql = t.sql(values);
      List<String> rows = db.query(sql).orElseThrow(() -> new IllegalStateException("gold query fails: " + sql));
      List<String> key = sql.contains("ORDER BY") ? rows : rows.stream().sorted().toList();
      boolean informative = !rows.isEmpty() && !(rows.size() == 1 && (rows.getFirst().equals("NULL")
          || rows.getFirst().equals("0")));
      if (!informative || !results.add(key)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Task> tasks() {
    return tasks;
  }

  @Override
  public List<Task> heldOut() {
    return heldOut;
  }

  @Override
  public List<PriorExperience> priorExperiences() {
    return List.of();
  }

  Knobs knobs() {
    return knobs;
  }

  /**
   * A stream of questions never asked before: a kind is a template (33), an instance the template with literals no
   * training or held-out task of it uses, from wider numeric ranges ({@link SqlTemplates#streamValues}); at the
   * drift a third of the templates change meaning to another variant's query of their kind ("more than" now counts
   * "at least": the business rule changed). See {@link SqlStream}. The stream shares this environment's database:
   * close the environment after the stream's last use.
   */
  @Override
  public StreamWorld stream(long seed, StreamShape shape) {
    return SqlStream.generate(this, seed, shape);
  }

  /** The ids and intents of every training and held-out task. */
  Set<String> taskIdsAndIntents() {
    Set<String> out = new HashSet<>();
    hidden.forEach((id, h) -> {
      out.add(id);
      out.add(h.template().question(h.values()));
    });
    return out;
  }

  /** The policy writes a query; the database runs it; reward +1 when its rows are the gold rows, else −1. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
    Hidden h = hiddenOf(task);
    String sql = policy.choose(task.intent(), shown, rnd);
    boolean success = correct(h, sql);
    return new Episode(
        task,
        success,
        success ? 1 : -1,
        success ? SqlPolicy.successExperience(task.intent(), sql) : SqlPolicy.failureExperience(task.intent(), sql));
  }

  public static final String LLM_SYSTEM = "You write SQL for an H2 database to answer questions about its data. Tables:\n"
      + String.join(";\n", Arrays.stream(SqlSchema.values()).flatMap(s -> s.ddl().stream()).toList())
      + ";\n\nEarlier experiences record questions with the query that answered them correctly or wrongly."
      + " Questions that read almost the same may mean something else (a negation, another ordering, another"
      + " aggregate): check before reusing a query, and substitute the question's own names and numbers."
      + " Reply with one SELECT query in a ```sql code block and nothing else.";

  /** The model writes the query; the database runs it and compares rows, as for the frozen policy. */
  @Override
  public Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd) {
    Hidden h = hiddenOf(task);
    String prompt = "Question: " + task.intent() + "\n\n" + LlmPrompts.experiences(shown) + "\n\nWrite the query.";
    return LlmPrompts.decide(llm, rnd, LLM_SYSTEM, prompt, SqlEnvironment::readQuery)
        .episode(task, sql -> correct(h, sql), SqlPolicy::successExperience, SqlPolicy::failureExperience,
            SqlPolicy.QUESTION + task.intent() + "\nNo query was written (the reply held no SELECT query).");
  }

  /** One read-only statement from a reply: a fenced block or the whole text, without a trailing semicolon. */
  static LlmPolicy.Parsed<String> readQuery(String reply) {
    // Line comments go before whitespace is collapsed, or they would swallow the rest of the query.
    String sql = LlmPrompts.codeOrWhole(reply).replaceAll("--[^\\n]*", "").strip();
    while (sql.endsWith(";")) {
      sql = sql.substring(0, sql.length() - 1).strip();
    }
    if (sql.isEmpty()) {
      return LlmPolicy.Parsed.wrong("it holds no query.");
    }
    if (sql.contains(";")) {
      return LlmPolicy.Parsed.wrong("it holds more than one statement; write a single SELECT query.");
    }
    String head = sql.split("\\s+", 2)[0].toUpperCase(Locale.ROOT);
    if (!head.equals("SELECT") && !head.equals("WITH")) {
      return LlmPolicy.Parsed.wrong("it is not a SELECT query (it should start with SELECT or WITH).");
    }
    return LlmPolicy.Parsed.of(SqlPolicy.normalized(sql));
  }

  /** Whether the policy, shown {@code memory} alone, adapts it into a query with the gold rows. */
  @Override
  public boolean helps(Task task, Memory memory) {
    Hidden h = hiddenOf(task);
    Optional<String> sql = policy.adapt(task.intent(), List.of(memory), new HashSet<>());
    return sql.isPresent() && correct(h, sql.get());
  }

  boolean correct(Hidden h, String sql) {
    return db.query(sql).map(h::matches).orElse(false);
  }

  private Hidden hiddenOf(Task task) {
    Hidden h = hidden.get(task.id());
    if (h == null || !h.template().question(h.values()).equals(task.intent())) {
      throw new IllegalArgumentException(
          "task " + task.id() + " is not one of " + NAME + "'s " + hidden.size() + " tasks (training and held-out)");
    }
    return h;
  }

  /** The template a task was generated from, for tests and analyses; never shown to a strategy. */
  SqlTemplate templateOf(Task task) {
    return hiddenOf(task).template();
  }

  /** The gold query of a task. */
  String goldSqlOf(Task task) {
    return hiddenOf(task).goldSql();
  }

  /** The gold rows of a task, normalised as compared. */
  List<String> goldRowsOf(Task task) {
    return hiddenOf(task).goldRows();
  }

  /** Whether {@code sql} answers {@code task}: runs it and compares with the gold rows. */
  boolean answers(Task task, String sql) {
    return correct(hiddenOf(task), sql);
  }

  SqlPolicy policy() {
    return policy;
  }

  SqlDatabase database() {
    return db;
  }

  @Override
  public void close() {
    db.close();
  }

  static <T> List<T> shuffled(List<T> list, RandomGenerator rnd) {
    List<T> copy = new ArrayList<>(list);
    Collections.shuffle(copy, rnd);
    return copy;
  }
}
