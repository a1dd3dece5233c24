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
}
