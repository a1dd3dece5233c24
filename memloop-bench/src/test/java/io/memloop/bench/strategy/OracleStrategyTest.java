package io.memloop.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.bench.Episode;
import io.memloop.bench.Fixtures;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The oracle's play: which view it keeps, and who learns what (hand-built memories and a scripted policy). */
class OracleStrategyTest {
  private static final int DIM = 4;
  private static final float[] Z = {1, 0, 0, 0};
  private static final Task TASK = new Task("t1", "rotate the signing key");
  /** Ground truth for the test: an experience helps when it names the right tool. */
  private static final GroundTruth TRUTH = (task, memory) -> memory.experience().contains("right tool");

  /** A shadow that always shows {@code shown} and logs every call. */
  private static final class FixedStrategy implements Strategy {
    final String name;
    final List<Memory> shown;
    final List<String> log = new ArrayList<>();

    FixedStrategy(String name, Memory... shown) {
      this.name = name;
      this.shown = List.of(shown);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public MemoryRun start(int dimension, long seed) {
      return new MemoryRun() {
        @Override
        public void preload(PriorExperience prior, float[] intentEmbedding) {
          log.add("preload " + prior.experience());
        }

        @Override
        public Recall recall(Task task, float[] intentEmbedding) {
          log.add("recall");
          return new Recall("", shown, shown.size());
        }

        @Override
        public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
          log.add("learn " + episode.success());
        }

        @Override
        public long memoryCount() {
          return 0;
        }

        @Override
        public Map<String, Double> utilities() {
          return Map.of();
        }

        @Override
        public void close() {
          log.add("close");
        }
      };
    }
  }

  /** The scripted policy: succeeds when shown an experience containing {@code word}; counts its attempts. */
  private static final class Policy implements Function<List<Memory>, Episode> {
    final String word;
    int attempts;

    Policy(String word) {
      this.word = word;
    }

    @Override
    public Episode apply(List<Memory> shown) {
      attempts++;
      boolean success = word.isEmpty() ? shown.isEmpty() : shown.stream().anyMatch(m -> m.experience().contains(word));
      return new Episode(TASK, success, success ? 1 : -1, success ? "it worked" : "it failed");
    }
  }

  private static HindsightRun oracle(Strategy... shadows) {
    return (HindsightRun) Strategy.oracle(TRUTH, List.of(shadows)).startRun(DIM, 7);
  }

  @Test
  void play_keepsTheTruthView_whenItSucceeds_andEveryShadowStillLearnsItsOwnEpisode() {
    FixedStrategy shadow = new FixedStrategy("fixed", Fixtures.memory("the shadow's pick"));
    try (HindsightRun run = oracle(shadow)) {
      run.preload(new PriorExperience("rotate the signing key", "the right tool works", Outcome.SUCCESS), Z);
      HindsightRun.Played played = run.play(TASK, Z, new Policy("works"), true);
      assertThat(played.episode().success()).isTrue();
      assertThat(played.recall().shown()).extracting(Memory::experience).containsExactly("the right tool works");
      assertThat(shadow.log).containsExactly("preload the right tool works", "recall", "learn false");
      assertThat(run.memoryCount()).as("the prior and the kept episode").isEqualTo(2);
    }
  }

  @Test
  void play_keepsTheFirstShadowViewThatSucceeds_inTheOrderGiven() {
    FixedStrategy first = new FixedStrategy("first", Fixtures.memory("first shadow: nothing useful"));
    FixedStrategy second = new FixedStrategy("second", Fixtures.memory("second shadow: works"));
    FixedStrategy third = new FixedStrategy("third", Fixtures.memory("third shadow: works too"));
    try (HindsightRun run = oracle(first, second, third)) {
      HindsightRun.Played played = run.play(TASK, Z, new Policy("works"), true);
      assertThat(played.episode().success()).isTrue();
      assertThat(played.recall().shown()).extracting(Memory::experience).containsExactly("second shadow: works");
      assertThat(first.log).containsExactly("recall", "learn false");
      assertThat(second.log).containsExactly("recall", "learn true");
      assertThat(third.log).containsExactly("recall", "learn true");
      assertThat(run.memoryCount()).isEqualTo(1);
    }
  }

  @Test
  void play_fallsBackToNoMemory_thenToTheTruthView() {
    FixedStrategy shadow = new FixedStrategy("fixed", Fixtures.memory("the shadow's pick"));
    try (HindsightRun run = oracle(shadow)) {
      run.preload(new PriorExperience("rotate the signing key", "the right tool, but it fails here", Outcome.SUCCESS), Z);
      HindsightRun.Played bare = run.play(TASK, Z, new Policy(""), true); // only the empty view succeeds
      assertThat(bare.episode().success()).isTrue();
      assertThat(bare.recall().shown()).isEmpty();
      HindsightRun.Played none = run.play(TASK, Z, new Policy("never shown"), true);
      assertThat(none.episode().success()).isFalse();
      assertThat(none.recall().shown()).extracting(Memory::experience).contains("the right tool, but it fails here");
    }
  }

  @Test
  void frozenPlay_learnsNothing_butEveryShadowStillRecalls() {
    FixedStrategy shadow = new FixedStrategy("fixed", Fixtures.memory("the shadow's pick"));
    try (HindsightRun run = oracle(shadow)) {
      run.preload(new PriorExperience("rotate the signing key", "the right tool works", Outcome.SUCCESS), Z);
      Policy policy = new Policy("works");
      HindsightRun.Played played = run.play(TASK, Z, policy, false);
      assertThat(played.episode().success()).isTrue();
      assertThat(run.memoryCount()).as("only the prior").isEqualTo(1);
      assertThat(shadow.log).containsExactly("preload the right tool works", "recall");
      assertThat(policy.attempts).as("solved by the first view: the others' episodes are not needed").isEqualTo(1);
      run.play(TASK, Z, new Policy("the shadow's"), false);
      assertThat(shadow.log).containsExactly("preload the right tool works", "recall", "recall");
      assertThat(run.memoryCount()).isEqualTo(1);
    }
    assertThat(shadow.log).endsWith("close");
  }

  @Test
  void anOracleWithoutShadows_triesItsTruthViewAndNoMemory() {
    try (HindsightRun run = (HindsightRun) Strategy.oracle(TRUTH).startRun(DIM, 3)) {
      run.preload(new PriorExperience("rotate a key", "the right tool works", Outcome.SUCCESS), Z);
      Policy policy = new Policy("works");
      assertThat(run.play(TASK, Z, policy, true).recall().shown()).extracting(Memory::experience)
          .containsExactly("the right tool works");
      assertThat(policy.attempts).isEqualTo(1);
      Policy bare = new Policy("");
      HindsightRun.Played played = run.play(TASK, Z, bare, true);
      assertThat(played.episode().success()).isTrue();
      assertThat(played.recall().shown()).isEmpty();
      assertThat(bare.attempts).isEqualTo(2);
      assertThat(run.memoryCount()).isEqualTo(3);
    }
  }

  @Test
  void theTruthView_showsUpToTheLargestBudgetOfAnyStrategy() {
    try (HindsightRun run = oracle()) {
      for (int i = 0; i < 7; i++) {
        run.preload(new PriorExperience("rotate key " + i, "the right tool #" + i, Outcome.SUCCESS), Z);
      }
      assertThat(run.recall(TASK, Z).shown()).hasSize(OracleStrategy.BUDGET).hasSize(5);
    }
    // a run with a plain RAG baseline showing more raises it, so the truth view is never narrower than a strategy's
    try (HindsightRun run = oracle(RagStrategy.top(8), RagStrategy.top(6))) {
      for (int i = 0; i < 12; i++) {
        run.preload(new PriorExperience("rotate key " + i, "the right tool #" + i, Outcome.SUCCESS), Z);
      }
      assertThat(run.recall(TASK, Z).shown()).hasSize(8);
    }
    // so does the engine when it shows a task with no record of its own more than k2
    MemLoopConfig wide = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK2(7).build();
    try (HindsightRun run = oracle(Strategy.engine("default:firstEncounterK2=7", wide))) {
      for (int i = 0; i < 12; i++) {
        run.preload(new PriorExperience("rotate key " + i, "the right tool #" + i, Outcome.SUCCESS), Z);
      }
      assertThat(run.recall(TASK, Z).shown()).hasSize(7);
    }
  }

  @Test
  void shadows_areMemoryStrategies_eachOnce() {
    assertThatThrownBy(() -> Strategy.oracle(TRUTH, List.of(Strategy.noMemory())))
        .hasMessageStartingWith("shadows:").hasMessageContaining("'no-memory'");
    assertThatThrownBy(() -> Strategy.oracle(TRUTH, List.of(Strategy.oracle(TRUTH))))
        .hasMessageStartingWith("shadows:").hasMessageContaining("'oracle'");
    assertThatThrownBy(() -> Strategy.oracle(TRUTH, List.of(RagStrategy.all(), RagStrategy.all())))
        .hasMessageContaining("'rag' is named twice");
  }
}
