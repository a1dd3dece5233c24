package io.memloop.bench.sql;

import io.memloop.bench.Environment;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.IntentEmbeddings;
import io.memloop.bench.LearningCurve;
import io.memloop.bench.LearningLoop;
import io.memloop.bench.Metrics;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.Memory;
import io.memloop.Preset;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.MiniLmEmbedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.random.RandomGenerator;

/**
 * Not a test: runs the learning loop on the {@link SqlEnvironment} for no memory, the similarity
 * preset and the MemRL preset over seeds 1..N, and prints per-epoch accuracies, transfer to the
 * held-out tasks with frozen memory, and which case the policy adapted (same template, a distractor
 * variant, or none), to see whether the distractors fool the ranking. Also runs MemP and the
 * oracle (ground-truth retriever, the ceiling) for reference.
 *
 * <pre>
 * ./mvnw -q -o -pl memloop-bench -am test-compile
 * ./mvnw -q -o -pl memloop-bench dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp "$(cat /tmp/cp.txt):memloop-bench/target/classes:memloop-bench/target/test-classes" \
 *     io.memloop.bench.sql.SqlLearningMain [seeds=3] [hashing|minilm|both] [tasks=60] [distractorShare=0.4]
 * </pre>
 */
final class SqlLearningMain {
  private SqlLearningMain() {}

  private static final int EPOCHS = 10;

  enum Used {
    SAME_TEMPLATE,
    DISTRACTOR,
    NONE
  }

  /** Delegates to the environment and tallies, per strategy, which case the policy used and how it went. */
  private static final class Recording implements Environment, GroundTruth {
    private final SqlEnvironment env;
    private final Map<String, SqlTemplate> templateByIntent = new HashMap<>();
    private final Map<String, int[]> tally = new LinkedHashMap<>(); // strategy/used -> {attempts, successes}
    private String strategy = "";

    Recording(SqlEnvironment env) {
      this.env = env;
      env.tasks().forEach(t -> templateByIntent.put(t.intent(), env.templateOf(t)));
      env.heldOut().forEach(t -> templateByIntent.put(t.intent(), env.templateOf(t)));
    }

    @Override
    public String name() {
      return env.name();
    }

    @Override
    public List<Task> tasks() {
      return env.tasks();
    }

    @Override
    public List<Task> heldOut() {
      return env.heldOut();
    }

    @Override
    public List<PriorExperience> priorExperiences() {
      return env.priorExperiences();
    }

    @Override
    public Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd) {
      return env.attempt(task, shown, llm, rnd);
    }

    @Override
    public boolean helps(Task task, Memory memory) {
      return env.helps(task, memory);
    }

    @Override
    public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
      Episode e = env.attempt(task, shown, rnd);
      Optional<SqlPolicy.Adapted> used = env.policy().caseUsed(task.intent(), shown, new HashSet<>());
      Used kind = Used.NONE;
      if (used.isPresent()) {
        SqlTemplate source = templateByIntent.get(used.get().source().question());
        kind = source.equals(env.templateOf(task)) ? Used.SAME_TEMPLATE : Used.DISTRACTOR;
      }
      int[] t = tally.computeIfAbsent(strategy + "/" + kind, k -> new int[2]);
      t[0]++;
      t[1] += e.success() ? 1 : 0;
      return e;
    }
  }

  public static void main(String[] args) {
    int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    String which = args.length > 1 ? args[1] : "hashing";
    int tasks = args.length > 2 ? Integer.parseInt(args[2]) : 60;
    double share = args.length > 3 ? Double.parseDouble(args[3]) : 0.4;
    SqlEnvironment.Knobs knobs = new SqlEnvironment.Knobs(tasks, share, tasks / 3, SqlEnvironment.DEFAULT_SLIP);
    if (which.equals("hashing") || which.equals("both")) {
      run(new HashingEmbedder(64), seeds, knobs);
    }
    if (which.equals("minilm") || which.equals("both")) {
      long start = System.nanoTime();
      try (MiniLmEmbedder model = MiniLmEmbedder.create()) {
        System.out.printf("MiniLM loaded in %d ms%n", (System.nanoTime() - start) / 1_000_000);
        run(model, seeds, knobs);
      }
    }
  }

  private static void run(Embedder embedder, int seeds, SqlEnvironment.Knobs knobs) {
    long start = System.nanoTime();
    Map<String, List<LearningCurve>> curves = new LinkedHashMap<>();
    Map<String, int[]> tally = new LinkedHashMap<>();
    Map<String, double[]> cosines = new LinkedHashMap<>();
    for (long seed = 1; seed <= seeds; seed++) {
      try (SqlEnvironment env = SqlEnvironment.generate(seed, knobs)) {
        IntentEmbeddings embeddings = IntentEmbeddings.of(embedder, env);
        cosines(env, embeddings, cosines);
        Recording recording = new Recording(env);
        LearningLoop loop = new LearningLoop(recording, embeddings, EPOCHS);
        List<Strategy> strategies =
            List.of(Strategy.noMemory(), Strategy.preset(Preset.SIMILARITY), Strategy.preset(Preset.MEMRL),
                Strategy.memp(), Strategy.oracle(env));
        for (Strategy s : strategies) {
          recording.strategy = s.name();
          curves.computeIfAbsent(s.name(), k -> new ArrayList<>()).add(Metrics.curve(loop.run(s, seed)));
        }
        recording.tally.forEach((k, v) -> {
          int[] t = tally.computeIfAbsent(k, x -> new int[2]);
          t[0] += v[0];
          t[1] += v[1];
        });
      }
    }
    System.out.printf("%n== %s; sql tasks=%d distractorShare=%.2f heldOut=%d slip=%.2f; %d epochs; seeds 1..%d ==%n",
        embedder.modelId(), knobs.tasks(), knobs.distractorShare(), knobs.heldOut(), knobs.slipProbability(), EPOCHS,
        seeds);
    System.out.println("epoch accuracy, mean over seeds (per-seed last epoch in brackets)");
    for (Map.Entry<String, List<LearningCurve>> e : curves.entrySet()) {
      List<LearningCurve> runs = e.getValue();
      StringBuilder line = new StringBuilder(String.format("  %-10s", e.getKey()));
      for (int epoch = 0; epoch < EPOCHS; epoch++) {
        int i = epoch;
        line.append(String.format(" %.3f", runs.stream().mapToDouble(r -> r.epochAccuracy().get(i)).average().orElseThrow()));
      }
      line.append("  [");
      runs.forEach(r -> line.append(String.format(" %.3f", r.lastEpochAccuracy())));
      System.out.println(line.append(" ]"));
    }
    System.out.println("per seed: CSR last / forgetting (conditional) / held-out transfer (frozen memory) / misled"
        + " (top-ranked memory does not help) / Pearson(Q, success)");
    for (Map.Entry<String, List<LearningCurve>> e : curves.entrySet()) {
      List<LearningCurve> runs = e.getValue();
      System.out.printf("  %-10s CSR %s  forget %s  transfer %s  misled %s  r(Q) %s%n", e.getKey(),
          fmt(runs.stream().map(r -> OptionalDouble.of(r.cumulativeSuccess().getLast())).toList()),
          fmt(runs.stream().map(LearningCurve::forgettingRate).toList()),
          fmt(runs.stream().map(LearningCurve::transferAccuracy).toList()),
          fmt(runs.stream().map(LearningCurve::misledRate).toList()),
          fmt(runs.stream().map(LearningCurve::qPredictsNext).toList()));
    }
    System.out.println("case the policy adapted (first usable, ignoring slips), training epochs + held-out, all seeds:"
        + " attempts (success rate)");
    for (Map.Entry<String, int[]> e : tally.entrySet()) {
      int[] t = e.getValue();
      System.out.printf("  %-28s %6d (%.3f)%n", e.getKey(), t[0], t[0] == 0 ? 0 : (double) t[1] / t[0]);
    }
    System.out.println("intent cosine between training tasks, by relation: pairs, mean, max");
    cosines.forEach((k, v) -> System.out.printf("  %-36s %6d  %.3f  %.3f%n", k, (long) v[0], v[1] / v[0], v[2]));
    System.out.printf("(%d ms)%n", (System.nanoTime() - start) / 1_000_000);
  }

  /** Accumulates {pairs, sum, max} of intent cosines per relation between two training tasks. */
  private static void cosines(SqlEnvironment env, IntentEmbeddings embeddings, Map<String, double[]> out) {
    List<Task> tasks = env.tasks();
    for (int i = 0; i < tasks.size(); i++) {
      for (int j = i + 1; j < tasks.size(); j++) {
        SqlTemplate a = env.templateOf(tasks.get(i));
        SqlTemplate b = env.templateOf(tasks.get(j));
        boolean sameLiterals = SqlAlignment.align(tasks.get(i).intent(), tasks.get(j).intent())
            .map(m -> m.entrySet().stream().allMatch(e -> e.getKey().equals(e.getValue())))
            .orElse(false);
        String relation = a.equals(b) ? "1 same template (transfers)"
            : a.kind().equals(b.kind()) ? (sameLiterals ? "2 distractor twin (same literals)" : "3 distractor, other literals")
            : a.schema() == b.schema() ? "4 other kind, same schema" : "5 other schema";
        double cos = cosine(embeddings.of(tasks.get(i)), embeddings.of(tasks.get(j)));
        double[] acc = out.computeIfAbsent(relation, k -> new double[] {0, 0, -1});
        acc[0]++;
        acc[1] += cos;
        acc[2] = Math.max(acc[2], cos);
      }
    }
  }

  private static double cosine(float[] a, float[] b) {
    double dot = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return dot / Math.sqrt(na * nb);
  }

  private static String fmt(List<OptionalDouble> xs) {
    StringBuilder sb = new StringBuilder("[");
    for (OptionalDouble x : xs) {
      sb.append(x.isPresent() ? String.format(" %.2f", x.getAsDouble()) : " -");
    }
    double mean = xs.stream().filter(OptionalDouble::isPresent).mapToDouble(OptionalDouble::getAsDouble).average()
        .orElse(Double.NaN);
    return sb.append(String.format(" ]=%.3f", mean)).toString();
  }
}
