package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Preset;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Transcript;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.strategy.MemoryRun;
import io.memloop.bench.strategy.RagStrategy;
import io.memloop.bench.strategy.Recall;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.history.extraction.ExperienceExtractor;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The oracle in the learning loop: each shadow is its strategy's own run, episode for episode (training and the
 * frozen held-out phase), so the oracle succeeds on every episode any of them does; with a language model, only
 * the kept view's conversation is kept and what is remembered is distilled from the episode it belongs to.
 */
class OracleLoopTest {
  private static final HashingEmbedder EMBEDDER = new HashingEmbedder(64);

  /** A strategy under its own name that logs what its run recalls and learns. */
  private static final class Recording implements Strategy {
    private final Strategy inner;
    final List<String> log = Collections.synchronizedList(new ArrayList<>());

    Recording(Strategy inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public MemoryRun start(int dimension, long seed) {
      MemoryRun run = inner.start(dimension, seed);
      return new MemoryRun() {
        @Override
        public void preload(PriorExperience prior, float[] intentEmbedding) {
          run.preload(prior, intentEmbedding);
        }

        @Override
        public Recall recall(Task task, float[] intentEmbedding) {
          Recall r = run.recall(task, intentEmbedding);
          log.add("recall " + task.id() + " " + r.shown().stream().map(Memory::experience).toList());
          return r;
        }

        @Override
        public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
          log.add("learn " + episode.task().id() + " " + episode.success() + " " + episode.experience());
          run.learn(recall, intentEmbedding, episode);
        }

        @Override
        public long memoryCount() {
          return run.memoryCount();
        }

        @Override
        public Map<String, Double> utilities() {
          return run.utilities();
        }

        @Override
        public void close() {
          run.close();
        }
      };
    }
  }

  /** Recurring ops tasks with twins, stale entries, slips and held-out requests (the frozen phase). */
  private static RecurringTasksEnvironment env(long seed, int families, double slip) {
    return RecurringTasksEnvironment.generate(seed, new RecurringTasksEnvironment.Knobs(families, 2, 0.25, slip, 6));
  }

  private static List<Recording> recorders() {
    return List.of(new Recording(RagStrategy.all()), new Recording(Strategy.preset(Preset.MEMRL)),
        new Recording(Strategy.preset(Preset.DEFAULT)));
  }

  private static List<Boolean> successes(List<EpisodeRow> rows) {
    return rows.stream().map(EpisodeRow::success).toList();
  }

  @Test
  void eachShadowIsItsStrategysOwnRun_andTheOracleSucceedsWheneverAnyOfThemDoes() {
    for (long seed = 1; seed <= 3; seed++) {
      RecurringTasksEnvironment env = env(seed, 10, 0.1);
      LearningLoop loop = new LearningLoop(env, IntentEmbeddings.of(EMBEDDER, env), 3);
      List<Recording> alone = recorders();
      List<RunResult> own = alone.stream().map(s -> loop.run(s, 17)).toList();
      RunResult bare = loop.run(Strategy.noMemory(), 17);
      List<Recording> shadows = recorders();
      RunResult oracle = loop.run(Strategy.oracle(OpaqueTasks.truthFor(env, env), List.copyOf(shadows)), 17);
      for (int s = 0; s < shadows.size(); s++) {
        assertThat(shadows.get(s).log).as("seed %d: shadow %s", seed, shadows.get(s).name())
            .isNotEmpty().containsExactlyElementsOf(alone.get(s).log);
      }
      List<RunResult> bounded = new ArrayList<>(own);
      bounded.add(bare);
      assertThat(oracle.transferRows()).hasSize(6);
      for (RunResult run : bounded) {
        assertAtLeast(oracle.rows(), run.rows(), "seed " + seed + " " + run.strategy());
        assertAtLeast(oracle.transferRows(), run.transferRows(), "seed " + seed + " held out " + run.strategy());
      }
    }
  }

  private static void assertAtLeast(List<EpisodeRow> oracle, List<EpisodeRow> other, String what) {
    assertThat(oracle).hasSameSizeAs(other);
    for (int i = 0; i < oracle.size(); i++) {
      assertThat(oracle.get(i).taskId()).isEqualTo(other.get(i).taskId());
      if (other.get(i).success()) {
        assertThat(oracle.get(i).success()).as("%s: episode %d (%s)", what, i, other.get(i).taskId()).isTrue();
      }
    }
  }

  @Test
  void withALanguageModel_theKeptViewsConversationIsKept_andShadowsRememberTheirOwnDistillations() {
    RecurringTasksEnvironment env = env(5, 8, 0.05);
    ExperienceExtractor extractor = t -> new ExperienceExtractor.Extraction(
        "distilled (" + t.outcome() + "): " + t.steps().lines().filter(l -> l.startsWith("assistant")).toList(), true, "");
    List<Transcript> ownTranscripts = Collections.synchronizedList(new ArrayList<>());
    List<Transcript> oracleTranscripts = Collections.synchronizedList(new ArrayList<>());
    Recording alone = new Recording(Strategy.preset(Preset.MEMRL));
    RunResult own = new LearningLoop(env, IntentEmbeddings.of(EMBEDDER, env), 3,
        new LlmPolicy(new ReadingChatModel(), 2, ownTranscripts::add, extractor)).run(alone, 9);
    Recording shadow = new Recording(Strategy.preset(Preset.MEMRL));
    RunResult oracle = new LearningLoop(env, IntentEmbeddings.of(EMBEDDER, env), 3,
        new LlmPolicy(new ReadingChatModel(), 2, oracleTranscripts::add, extractor))
        .run(Strategy.oracle(OpaqueTasks.truthFor(env, env), List.of(shadow)), 9);

    assertThat(shadow.log).containsExactlyElementsOf(alone.log).anyMatch(l -> l.contains(" distilled (SUCCESS): "));
    List<EpisodeRow> rows = new ArrayList<>(oracle.rows());
    rows.addAll(oracle.transferRows());
    assertThat(oracleTranscripts).as("one conversation per episode: the kept view's").hasSize(rows.size());
    assertThat(IntStream.range(0, rows.size()).allMatch(i -> oracleTranscripts.get(i).success() == rows.get(i).success()
        && oracleTranscripts.get(i).taskId().equals(rows.get(i).taskId())
        && oracleTranscripts.get(i).strategy().equals("oracle"))).isTrue();
    assertAtLeast(oracle.rows(), own.rows(), "memrl with a model");
    assertThat(successes(oracle.rows())).contains(true);
    assertThat(ownTranscripts).hasSize(own.rows().size() + own.transferRows().size());
  }
}
