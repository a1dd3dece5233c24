package io.memloop.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.bench.Episode;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Task;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The plain baselines: what rag, rag-success and recent show, their gate and their tie-breaks. */
class PlainBaselinesTest {
  private static final float[] A = {1, 0, 0, 0};
  private static final float[] A_TWIN = {0.95f, 0.3122f, 0, 0}; // cosine 0.95 to A: same intent group
  private static final float[] B = {0.6f, 0.8f, 0, 0}; // cosine 0.6 to A: above the 0.5 gate, own group
  private static final float[] FAR = {0, 0, 1, 0}; // cosine 0 to A: below the gate

  private static Task task(String intent) {
    return new Task("t-" + intent, intent);
  }

  private static Episode episode(String intent, boolean success, String experience) {
    return new Episode(task(intent), success, success ? 1 : -1, experience);
  }

  private static List<String> shown(MemoryRun run, float[] query) {
    return run.recall(task("query"), query).shown().stream().map(Memory::experience).toList();
  }

  private static void store(MemoryRun run, float[] intent, boolean success, String experience) {
    run.learn(Recall.NONE, intent, episode("intent", success, experience));
  }

  @Test
  void rag_showsTheMostSimilarMemories_newestFirstOnTies_aboveTheGate() {
    try (MemoryRun run = RagStrategy.all().start(4, 1)) {
      store(run, A, true, "a-old");
      store(run, FAR, true, "far");
      store(run, B, true, "b");
      store(run, A, false, "a-new-failure");
      store(run, A, true, "a-newest");
      assertThat(shown(run, A)).containsExactly("a-newest", "a-new-failure", "a-old");
      assertThat(shown(run, B)).as("ties at cosine 0.6 and below it").startsWith("b");
      assertThat(shown(run, FAR)).containsExactly("far");
      assertThat(run.recall(task("q"), A).candidates()).as("pool = memories above the gate").isEqualTo(4);
      assertThat(run.utilities()).as("nothing learned").isEmpty();
      assertThat(run.memoryCount()).isEqualTo(5);
    }
  }

  @Test
  void ragSuccess_skipsFailures() {
    try (MemoryRun run = RagStrategy.successesOnly().start(4, 1)) {
      store(run, A, true, "a-old");
      store(run, A, false, "a-failure");
      store(run, B, true, "b");
      assertThat(shown(run, A)).containsExactly("a-old", "b");
      assertThat(RagStrategy.successesOnly().name()).isEqualTo("rag-success");
    }
  }

  @Test
  void recent_showsTheNewestMemoriesOfTheNearestIntentGroups() {
    try (MemoryRun run = new RecentStrategy().start(4, 1)) {
      store(run, A, true, "a1");
      store(run, A_TWIN, false, "twin2"); // joins A's group (cosine 0.95 ≥ merge 0.9)
      store(run, B, true, "b3");
      store(run, FAR, true, "far4");
      store(run, A, true, "a5");
      // Groups near A: {a1, twin2, a5} and {b3}; far4 is below the gate. Newest first over the pool.
      assertThat(shown(run, A)).containsExactly("a5", "b3", "twin2");
      assertThat(run.recall(task("q"), A).candidates()).isEqualTo(4);
      assertThat(shown(run, FAR)).containsExactly("far4");
    }
  }

  @Test
  void preloadedExperiences_areShownLikeLearnedOnes() {
    try (MemoryRun run = RagStrategy.all().start(4, 1)) {
      run.preload(new PriorExperience("intent", "stale runbook", Outcome.SUCCESS), A);
      assertThat(shown(run, A)).containsExactly("stale runbook");
    }
  }
}
