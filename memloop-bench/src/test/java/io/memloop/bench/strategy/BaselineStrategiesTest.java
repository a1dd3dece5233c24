package io.memloop.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MemP's deletion rule and the oracle's choice, on hand-built memories. */
class BaselineStrategiesTest {
  private static final int DIM = 4;
  private static final Task TASK = new Task("t1", "rotate the signing key");

  private static float[] at(double cos) {
    return new float[] {(float) cos, (float) Math.sqrt(1 - cos * cos), 0, 0};
  }

  private static Episode episode(boolean success, int i) {
    return new Episode(TASK, success, success ? 1 : -1, "episode " + i + (success ? " worked" : " failed"));
  }

  /** Shows the prior experience three times with these outcomes; returns whether it is still stored. */
  private static boolean priorSurvives(boolean... outcomes) {
    try (MemoryRun run = Strategy.memp().start(DIM, 1)) {
      run.preload(new PriorExperience("rotate the signing key", "use the vault CLI", Outcome.SUCCESS), at(1));
      for (int i = 0; i < outcomes.length; i++) {
        Recall r = run.recall(TASK, at(1));
        assertThat(r.shown()).extracting(Memory::experience).contains("use the vault CLI");
        run.learn(r, at(1), episode(outcomes[i], i));
      }
      return run.recall(TASK, at(1)).shown().stream().anyMatch(m -> m.experience().equals("use the vault CLI"));
    }
  }

  @Test
  void memp_deletesAMemoryShownThreeTimesWithUnderHalfSuccess_andKeepsOneAtOrAbove() {
    assertThat(priorSurvives(false, false, true)).as("1 of 3: below half, deleted").isFalse();
    assertThat(priorSurvives(true, false, true)).as("2 of 3: kept").isTrue();
    assertThat(priorSurvives(false, false)).as("only two uses: too early to judge").isTrue();
  }

  /** Ground truth for the test: an experience helps when it names the right tool. */
  private static final GroundTruth TRUTH = (task, memory) -> memory.experience().contains("right tool");

  @Test
  void oracle_showsOnlyWhatHelps_mostSimilarFirst_thenTheTasksOwnNotes_neverAMisleadingOne() {
    try (MemoryRun run = Strategy.oracle(TRUTH).start(DIM, 1)) {
      run.preload(new PriorExperience("rotate the signing key!", "wrong tool: worked elsewhere", Outcome.SUCCESS), at(0.99));
      run.preload(new PriorExperience("rotate a key", "the right tool, far", Outcome.SUCCESS), at(0.6));
      run.preload(new PriorExperience("rotate the api key", "the right tool, near", Outcome.SUCCESS), at(0.8));
      run.preload(new PriorExperience("rotate the signing key", "the vault CLI failed here", Outcome.FAILURE), at(1));
      run.preload(new PriorExperience("unrelated", "a note of another task", Outcome.FAILURE), at(0.95));
      Recall r = run.recall(TASK, at(1));
      assertThat(r.shown()).extracting(Memory::experience)
          .containsExactly("the right tool, near", "the right tool, far", "the vault CLI failed here");
    }
  }

  @Test
  void oracle_withNothingThatHelps_showsOnlyTheTasksOwnNotes() {
    GroundTruth nothingHelps = (task, memory) -> false;
    try (MemoryRun run = Strategy.oracle(nothingHelps).start(DIM, 1)) {
      run.preload(new PriorExperience("rotate the signing key!", "wrong tool: worked elsewhere", Outcome.SUCCESS), at(0.99));
      run.preload(new PriorExperience("rotate the signing key", "the vault CLI failed here", Outcome.FAILURE), at(1));
      run.preload(new PriorExperience("rotate the signing key", "an old runbook that worked once", Outcome.SUCCESS), at(1));
      assertThat(run.recall(TASK, at(1)).shown()).extracting(Memory::experience)
          .containsExactly("the vault CLI failed here");
    }
  }
}
