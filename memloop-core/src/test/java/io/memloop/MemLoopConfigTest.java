package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MemLoopConfigTest {

  @Test
  void memrlPreset_matchesTheReferenceCode() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.MEMRL);
    assertThat(c.k1()).isEqualTo(5);
    assertThat(c.k2()).isEqualTo(3);
    assertThat(c.lambda()).isEqualTo(0.5);
    assertThat(c.similarityThreshold()).isEqualTo(0.5);
    assertThat(c.alpha()).isEqualTo(0.3);
    assertThat(c.rewardMin()).isEqualTo(-1);
    assertThat(c.rewardMax()).isEqualTo(1);
    assertThat(c.initialQ(Outcome.SUCCESS)).isZero();
    assertThat(c.initialQ(Outcome.FAILURE)).isZero();
    assertThat(c.qMin()).isEqualTo(-10);
    assertThat(c.mergeThreshold()).isEqualTo(0.9);
    assertThat(c.epsilon()).isZero();
    assertThat(c.exploration()).isEqualTo(MemLoopConfig.Exploration.NONE);
    assertThat(c.similarityNormalization()).isEqualTo(MemLoopConfig.SimilarityNormalization.FIXED);
  }

  @Test
  void similarityPreset_isPlainRag() {
    MemLoopConfig c = MemLoopConfig.preset(Preset.SIMILARITY);
    assertThat(c.lambda()).isZero();
    assertThat(c.alpha()).isZero();
  }

  @Test
  void set_overridesAnyKnobByName() {
    MemLoopConfig c =
        MemLoopConfig.preset(Preset.MEMRL).toBuilder()
            .set("k1", "10")
            .set("simMean", "0.4")
            .set("similarityNormalization", "pool")
            .set("epsilon", "0.1")
            .set("exploration", "epsilon-greedy")
            .set("retrievalTtl", "PT2H")
            .set("qInit", "0.5")
            .set("qInitFailure", "-0.5")
            .build();
    assertThat(c.k1()).isEqualTo(10);
    assertThat(c.simMean()).isEqualTo(0.4);
    assertThat(c.similarityNormalization()).isEqualTo(MemLoopConfig.SimilarityNormalization.POOL);
    assertThat(c.exploration()).isEqualTo(MemLoopConfig.Exploration.EPSILON_GREEDY);
    assertThat(c.retrievalTtl()).isEqualTo(Duration.ofHours(2));
    assertThat(c.initialQ(Outcome.SUCCESS)).isEqualTo(0.5);
    assertThat(c.initialQ(Outcome.FAILURE)).isEqualTo(-0.5);
    assertThat(MemLoopConfig.builder().set("retrievalTtl", "90").build().retrievalTtl())
        .isEqualTo(Duration.ofSeconds(90));
  }

  @Test
  void everyKnobNameIsSettable() {
    for (String knob : MemLoopConfig.KNOBS) {
      String value =
          switch (knob) {
            case "exploration" -> "none";
            case "similarityNormalization" -> "fixed";
            case "similarityScope" -> "intent-group";
            case "tieBreak" -> "newest_first";
            case "consolidation" -> "exact-duplicates";
            case "taskLearning" -> "on";
            case "mergeScope" -> "retrieved";
            case "noteDepth" -> "newest";
            case "textSimilarity" -> "off";
            case "doubt" -> "off";
            case "directionsUse" -> "always";
            case "textAlone" -> "never";
            case "exploreAfterFailures" -> "3";
            case "retrievalTtl" -> "PT1M";
            case "k1", "k2" -> "2";
            case "rewardMax", "simStd" -> "1";
            case "rewardMin" -> "-1";
            default -> "0";
          };
      MemLoopConfig.builder().set(knob, value).build();
    }
  }

  @Test
  void settingsRecordedBeforeTheScopeTieBreakAndConsolidationKnobs_readAsTheBehaviourOfThen() {
    Map<String, String> old = new java.util.LinkedHashMap<>(MemLoopConfig.preset(Preset.MEMRL).toSettings());
    old.keySet().removeAll(
        List.of("similarityScope", "tieBreak", "consolidation", "taskLearning", "exploreAfterFailures", "exploreBudget",
            "maxMemories", "mergeScope", "gamma", "noteDepth"));
    assertThat(MemLoopConfig.fromSettings(old)).isEqualTo(MemLoopConfig.preset(Preset.MEMRL));
  }

  @Test
  void defaultPreset_differsFromMemrlOnlyWhereDocumented() {
    assertThat(MemLoopConfig.preset(Preset.MEMRL).differences(MemLoopConfig.preset(Preset.DEFAULT)))
        .containsExactlyInAnyOrder(
            "lambda 0.5 -> 0.0", "similarityNormalization FIXED -> POOL", "similarityScope INTENT_GROUP -> MEMORY",
            "tieBreak OLDEST_FIRST -> NEWEST_FIRST", "consolidation NONE -> MERGE_FAILURES", "firstEncounterK2 0 -> 8", "firstEncounterK1 0 -> 32", "freshness 0.0 -> 0.75",
            "similarityDirections 0 -> 8", "textSimilarity OFF -> LEARNED", "doubt OFF -> NOTES_FIRST", "directionsUse ALWAYS -> LEARNED", "textAlone NEVER -> LEARNED",
            "taskLearning OFF -> ON",
            "mergeScope NEAREST -> RETRIEVED");
  }

  @Test
  void toBuilder_roundTrips() {
    for (Preset p : Preset.values()) {
      MemLoopConfig c = MemLoopConfig.preset(p);
      assertThat(c.toBuilder().build()).isEqualTo(c);
    }
  }

  @Test
  void build_withInvalidValue_namesTheField() {
    assertThatThrownBy(() -> MemLoopConfig.builder().k2(0).build())
        .isInstanceOf(MemLoopException.class)
        .hasMessage("k2: must be in [1, 1000], got 0");
    assertThatThrownBy(() -> MemLoopConfig.builder().lambda(1.5).build()).hasMessageStartingWith("lambda:");
    assertThatThrownBy(() -> MemLoopConfig.builder().alpha(Double.NaN).build()).hasMessageStartingWith("alpha:");
    assertThatThrownBy(() -> MemLoopConfig.builder().rewardMin(2).build())
        .hasMessage("rewardMin: 2.0 conflicts with rewardMax=1.0; rewardMin must be below rewardMax");
    assertThatThrownBy(() -> MemLoopConfig.builder().simStd(0).build()).hasMessageStartingWith("simStd:");
    assertThatThrownBy(() -> MemLoopConfig.builder().retrievalTtl(Duration.ZERO).build())
        .hasMessageStartingWith("retrievalTtl:");
  }

  @Test
  void build_rejectsValuesThatWouldOverflowOrBlowUp() {
    assertThatThrownBy(() -> MemLoopConfig.builder().k1(MemLoopConfig.MAX_K1 + 1).build()).hasMessageStartingWith("k1: must be in [1, 10000]");
    // 4.9e-324 is positive, but (sim - mean) / simStd would be infinite.
    assertThatThrownBy(() -> MemLoopConfig.builder().simStd(4.9e-324).build()).hasMessageStartingWith("simStd: must be in [1.0E-6, 2.0]");
    assertThatThrownBy(() -> MemLoopConfig.builder().simMean(7).build()).hasMessageStartingWith("simMean:");
    assertThatThrownBy(() -> MemLoopConfig.builder().set("retrievalTtl", "9223372036854775807").build())
        .hasMessageStartingWith("retrievalTtl: must be positive and at most 36500 days");
    assertThatThrownBy(() -> MemLoopConfig.builder().set("retrievalTtl", "PT99999999999999999H"))
        .hasMessageStartingWith("retrievalTtl: expected an ISO-8601 duration");
    assertThatThrownBy(() -> MemLoopConfig.builder().set("k1", "99999999999")).hasMessage("k1: is out of range, got 99999999999");
  }

  @Test
  void set_parsesNumbersStrictly() {
    for (String bad : new String[] {"1d", "0x1p0", " 1", "1 ", "NaN", "", "1,5", "1e", "--1", "١"}) {
      assertThatThrownBy(() -> MemLoopConfig.builder().set("alpha", bad))
          .as("alpha=%s", bad)
          .isInstanceOf(MemLoopException.class)
          .hasMessageStartingWith("alpha: expected a decimal number");
    }
    for (String bad : new String[] {"1.0", " 2", "0x2", "2L"}) {
      assertThatThrownBy(() -> MemLoopConfig.builder().set("k1", bad)).as("k1=%s", bad).hasMessageStartingWith("k1: expected an integer");
    }
    assertThat(MemLoopConfig.builder().set("alpha", ".5").build().alpha()).isEqualTo(0.5);
    assertThat(MemLoopConfig.builder().set("alpha", "5e-1").build().alpha()).isEqualTo(0.5);
    assertThat(MemLoopConfig.builder().set("qMin", "-Infinity").build().qMin()).isEqualTo(Double.NEGATIVE_INFINITY);
  }

  @Test
  void build_withEpsilonButNoExploration_namesTheConflict() {
    assertThatThrownBy(
            () -> MemLoopConfig.builder().epsilon(0.1).exploration(MemLoopConfig.Exploration.NONE).build())
        .hasMessage("exploration: NONE conflicts with epsilon=0.1; set exploration EPSILON_GREEDY or epsilon 0");
  }

  @Test
  void set_withUnknownKnobOrBadValue_namesIt() {
    assertThatThrownBy(() -> MemLoopConfig.builder().set("kappa", "1"))
        .isInstanceOf(MemLoopException.class)
        .hasMessageStartingWith("kappa: unknown knob");
    assertThatThrownBy(() -> MemLoopConfig.builder().set("k1", "five")).hasMessage("k1: expected an integer, got 'five'");
    assertThatThrownBy(() -> MemLoopConfig.builder().set("exploration", "softmax"))
        .hasMessageStartingWith("exploration: unknown value 'softmax'");
    assertThatThrownBy(() -> Preset.parse("fancy")).hasMessageStartingWith("preset: unknown preset 'fancy'");
  }
}
