package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class OfflineSelectionTest {
  private static Candidate logged(String id, double sim, double q) {
    return new Candidate(id, sim, q, 0, false, 0);
  }

  @Test
  void greedyTopK2_byTheLoggedSimilarityAndUtility() {
    List<Candidate> pool = List.of(logged("m1", 0.6, 0.0), logged("m2", 0.9, 0.5), logged("m3", 0.8, -0.2),
        logged("m4", 0.95, -50));
    MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL).toBuilder().k2(2).qMin(-10).build();
    assertThat(OfflineSelection.select(pool, c)).containsExactly("m2", "m3"); // m4 is below q_min
  }

  @Test
  void ties_goByTheIdsSequence_notByTheLoggedOrder() {
    // logged newest first (the logging policy's order); every candidate ties on similarity and utility
    List<Candidate> pool = List.of(logged("m12", 0.9, 0), logged("m3", 0.9, 0), logged("m7", 0.9, 0), logged("x", 0.9, 0));
    MemLoopConfig oldest = MemLoopConfig.preset(Preset.MEMRL).toBuilder().k2(3)
        .tieBreak(MemLoopConfig.TieBreak.OLDEST_FIRST).build();
    assertThat(OfflineSelection.select(pool, oldest)).containsExactly("x", "m3", "m7"); // another id form: oldest
    MemLoopConfig newest = oldest.toBuilder().tieBreak(MemLoopConfig.TieBreak.NEWEST_FIRST).build();
    assertThat(OfflineSelection.select(pool, newest)).containsExactly("m12", "m7", "m3");
  }

  @Test
  void explorationAndPerTaskLearning_ofTheConfiguration_areNotEvaluated() {
    List<Candidate> pool = List.of(logged("m1", 0.9, 0.1), logged("m2", 0.8, 0.9), logged("m3", 0.7, 0.2));
    MemLoopConfig greedy = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(1).build();
    MemLoopConfig exploring = greedy.toBuilder().exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(1).build();
    assertThat(OfflineSelection.select(pool, exploring)).isEqualTo(OfflineSelection.select(pool, greedy));
  }

  /** A logged pool of {@code intents} intents at similarities 0.95, 0.90, ...; two memories share the first one's. */
  private static List<Candidate> intents(int intents) {
    List<Candidate> pool = new java.util.ArrayList<>();
    pool.add(logged("m100", 0.95, 0));
    for (int i = 0; i < intents; i++) {
      pool.add(logged("m" + i, 0.95 - 0.05 * i, 0));
    }
    return pool;
  }

  private static List<String> ids(OfflineSelection.Recalled r) {
    return r.pool().stream().map(Candidate::memoryId).toList();
  }

  @Test
  void recall_keepsWhatTheConfigurationWouldRecall_andSaysWhetherTheLogHoldsAllOfIt() {
    MemLoopConfig memrl = MemLoopConfig.preset(Preset.MEMRL); // k1 = 5, delta = 0.5, no wider first recall
    MemLoopConfig narrow = memrl.toBuilder().k1(3).build();
    // the log is memrl's full recall of five intents (six memories: two share the first intent)
    OfflineSelection.Recalled r = OfflineSelection.recall(intents(5), narrow, narrow.k1(), memrl);
    assertThat(ids(r)).as("the three most similar intents, every memory of each").containsExactly("m100", "m0", "m1", "m2");
    assertThat(r.complete()).isTrue();
    assertThat(OfflineSelection.recall(intents(5), memrl, 5, memrl)).satisfies(x -> {
      assertThat(x.pool()).hasSize(6);
      assertThat(x.complete()).isTrue();
    });
    // eight intents wanted where the log holds memrl's top five: what lies beyond the fifth is not in the log
    assertThat(OfflineSelection.recall(intents(5), memrl, 8, memrl).complete()).isFalse();
    // ... unless this configuration's gate cuts below the fifth logged intent (0.75) anyway
    MemLoopConfig gated = memrl.toBuilder().similarityThreshold(0.82).build();
    OfflineSelection.Recalled g = OfflineSelection.recall(intents(5), gated, 8, memrl);
    assertThat(ids(g)).containsExactly("m100", "m0", "m1", "m2");
    assertThat(g.complete()).isTrue();
    // a log that recalled fewer than it asked for (three intents above memrl's gate) holds every intent above it
    assertThat(OfflineSelection.recall(intents(3), memrl, 8, memrl).complete()).isTrue();
    // ... but not the ones a lower gate admits, once more are wanted than the log holds
    MemLoopConfig lower = memrl.toBuilder().similarityThreshold(0.3).build();
    assertThat(OfflineSelection.recall(intents(3), lower, 8, memrl).complete()).isFalse();
    assertThat(OfflineSelection.recall(intents(3), lower, 2, memrl).complete()).isTrue();
    // a log of a wider first recall (eight intents, more than its k1) holds eight
    MemLoopConfig dflt = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().firstEncounterK1(8).build();
    assertThat(OfflineSelection.recall(intents(8), dflt, 8, dflt).complete()).isTrue();
    assertThat(OfflineSelection.recall(intents(8), dflt, 9, dflt).complete()).isFalse();
    assertThat(OfflineSelection.recall(intents(5), dflt, 8, memrl).complete()).as("default's first recall on memrl's log").isFalse();
  }
}
