package io.memloop.bench.textworld;

import io.memloop.bench.Environment;
import io.memloop.bench.Episode;
import io.memloop.bench.EpisodeRow;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.IntentEmbeddings;
import io.memloop.bench.LearningLoop;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.RunResult;
import io.memloop.bench.Task;
import io.memloop.bench.hardquestions.HardQuestionPolicy;
import io.memloop.bench.hardquestions.HardQuestionsEnvironment;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.Memory;
import io.memloop.Preset;
import io.memloop.embed.Embedder;
import io.memloop.embeddings.MiniLmEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongFunction;
import java.util.random.RandomGenerator;

/**
 * Not a test: a quick learning comparison on the text world and the hard questions (no memory,
 * similarity, memrl) over a few seeds, with the hashing embedder or MiniLM, printing per-epoch
 * accuracy, held-out transfer, how often the top memory misled (ground truth) and how often a
 * distractor's experience was what the policy acted on in a failed episode.
 *
 * <pre>
 * ./mvnw -q -o -pl memloop-bench -am test-compile
 * java -cp "$(cat cp.txt):memloop-bench/target/classes:memloop-bench/target/test-classes" \
 *     io.memloop.bench.textworld.TextWorldAndHardQuestionsMain [tw|hq|both] [hashing|minilm] [seeds=3] [epochs=8]
 * </pre>
 */
final class TextWorldAndHardQuestionsMain {
  private TextWorldAndHardQuestionsMain() {}

  public static void main(String[] args) {
    String which = args.length > 0 ? args[0] : "both";
    String embedderName = args.length > 1 ? args[1] : "hashing";
    int seeds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    int epochs = args.length > 3 ? Integer.parseInt(args[3]) : 8;
    try (Embedder embedder = embedderName.equals("minilm") ? MiniLmEmbedder.create() : new HashingEmbedder(64)) {
      if (!which.equals("hq")) {
        compare("text-world " + TextWorldEnvironment.Knobs.defaults(), embedder, seeds, epochs,
            seed -> new Recorded(TextWorldEnvironment.generate(seed, TextWorldEnvironment.Knobs.defaults())));
      }
      if (!which.equals("tw")) {
        compare("hard-questions " + HardQuestionsEnvironment.Knobs.defaults(), embedder, seeds, epochs,
            seed -> new Recorded(HardQuestionsEnvironment.generate(seed, HardQuestionsEnvironment.Knobs.defaults())));
      }
    }
  }

  private static void compare(String title, Embedder embedder, int seeds, int epochs, LongFunction<Recorded> envs) {
    System.out.printf("%n== %s, %s, %d epochs ==%n", title, embedder.modelId(), epochs);
    List<Strategy> strategies =
        List.of(Strategy.noMemory(), Strategy.preset(Preset.SIMILARITY), Strategy.preset(Preset.MEMRL));
    for (long seed = 1; seed <= seeds; seed++) {
      Recorded env = envs.apply(seed);
      IntentEmbeddings embeddings = IntentEmbeddings.of(embedder, env);
      if (seed == 1) {
        printTwinSimilarity(env, embeddings);
      }
      for (Strategy s : strategies) {
        env.reset();
        RunResult run = new LearningLoop(env, embeddings, epochs).run(s, seed);
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "seed %d %-10s epochs:", seed, s.name()));
        for (int e = 1; e <= epochs; e++) {
          int epoch = e;
          line.append(String.format(Locale.ROOT, " %.2f",
              run.rows().stream().filter(r -> r.epoch() == epoch).mapToDouble(r -> r.success() ? 1 : 0).average()
                  .orElse(0)));
        }
        double transfer = run.transferRows().stream().mapToDouble(r -> r.success() ? 1 : 0).average().orElse(Double.NaN);
        long shown = run.rows().stream().filter(r -> !r.shownIds().isEmpty()).count();
        long misled = run.rows().stream().filter(r -> r.firstShown() == EpisodeRow.FirstShown.MISLEADS).count();
        line.append(String.format(Locale.ROOT,
            " | transfer %.2f | first shown misleads %d/%d | acted on a distractor's experience and failed %d/%d",
            transfer, misled, shown, env.fooled.get(), env.episodes.get()));
        System.out.println(line);
      }
    }
  }

  private static void printTwinSimilarity(Recorded env, IntentEmbeddings embeddings) {
    List<double[]> pairs = new ArrayList<>();
    if (env.inner instanceof TextWorldEnvironment tw) {
      tw.nearPairs().forEach(p -> pairs.add(new double[] {cos(embeddings.of(p.task()), embeddings.of(p.source()))}));
    } else if (env.inner instanceof HardQuestionsEnvironment hq) {
      hq.nearDuplicatePairs()
          .forEach(p -> pairs.add(new double[] {cos(embeddings.of(p.first()), embeddings.of(p.second()))}));
    }
    double[] c = pairs.stream().mapToDouble(p -> p[0]).sorted().toArray();
    long merged = pairs.stream().filter(p -> p[0] >= 0.9).count();
    double others = 0;
    int n = 0;
    List<Task> tasks = env.tasks();
    for (int i = 0; i < tasks.size(); i++) {
      for (int j = i + 1; j < tasks.size(); j++) {
        others += cos(embeddings.of(tasks.get(i)), embeddings.of(tasks.get(j)));
        n++;
      }
    }
    System.out.printf(Locale.ROOT,
        "near-duplicate cosine: min %.2f median %.2f max %.2f, %d/%d ≥ 0.9 (merge threshold); mean over all task pairs %.2f%n",
        c[0], c[c.length / 2], c[c.length - 1], merged, c.length, others / n);
  }

  private static double cos(float[] a, float[] b) {
    double d = 0;
    double na = 0;
    double nb = 0;
    for (int i = 0; i < a.length; i++) {
      d += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
    }
    return d / Math.sqrt(na * nb);
  }

  /**
   * Passes every call through and counts failed training episodes whose acted-on experience came from
   * another task and does not help this one (a distractor that fooled the policy).
   */
  private static final class Recorded implements Environment, GroundTruth {
    final Environment inner;
    final GroundTruth truth;
    final AtomicInteger fooled = new AtomicInteger();
    final AtomicInteger episodes = new AtomicInteger();

    <E extends Environment & GroundTruth> Recorded(E env) {
      this.inner = env;
      this.truth = env;
    }

    void reset() {
      fooled.set(0);
      episodes.set(0);
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public List<Task> tasks() {
      return inner.tasks();
    }

    @Override
    public List<Task> heldOut() {
      return inner.heldOut();
    }

    @Override
    public List<PriorExperience> priorExperiences() {
      return inner.priorExperiences();
    }

    @Override
    public Episode attempt(Task task, List<Memory> shown, LlmPolicy llm, RandomGenerator rnd) {
      return inner.attempt(task, shown, llm, rnd);
    }

    @Override
    public boolean helps(Task task, Memory memory) {
      return truth.helps(task, memory);
    }

    @Override
    public Episode attempt(Task task, List<Memory> shown, RandomGenerator rnd) {
      Episode e = inner.attempt(task, shown, rnd);
      if (!inner.tasks().contains(task)) {
        return e;
      }
      episodes.incrementAndGet();
      actedOn(task, shown)
          .filter(m -> !e.success() && !m.intentText().equals(task.intent()) && !truth.helps(task, m))
          .ifPresent(m -> fooled.incrementAndGet());
      return e;
    }

    /** The memory whose plan or verified answer the policy used, if any. */
    private java.util.Optional<Memory> actedOn(Task task, List<Memory> shown) {
      if (inner instanceof TextWorldEnvironment tw) {
        TextWorldGoal goal = tw.goalOf(task);
        return shown.stream()
            .filter(m -> TextWorldPolicy.planFor(goal, List.of(m.experience())).isPresent()).findFirst();
      }
      java.util.Set<String> words = HardQuestionPolicy.words(task.intent());
      return shown.stream()
          .filter(m -> m.experience().contains("Verified answer: "))
          .filter(m -> HardQuestionPolicy.question(m.experience())
              .map(q -> HardQuestionPolicy.sameQuestion(words, HardQuestionPolicy.words(q))).orElse(false))
          .findFirst();
    }
  }
}
