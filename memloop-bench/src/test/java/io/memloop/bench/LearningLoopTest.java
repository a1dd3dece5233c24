package io.memloop.bench;

import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.strategy.EngineRun;
import io.memloop.bench.strategy.MemoryRun;
import io.memloop.bench.strategy.Recall;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embeddings.HashingEmbedder;
import static io.memloop.bench.Fixtures.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class LearningLoopTest {
  private static final HashingEmbedder EMBEDDER = new HashingEmbedder(64);

  private static LearningLoop loop(RecurringTasksEnvironment env, int epochs) {
    return new LearningLoop(env, IntentEmbeddings.of(EMBEDDER, env), epochs);
  }

  private static double meanLastEpochAccuracy(Strategy strategy, long seeds, double staleShare) {
    return LongStream.rangeClosed(1, seeds)
        .mapToDouble(seed -> {
          RecurringTasksEnvironment env = env(seed, 12, 2, staleShare, RecurringTasksEnvironment.DEFAULT_SLIP);
          return Metrics.curve(loop(env, 5).run(strategy, seed)).lastEpochAccuracy();
        })
        .average()
        .orElseThrow();
  }

  @Test
  void run_sameSeed_sameEpisodes() {
    RecurringTasksEnvironment env = env(3, 8, 2, 0.25, 0.05);
    LearningLoop loop = loop(env, 3);
    RunResult a = loop.run(Strategy.preset(Preset.MEMRL), 9);
    RunResult b = loop.run(Strategy.preset(Preset.MEMRL), 9);
    assertThat(a).usingRecursiveComparison().ignoringFields("wallNanos") // wall time varies
        .withEqualsForType((x, y) -> Double.compare(x, y) == 0, Double.class).isEqualTo(b); // NaN equals NaN
  }

  @Test
  void run_recordsOneRowPerTaskAndEpoch_inOrder() {
    RecurringTasksEnvironment env = env(4, 6, 2, 0, 0.05);
    RunResult run = loop(env, 3).run(Strategy.preset(Preset.SIMILARITY), 4);
    assertThat(run.rows()).hasSize(3 * 12);
    for (int i = 0; i < run.rows().size(); i++) {
      EpisodeRow row = run.rows().get(i);
      assertThat(row.epoch()).isEqualTo(1 + i / 12);
      assertThat(row.taskId()).isEqualTo(env.tasks().get(i % 12).id());
      assertThat(row.strategy()).isEqualTo("similarity");
      assertThat(row.seed()).isEqualTo(4);
      assertThat(row.reward()).isEqualTo(row.success() ? 1.0 : -1.0);
    }
  }

  @Test
  void noMemory_showsNothingAndStoresNothing() {
    RecurringTasksEnvironment env = env(5, 6, 2, 0.5, 0.05);
    RunResult run = loop(env, 2).run(Strategy.noMemory(), 5);
    assertThat(run.rows()).allSatisfy(r -> {
      assertThat(r.shownIds()).isEmpty();
      assertThat(r.candidates()).isZero();
      assertThat(r.shownChars()).isZero();
    });
    assertThat(run.memoryCounts()).containsExactly(0L, 0L);
    assertThat(Metrics.curve(run).shownChars()).isZero();
  }

  @Test
  void engine_storesPriorsThenOneMemoryPerEpisode_andShowsAtMostK2() {
    RecurringTasksEnvironment env = env(6, 6, 2, 0.5, 0.05);
    MemLoopConfig config = MemLoopConfig.preset(Preset.MEMRL).toBuilder().k2(2).build();
    RunResult run = loop(env, 3).run(Strategy.engine("memrl-k2", config), 6);
    assertThat(run.memoryCounts()).containsExactly(6L + 12, 6L + 24, 6L + 36);
    assertThat(run.rows()).allSatisfy(r -> {
      assertThat(r.shownIds().size()).isLessThanOrEqualTo(2);
      assertThat(r.candidates()).isGreaterThanOrEqualTo(r.shownIds().size());
    });
    // Every task recurs, so from epoch 2 on every retrieval finds at least the task's own memory.
    assertThat(run.rows()).filteredOn(r -> r.epoch() > 1).allSatisfy(r -> assertThat(r.shownIds()).isNotEmpty());
    // what was shown costs the prompt: at least a few characters per memory shown, and the curve's mean is theirs
    assertThat(run.rows()).allSatisfy(r -> assertThat(r.shownChars()).isGreaterThanOrEqualTo(10 * r.shownIds().size()));
    double mean = run.rows().stream().mapToInt(EpisodeRow::shownChars).average().orElseThrow();
    assertThat(mean).isPositive();
    assertThat(Metrics.curve(run).shownChars()).isEqualTo(mean);
  }

  @Test
  void presets_learnAboveTheNoMemoryFloor() {
    double floor = meanLastEpochAccuracy(Strategy.noMemory(), 5, 0);
    double similarity = meanLastEpochAccuracy(Strategy.preset(Preset.SIMILARITY), 5, 0);
    double memrl = meanLastEpochAccuracy(Strategy.preset(Preset.MEMRL), 5, 0);
    assertThat(floor).isBetween(0.1, 0.3);
    assertThat(similarity).isGreaterThan(floor + 0.3);
    assertThat(memrl).isGreaterThan(floor + 0.3);
  }

  /**
   * A stale memory sits under the task's exact intent and is older than anything the task adds, so
   * similarity ranking shows it first every time; utility learning demotes it after it fails.
   */
  @Test
  void memrl_beatsSimilarity_onAverage_whenStaleMemoriesMislead() {
    double similarity = meanLastEpochAccuracy(Strategy.preset(Preset.SIMILARITY), 8, 0.25);
    double memrl = meanLastEpochAccuracy(Strategy.preset(Preset.MEMRL), 8, 0.25);
    assertThat(memrl).isGreaterThanOrEqualTo(similarity);
  }

  @Test
  void strategies_seeTheSameRandomness() {
    // Common random numbers: two runs of the memoryless policy under different strategy names
    // guess identically, so strategies differ only by what they show.
    RecurringTasksEnvironment env = env(8, 6, 2, 0, 0.05);
    LearningLoop loop = loop(env, 2);
    List<Boolean> a = new ArrayList<>();
    List<Boolean> b = new ArrayList<>();
    loop.run(Strategy.noMemory(), 8).rows().forEach(r -> a.add(r.success()));
    Strategy renamed = new Strategy() {
      @Override
      public String name() {
        return "other-name";
      }

      @Override
      public MemoryRun start(int dimension, long seed) {
        return Strategy.noMemory().start(dimension, seed);
      }
    };
    loop.run(renamed, 8).rows().forEach(r -> b.add(r.success()));
    assertThat(a).isEqualTo(b);
  }

  @Test
  void loop_withoutEpochs_isRejected() {
    RecurringTasksEnvironment env = env(1, 2, 1, 0, 0);
    assertThatThrownBy(() -> loop(env, 0)).hasMessageContaining("epochs must be at least 1, got 0");
  }

  @Test
  void strategiesSeeOpaqueTaskIds_neverTheEnvironmentsNames() {
    RecurringTasksEnvironment env = env(3, 8, 2, 0.25, 0.05);
    java.util.Set<String> seen = new java.util.HashSet<>();
    Strategy spy = new Strategy() {
      @Override
      public String name() {
        return "spy";
      }

      @Override
      public MemoryRun start(int dimension, long seed) {
        return new EngineRun(io.memloop.MemLoopConfig.preset(Preset.DEFAULT), dimension, seed) {
          @Override
          public Recall recall(Task task, float[] intentEmbedding) {
            seen.add(task.id());
            return super.recall(task, intentEmbedding);
          }

          @Override
          public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
            seen.add(episode.task().id());
            super.learn(recall, intentEmbedding, episode);
          }
        };
      }
    };
    RunResult run = loop(env, 2).run(spy, 3);
    java.util.Set<String> names = new java.util.HashSet<>();
    env.tasks().forEach(t -> names.add(t.id()));
    assertThat(seen).isNotEmpty().allMatch(id -> id.matches("task-[0-9a-f]{16}")).doesNotContainAnyElementsOf(names);
    assertThat(seen).hasSize(names.size()); // one opaque id per task, stable across epochs
    assertThat(run.rows()).extracting(EpisodeRow::taskId).containsAnyElementsOf(names); // reports keep the names
  }
}
