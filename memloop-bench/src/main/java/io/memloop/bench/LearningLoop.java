package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Policy;
import io.memloop.bench.llm.Transcript;
import io.memloop.bench.strategy.HindsightRun;
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
 *
 * <p>A {@link HindsightRun} (the oracle) plays each episode itself: it may attempt it with several views, each
 * from a fresh generator of the episode's seed, so every view sees the same random numbers; its row, and with a
 * language model its transcript and the distillation it remembers, are those of the view it kept.
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

  /** The policy's attempt at {@code task} with {@code shown}; draws its randomness from {@code rnd} only. */
  private Episode attempt(Task task, List<Memory> shown, SplittableRandom rnd) {
    return switch (policy) {
      case Policy.Frozen f -> env.attempt(task, shown, rnd);
      case LlmPolicy llm -> env.attempt(task, shown, llm, rnd);
    };
  }

  /** Keeps the conversation of an episode that counts (with the LLM policy; the frozen one has none). */
  private void record(String strategy, long seed, int epoch, Task task, Episode e) {
    if (policy instanceof LlmPolicy llm) {
      llm.record(new Transcript(env.name(), strategy, seed, epoch, task.id(), e.success(), e.transcript()));
    }
  }

  /**
   * The episode as the memory learns it: under the task as strategies see it, and with extraction on, the
   * model's distillation as the experience (a run with no memory stores nothing, so nothing is distilled).
   */
  private Episode toLearn(Strategy strategy, Task task, Task seen, Episode e) {
    String experience = policy instanceof LlmPolicy llm && !(strategy instanceof NoMemoryStrategy)
        ? llm.distil(task, e).experience() : e.experience();
    return new Episode(seen, e.success(), e.reward(), experience, e.transcript());
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
    try (MemoryRun memory = strategy.startRun(embeddings.dimension(), seed)) {
      for (PriorExperience prior : env.priorExperiences()) {
        memory.preload(prior, embeddings.of(prior.intent()));
      }
      for (int epoch = 1; epoch <= epochs; epoch++) {
        int solved = 0;
        for (int i = 0; i < tasks.size(); i++) {
          Task task = tasks.get(i);
          Task seen = OpaqueTasks.of(task);
          float[] z = embeddings.of(task);
          long episodeSeed = Seeds.derive(policySeed, epoch, i);
          Recall recall;
          Episode episode;
          if (memory instanceof HindsightRun hindsight) {
            // every view replays the episode's random numbers from a fresh generator of the same seed
            HindsightRun.Played played = hindsight.play(seen, z,
                shown -> toLearn(strategy, task, seen, attempt(task, shown, new SplittableRandom(episodeSeed))), true);
            recall = played.recall();
            episode = played.episode();
            record(strategy.name(), seed, epoch, task, episode); // the kept view's conversation only
          } else {
            recall = memory.recall(seen, z);
            episode = attempt(task, recall.shown(), new SplittableRandom(episodeSeed));
            record(strategy.name(), seed, epoch, task, episode);
            memory.learn(recall, z, toLearn(strategy, task, seen, episode));
          }
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
        Task seen = OpaqueTasks.of(task);
        float[] z = embeddings.of(task);
        long episodeSeed = Seeds.derive(policySeed, epochs + 1, i);
        Recall recall;
        Episode episode;
        if (memory instanceof HindsightRun hindsight) { // frozen: nothing learns
          HindsightRun.Played played =
              hindsight.play(seen, z, shown -> attempt(task, shown, new SplittableRandom(episodeSeed)), false);
          recall = played.recall();
          episode = played.episode();
        } else {
          recall = memory.recall(seen, z); // frozen: no learn()
          episode = attempt(task, recall.shown(), new SplittableRandom(episodeSeed));
        }
        record(strategy.name(), seed, epochs + 1, task, episode);
        transfer.add(row(strategy, seed, epochs + 1, task, recall, episode));
      }
      return new RunResult(
          strategy.name(), seed, epochs, rows, memoryCounts, transfer, System.nanoTime() - started);
    }
  }
}
