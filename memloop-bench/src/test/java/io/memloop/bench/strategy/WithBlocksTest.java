package io.memloop.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import org.junit.jupiter.api.Test;

/**
 * {@link Strategy#withBlocks}: with a two-model embedder every engine strategy splits vectors into its blocks, except
 * one whose configuration names a count ({@code default-equal-blocks}); plain baselines have no engine to split.
 */
class WithBlocksTest {
  private static int blocksOf(Strategy s) {
    try (MemoryRun run = s.start(8, 1)) {
      return ((EngineRun) run).loop.config().similarityBlocks();
    }
  }

  @Test
  void engineStrategies_takeTheEmbeddersBlocks_unlessTheyNameACount() {
    assertThat(blocksOf(Strategy.preset(Preset.DEFAULT))).isZero();
    assertThat(blocksOf(Strategy.preset(Preset.DEFAULT).withBlocks(2))).isEqualTo(2);
    assertThat(blocksOf(Strategy.preset(Preset.DEFAULT).withBlocks(1))).isZero(); // one model: nothing to split
    Strategy equal = Strategy.engine("default-equal-blocks", Ablation.NAMES.get("default-equal-blocks"));
    assertThat(blocksOf(equal.withBlocks(2))).isEqualTo(1);
    assertThat(blocksOf(Strategy.engine("x", MemLoopConfig.builder().similarityBlocks(3).build()).withBlocks(2)))
        .isEqualTo(3);
    assertThat(blocksOf(Strategy.preset(Preset.DEFAULT).withBlocks(2).on(RunStore.MEMORY))).isEqualTo(2);
    Strategy rag = RagStrategy.all();
    assertThat(rag.withBlocks(2)).isSameAs(rag);
  }
}
