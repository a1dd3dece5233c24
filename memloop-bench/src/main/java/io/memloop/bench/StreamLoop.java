package io.memloop.bench;

import io.memloop.Memory;
import io.memloop.bench.strategy.HindsightRun;
import io.memloop.bench.strategy.MemoryRun;
import io.memloop.bench.strategy.Recall;
import io.memloop.bench.strategy.Strategy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * The stream protocol ({@code memloop bench --stream}): every instance of a {@link StreamWorld} once, in order,
 * each a first encounter; for each, retrieve → attempt with the frozen policy → reward the retrieval → remember,
 * as in {@link LearningLoop}, from an empty memory plus the world's prior experiences. A {@link HindsightRun} (the
 * oracle) plays the episode itself instead.
 *
 * <p>Episode {@code i}'s randomness comes from a generator seeded by (run seed, environment, {@code i}) and nothing
 * else, the same for every strategy (common random numbers); a hindsight run gets a fresh generator from that seed
 * for each view it tries, so every view meets the same luck.
 *
 * <p>Immutable; one loop may run several strategies at a time (each run has its own memory).
 */
final class StreamLoop {
  private final String environment;
  private final StreamWorld world;
  private final IntentEmbeddings embeddings;

  StreamLoop(String environment, StreamWorld world, IntentEmbeddings embeddings) {
    this.environment = environment;
    this.world = world;
    this.embeddings = embeddings;
  }

  /** Every intent of {@code world} (instances and prior experiences), to embed once for all strategies. */
  static List<String> intents(StreamWorld world) {
    List<String> out = new ArrayList<>(world.tasks().size() + world.priorExperiences().size());
    world.tasks().forEach(t -> out.add(t.task().intent()));
    world.priorExperiences().forEach(p -> out.add(p.intent()));
    return out;
  }

  /**
   * Runs {@code strategy} over the whole stream; {@code onWindow} gets the success of each window of
   * {@link StreamMetrics#WINDOW} episodes as it ends.
   */
  StreamRun run(Strategy strategy, long seed, Consumer<Double> onWindow) {
    long started = System.nanoTime();
    List<StreamTask> tasks = world.tasks();
    long streamSeed = Seeds.derive(Seeds.derive(seed, "policy:" + environment), "stream");
    List<StreamRow> rows = new ArrayList<>(tasks.size());
    List<Long> memoryCounts = new ArrayList<>(StreamMetrics.windows(tasks.size()));
    try (MemoryRun memory = strategy.startRun(embeddings.dimension(), seed)) {
      for (PriorExperience prior : world.priorExperiences()) {
        memory.preload(prior, embeddings.of(prior.intent()));
      }
      int solved = 0;
      for (int i = 0; i < tasks.size(); i++) {
        StreamTask instance = tasks.get(i);
        Task task = instance.task();
        Task seen = OpaqueTasks.of(task);
        float[] z = embeddings.of(task);
        long episodeSeed = Seeds.derive(streamSeed, 0, i);
        Recall recall;
        Episode episode;
        if (memory instanceof HindsightRun hindsight) {
          HindsightRun.Played played = hindsight.play(seen, z,
              shown -> asSeen(seen, world.attempt(task, shown, new SplittableRandom(episodeSeed))), true);
          recall = played.recall();
          episode = played.episode();
        } else {
          recall = memory.recall(seen, z);
          episode = asSeen(seen, world.attempt(task, recall.shown(), new SplittableRandom(episodeSeed)));
          memory.learn(recall, z, episode);
        }
        rows.add(new StreamRow(i, task.id(), instance.kind(), instance.driftingKind(), episode.success(),
            episode.reward(), recall.shown().stream().map(Memory::id).toList(), recall.candidates(), judge(task, recall),
            recall.shown().stream().mapToInt(m -> m.experience().length()).sum()));
        solved += episode.success() ? 1 : 0;
        boolean windowEnds = (i + 1) % StreamMetrics.WINDOW == 0 || i == tasks.size() - 1;
        if (windowEnds) {
          int size = i % StreamMetrics.WINDOW + 1;
          memoryCounts.add(memory.memoryCount());
          onWindow.accept((double) solved / size);
          solved = 0;
        }
      }
    }
    return new StreamRun(strategy.name(), seed, world.driftAt(), rows, memoryCounts, System.nanoTime() - started);
  }

  /** The episode as strategies see it: under the task's opaque id (what a memory is stored under). */
  private static Episode asSeen(Task seen, Episode e) {
    return new Episode(seen, e.success(), e.reward(), e.experience(), e.transcript());
  }

  /** The top-ranked memory judged with the world's ground truth, under the world of this instance. */
  private EpisodeRow.FirstShown judge(Task task, Recall recall) {
    if (recall.shown().isEmpty()) {
      return EpisodeRow.FirstShown.NONE;
    }
    Memory first = recall.shown().getFirst();
    if (world.helps(task, first)) {
      return EpisodeRow.FirstShown.HELPS;
    }
    return GroundTruth.misleads(world, task, first) ? EpisodeRow.FirstShown.MISLEADS : EpisodeRow.FirstShown.NEUTRAL;
  }
}
