package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memloop.store.InMemoryStore;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each namespace keeps the configuration it was first used (or deliberately reconfigured) with. */
class RecordedConfigTest {
  private static final float[] X = {1, 0, 0, 0};
  private final InMemoryStore store = new InMemoryStore(4);

  private MemLoop.Builder engine() {
    return MemLoop.builder().store(store).seed(1);
  }

  @Test
  void firstUse_recordsTheConfig_andALaterEngineWithoutOne_usesIt() {
    MemLoopConfig similarity = MemLoopConfig.preset(Preset.SIMILARITY);
    MemLoop first = engine().config(similarity).build();
    Retrieval r = first.retrieve("ns", Intent.ofEmbedding(X));
    assertThat(store.settings("ns")).contains(similarity.toSettings());

    MemLoop later = engine().build(); // no config given: the recorded one applies
    assertThat(later.config("ns")).isEqualTo(similarity);
    first.remember("ns", Intent.ofEmbedding(X), "e", Outcome.SUCCESS);
    Retrieval r2 = later.retrieve("ns", Intent.ofEmbedding(X));
    RewardResult rewarded = later.reward("ns", r2.id(), 1);
    assertThat(rewarded.changes().get(0).qAfter()).as("alpha 0 of the recorded similarity preset").isCloseTo(0, within(1e-12));
    assertThat(later.reward("ns", r.id(), 1).changes()).isEmpty();
  }

  @Test
  void anExplicitConfigThatDiffers_isAConflictNamingTheKnobs() {
    engine().config(MemLoopConfig.preset(Preset.SIMILARITY)).build().retrieve("ns", Intent.ofEmbedding(X));
    MemLoop memrl = engine().config(MemLoopConfig.preset(Preset.MEMRL)).build();
    assertThatThrownBy(() -> memrl.retrieve("ns", Intent.ofEmbedding(X)))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.CONFLICT))
        .hasMessageContaining("namespace 'ns' is configured differently")
        .hasMessageContaining("lambda 0.0 -> 0.5")
        .hasMessageContaining("alpha 0.0 -> 0.3");
    assertThat(store.settings("ns")).contains(MemLoopConfig.preset(Preset.SIMILARITY).toSettings());
    // other namespaces are unaffected
    assertThat(memrl.retrieve("other", Intent.ofEmbedding(X)).selected()).isEmpty();
  }

  @Test
  void reconfigure_recordsTheNewConfig() {
    engine().config(MemLoopConfig.preset(Preset.SIMILARITY)).build().retrieve("ns", Intent.ofEmbedding(X));
    MemLoop memrl = engine().config(MemLoopConfig.preset(Preset.MEMRL)).reconfigure().build();
    memrl.retrieve("ns", Intent.ofEmbedding(X));
    assertThat(memrl.config("ns")).isEqualTo(MemLoopConfig.preset(Preset.MEMRL));
    assertThat(engine().build().config("ns")).isEqualTo(MemLoopConfig.preset(Preset.MEMRL));
  }

  @Test
  void settingsRoundTripExactly_forEveryPreset_andOddValues() {
    for (Preset p : Preset.values()) {
      MemLoopConfig c = MemLoopConfig.preset(p);
      assertThat(MemLoopConfig.fromSettings(c.toSettings())).isEqualTo(c);
    }
    MemLoopConfig odd = MemLoopConfig.builder().alpha(0.1 + 0.2).qMin(Double.NEGATIVE_INFINITY)
        .exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.05)
        .set("retrievalTtl", "PT90M").build();
    assertThat(MemLoopConfig.fromSettings(odd.toSettings())).isEqualTo(odd);
  }

  @Test
  void unreadableRecordedSettings_areStoreCorrupt() {
    store.saveSettings("ns", Map.of("k1", "five"));
    assertThatThrownBy(() -> engine().build().retrieve("ns", Intent.ofEmbedding(X)))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_CORRUPT))
        .hasMessageContaining("settings recorded for namespace 'ns' are unreadable");
  }
}
