package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.policy.TaskNote;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-task replay recalls as the engine does: a task with no record of its own recalls {@code firstEncounterK1}
 * intents, a known one k1; where that reaches past what the logging policy recalled, the decision is flagged.
 */
class OfflineLearningRecallTest {
  private static final MemLoopConfig DEFAULT = MemLoopConfig.preset(Preset.DEFAULT); // k1 = 5, firstEncounterK1 = 8
  private static final MemLoopConfig MEMRL = MemLoopConfig.preset(Preset.MEMRL); // k1 = 5

  /** {@code n} intents, one success memory each, similarities 0.90, 0.88, ... */
  private static List<Candidate> pool(int n) {
    List<Candidate> pool = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      pool.add(new Candidate("m" + i, 0.92 - 0.02 * i, 0, 0, false, 0));
    }
    return pool;
  }

  private static Map<String, OfflineLearning.Known> known(int n) {
    Map<String, OfflineLearning.Known> known = new LinkedHashMap<>();
    for (int i = 1; i <= n; i++) {
      known.put("m" + i, new OfflineLearning.Known(Outcome.SUCCESS, "do step " + i));
    }
    return known;
  }

  @Test
  void aNewTasksWiderRecall_reachesPastMemrlsLog_andAKnownTasksDoesNot() {
    OfflineLearning replay = new OfflineLearning(DEFAULT);
    List<OfflineLearning.Choice> first = replay.choose("ns", "restart nginx", pool(5), known(5), MEMRL);
    assertThat(replay.recallComplete()).as("eight intents wanted, memrl's log holds its five").isFalse();
    replay.learn(first.get(0).slate(), TaskNote.NO_DRAW, 1, null, known(5));
    replay.choose("ns", "restart nginx", pool(5), known(5), MEMRL);
    assertThat(replay.recallComplete()).as("the task is known now: it recalls k1 = 5").isTrue();
  }

  @Test
  void theDefaultsOwnLog_holdsItsWiderRecall_andTheReplayTrimsAKnownTasksRecallToK1() {
    OfflineLearning replay = new OfflineLearning(DEFAULT);
    List<OfflineLearning.Choice> first = replay.choose("ns", "restart nginx", pool(8), known(8), DEFAULT);
    assertThat(replay.recallComplete()).isTrue();
    assertThat(first.get(0).slate()).as("the wider view of a new task").hasSizeGreaterThan(DEFAULT.k2());
    replay.learn(first.get(0).slate(), TaskNote.NO_DRAW, 1, null, known(8));
    List<OfflineLearning.Choice> again = replay.choose("ns", "restart nginx", pool(8), known(8), DEFAULT);
    assertThat(replay.recallComplete()).isTrue();
    assertThat(again).allSatisfy(c -> assertThat(c.slate()).allMatch(id -> Integer.parseInt(id.substring(1)) <= DEFAULT.k1()));
  }
}
