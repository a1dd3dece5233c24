package io.memloop.bench;

import io.memloop.embeddings.HashingEmbedder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DemoTest {
  private static final DemoOptions SMALL = DemoOptions.defaults().withSize(8, 2).withEpochs(3).withSeed(5);

  @Test
  void run_reportsEachStrategyPerEpoch() {
    DemoReport report = Demo.run(new HashingEmbedder(64), SMALL);
    assertThat(report.curves())
        .extracting(LearningCurve::strategy)
        .containsExactly("no-memory", "similarity", "memrl", "default");
    assertThat(report.curves()).allSatisfy(c -> {
      assertThat(c.epochs()).isEqualTo(3);
      assertThat(c.seed()).isEqualTo(5);
      assertThat(c.epochAccuracy()).allSatisfy(a -> assertThat(a).isBetween(0.0, 1.0));
    });
    assertThat(report.curve("no-memory").orElseThrow().memoryCounts()).containsExactly(0L, 0L, 0L);
    // 16 tasks, 4 of them with a stale memory: 4 + 16 per epoch.
    assertThat(report.curve("memrl").orElseThrow().memoryCounts()).containsExactly(20L, 36L, 52L);
    assertThat(report.modelId()).isEqualTo("hashing-v1-64");
    assertThat(report.environment()).isEqualTo("recurring-ops");
  }

  @Test
  void run_sameOptions_sameTable() {
    assertThat(Demo.run(new HashingEmbedder(64), SMALL).toTable())
        .isEqualTo(Demo.run(new HashingEmbedder(64), SMALL).toTable());
  }

  @Test
  void toTable_hasAHeaderARowPerStrategyAndALegend() {
    String table = Demo.run(new HashingEmbedder(64), SMALL).toTable();
    List<String> lines = table.lines().toList();
    assertThat(lines).hasSize(1 + 1 + 4 + 2);
    assertThat(lines.get(0))
        .startsWith("recurring-ops: 16 tasks (8 families x 2 look-alike twins), stale memories for 25% of tasks")
        .endsWith("3 epochs, seed 5, embedder hashing-v1-64");
    assertThat(lines.get(1)).matches("strategy\\s+ep1\\s+ep2\\s+ep3\\s+\\|\\s+CSR forget memories");
    String number = "\\d\\.\\d\\d";
    assertThat(lines.get(2))
        .matches("no-memory(\\s+" + number + "){3}\\s+\\|\\s+" + number + "\\s+(" + number + "|-)\\s+0");
    assertThat(lines.get(3)).startsWith("similarity ");
    assertThat(lines.get(4)).startsWith("memrl ");
    assertThat(lines.get(5)).startsWith("default ");
    assertThat(table).endsWith("\n");
  }

  @Test
  void run_reportsProgress_andLeavesTheEmbedderOpen() {
    List<String> progress = new ArrayList<>();
    boolean[] closed = {false};
    Embedder embedder = new Embedder() {
      final HashingEmbedder inner = new HashingEmbedder(64);

      @Override
      public int dimension() {
        return inner.dimension();
      }

      @Override
      public String modelId() {
        return inner.modelId();
      }

      @Override
      public List<float[]> embedAll(List<String> texts) {
        return inner.embedAll(texts);
      }

      @Override
      public void close() {
        closed[0] = true;
      }
    };
    Demo.run(embedder, SMALL, progress::add);
    assertThat(closed[0]).isFalse();
    assertThat(progress).containsExactly("embedding 16 task intents with hashing-v1-64",
        "running no-memory: 3 epochs", "running similarity: 3 epochs", "running memrl: 3 epochs",
        "running default: 3 epochs");
  }

  @Test
  void options_outOfRange_nameTheField() {
    assertThatThrownBy(() -> DemoOptions.defaults().withEpochs(0))
        .isInstanceOfSatisfying(MemLoopException.class, e -> {
          assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT);
          assertThat(e.field()).isEqualTo("epochs");
        });
    assertThatThrownBy(() -> DemoOptions.defaults().withSize(0, 2))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("families"));
    assertThatThrownBy(() -> DemoOptions.defaults().withSize(10, 9))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("twinsPerFamily"));
    assertThatThrownBy(() -> DemoOptions.defaults().withStaleShare(-0.1))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("staleShare"));
  }

  @Test
  void defaults_fitTheRuntimeBudget() {
    DemoOptions d = DemoOptions.defaults();
    assertThat(d.tasks()).isBetween(40, 80);
    assertThat(d.epochs()).isBetween(3, 10);
  }
}
