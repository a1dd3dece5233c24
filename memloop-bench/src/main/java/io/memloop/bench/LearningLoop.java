package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Policy;
import io.memloop.bench.llm.Transcript;
import io.memloop.bench.strategy.MemoryRun;
import io.memloop.bench.strategy.NoMemoryStrategy;
import io.memloop.bench.strategy.Recall;
import io.memloop.bench.strategy.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The runtime-learning loop of MemRL's evaluation: for each epoch, for each task in order,
 * retrieve → attempt with the policy (frozen scripted, or a language model) → reward the retrieval →
 * remember the experience. The memory persists across epochs; the policy never changes.
 *
 * <p>The environment's prior experiences are loaded before the first epoch.
 *
 * <p>Each episode draws its randomness from a generator seeded by (run seed, epoch, task index), the
 * same for every strategy: strategies are compared under common random numbers, so a difference
 * between them comes from what they showed the policy, not from luckier guesses.
 */
public final class LearningLoop {
  private final Environment env;
  private final IntentEmbeddings embeddings;
  private final int epochs;
  private final Policy policy;

  public LearningLoop(Environment env, IntentEmbeddings embeddings, int epochs) {
    this(env, embeddings, epochs, Policy.FROZEN);
  }

  LearningLoop(Environment env, IntentEmbeddings embeddings, int epochs, Policy policy) {
    if (epochs < 1) {
      throw new IllegalArgumentException("epochs must be at least 1, got " + epochs);
    }
    this.env = env;
    this.embeddings = embeddings;
    this.epochs = epochs;
    this.policy = policy;
  }

  private Episode attempt(Task task, List<Memory> shown, SplittableRandom rnd, String strategy, long seed, int epoch) {
    return switch (policy) {
      case Policy.Frozen f -> env.attempt(task, shown, rnd);
      case LlmPolicy llm -> {
        Episode e = env.attempt(task, shown, llm, rnd);
        llm.record(new Transcript(env.name(), strategy, seed, epoch, task.id(), e.success(), e.transcript()));
        yield e;
      }
    };
  }

  int epochs() {
    return epochs;
  }

  /** Judges the top-ranked memory with ground truth, for the "distractors fool similarity" check. */
  private EpisodeRow.FirstShown judge(Task task, Recall recall) {
    if (recall.shown().isEmpty()) {
      return EpisodeRow.FirstShown.NONE;
    }
    if (!(env instanceof GroundTruth truth)) {
      return EpisodeRow.FirstShown.UNKNOWN;
    }
    Memory first = recall.shown().getFirst();
    if (truth.helps(task, first)) {
      return EpisodeRow.FirstShown.HELPS;
    }
    return GroundTruth.misleads(truth, task, first) ? EpisodeRow.FirstShown.MISLEADS : EpisodeRow.FirstShown.NEUTRAL;
  }

  /** Q of the top-ranked memory as retrieved, if it has been rewarded at least once. */
  private static double learnedQ(Recall recall) {
    if (recall.shown().isEmpty() || recall.shown().getFirst().visits() == 0) {
      return Double.NaN;
    }
    return recall.shown().getFirst().q();
  }

  /** The report row of one episode (the task under its environment name). */
  private EpisodeRow row(Strategy strategy, long seed, int epoch, Task task, Recall recall, Episode episode) {
    return new EpisodeRow(
        strategy.name(), seed, epoch, task.id(), episode.success(), episode.reward(),
        recall.shown().stream().map(Memory::id).toList(), recall.candidates(), judge(task, recall), learnedQ(recall),
        recall.shown().stream().mapToInt(m -> m.experience().length()).sum());
  }

  public RunResult run(Strategy strategy, long seed) {
    return run(strategy, seed, epochAccuracy -> {});
  }

  /**
   * Runs {@code strategy} from an empty memory; {@code onEpoch} gets each epoch's accuracy as it
   * ends. After the last epoch the held-out tasks run once with the memory frozen (retrieval only:
   * nothing is rewarded or stored), which measures transfer.
   */
  RunResult run(Strategy strategy, long seed, Consumer<Double> onEpoch) {
    long started = System.nanoTime();
    List<Task> tasks = env.tasks();
    long policySeed = Seeds.derive(seed, "policy:" + env.name());
    List<EpisodeRow> rows = new ArrayList<>(epochs * tasks.size());
    List<Long> memoryCounts = new ArrayList<>(epochs);
    long strategySeed = Seeds.derive(seed, "strategy:" + strategy.name());
    try (MemoryRun memory = strategy.start(embeddings.dimension(), strategySeed)) {
      for (PriorExperience prior : env.priorExperiences()) {
        memory.preload(prior, embeddings.of(prior.intent()));
      }
      for (int epoch = 1; epoch <= epochs; epoch++) {
        int solved = 0;
        for (int i = 0; i < tasks.size(); i++) {
          Task task = tasks.get(i);
          Task seen = OpaqueTasks.of(task);
          float[] z = embeddings.of(task);
          Recall recall = memory.recall(seen, z);
          SplittableRandom rnd = new SplittableRandom(Seeds.derive(policySeed, epoch, i));
          Episode episode = attempt(task, recall.shown(), rnd, strategy.name(), seed, epoch);
          // with extraction on, what is remembered is the model's distillation (a run with no memory stores nothing)
          String experience = policy instanceof LlmPolicy llm && !(strategy instanceof NoMemoryStrategy)
              ? llm.distil(task, episode).experience() : episode.experience();
          memory.learn(recall, z, new Episode(seen, episode.success(), episode.reward(), experience, episode.transcript()));
          rows.add(row(strategy, seed, epoch, task, recall, episode));
          solved += episode.success() ? 1 : 0;
        }
        memoryCounts.add(memory.memoryCount());
        onEpoch.accept(tasks.isEmpty() ? 0.0 : (double) solved / tasks.size());
      }
      List<EpisodeRow> transfer = new ArrayList<>();
      List<Task> heldOut = env.heldOut();
      for (int i = 0; i < heldOut.size(); i++) {
        Task task = heldOut.get(i);
        Recall recall = memory.recall(OpaqueTasks.of(task), embeddings.of(task)); // frozen: no learn()
        SplittableRandom rnd = new SplittableRandom(Seeds.derive(policySeed, epochs + 1, i));
        Episode episode = attempt(task, recall.shown(), rnd, strategy.name(), seed, epochs + 1);
        transfer.add(row(strategy, seed, epochs + 1, task, recall, episode));
      }
      return new RunResult(
          strategy.name(), seed, epochs, rows, memoryCounts, transfer, System.nanoTime() - started);
    }
  }
}
