package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.embeddings.MiniLmEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark's honesty checks, on every environment, with the real in-process model (the hashing
 * test embedder puts look-alike tasks further apart than MiniLM does, which would understate how
 * often distractors fool similarity retrieval):
 * the oracle is the ceiling of every strategy on every episode, no memory is the floor, and each environment's distractors really
 * fool the similarity preset (measured, not assumed).
 */
class BenchTest {
  private static BenchReport report;
  private static final List<String> epochsSeen = new ArrayList<>();

  @BeforeAll
  static void runQuickBench() {
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(11L, 12L, 13L)).withEpochs(4);
    try (MiniLmEmbedder model = MiniLmEmbedder.create()) {
      report = Bench.run(model, options, (env, strategy, seed, epoch, acc) -> {
        synchronized (epochsSeen) {
          epochsSeen.add(env + "/" + strategy + "/" + seed + "/" + epoch);
        }
      });
    }
    System.out.println(report.toMarkdown()); // kept in target/surefire-reports/*-output.txt
  }

  @Test
  void everyRunReportsEveryEpoch() {
    BenchOptions o = report.options();
    assertThat(epochsSeen).hasSize((int) o.totalEpochs());
    for (EnvironmentSummary env : report.environments()) {
      assertThat(env.strategies()).extracting(StrategySummary::strategy).containsExactlyElementsOf(BenchOptions.STRATEGIES);
      for (StrategySummary s : env.strategies()) {
        assertThat(s.runs()).hasSize(3);
        assertThat(s.epochAccuracy()).hasSize(4);
      }
    }
  }

  /**
   * The oracle is the ceiling of every strategy of the run, episode by episode (training and held out): it
   * replays each episode with every other strategy's view (its shadows are their runs) and with no memory.
   * Every strategy but recent beats the floor on average; recent can fall below no-memory on sql (it shows the
   * latest failures and twins), which is what it measures.
   */
  @Test
  void oracleIsTheCeilingOfEveryStrategyOnEveryEpisode_andNoMemoryTheFloor_onAverage() {
    Map<String, List<EpisodeRow>> oracle = new HashMap<>();
    report.runs().stream().filter(r -> r.result().strategy().equals("oracle"))
        .forEach(r -> oracle.put(r.environment() + "/" + r.result().seed(), episodes(r.result())));
    int compared = 0;
    for (BenchReport.Run run : report.runs()) {
      List<EpisodeRow> ceiling = oracle.get(run.environment() + "/" + run.result().seed());
      List<EpisodeRow> episodes = episodes(run.result());
      assertThat(ceiling).hasSameSizeAs(episodes);
      for (int i = 0; i < episodes.size(); i++) {
        EpisodeRow e = episodes.get(i);
        assertThat(ceiling.get(i).taskId()).isEqualTo(e.taskId());
        assertThat(ceiling.get(i).success() || !e.success())
            .as("%s seed %d epoch %d %s: oracle vs %s", run.environment(), e.seed(), e.epoch(), e.taskId(), e.strategy())
            .isTrue();
        compared++;
      }
    }
    assertThat(compared).isGreaterThan(1000);
    List<String> aboveFloor = List.of("rag", "similarity", "memp", "memrl", "default", "oracle");
    for (EnvironmentSummary env : report.environments()) {
      double floor = env.strategy("no-memory").orElseThrow().lastEpochAccuracy().mean();
      for (StrategySummary s : env.strategies()) {
        if (aboveFloor.contains(s.strategy())) {
          assertThat(s.lastEpochAccuracy().mean()).as("%s: %s vs no-memory", env.environment(), s.strategy())
              .isGreaterThanOrEqualTo(floor);
        }
      }
    }
  }

  private static List<EpisodeRow> episodes(RunResult run) {
    List<EpisodeRow> all = new ArrayList<>(run.rows());
    all.addAll(run.transferRows());
    return all;
  }

  @Test
  void distractorsFoolTheSimilarityPreset_butNeverMisleadTheOracleIntoAFailure() {
    for (EnvironmentSummary env : report.environments()) {
      Spread misled = env.strategy("similarity").orElseThrow().misledRate();
      assertThat(misled.isEmpty()).as(env.environment()).isFalse();
      assertThat(misled.mean()).as("%s: similarity misled rate", env.environment()).isGreaterThan(0.01); // measured with MiniLM, seeds 11-13: 0.34, 0.07, 0.09, 0.03
    }
    // Its ground-truth view never shows a misleading memory; it keeps another strategy's view (which may) only
    // when that view succeeded, and falls back to its own view when none did.
    List<EpisodeRow> oracle = report.runs().stream().filter(r -> r.result().strategy().equals("oracle"))
        .flatMap(r -> episodes(r.result()).stream()).toList();
    assertThat(oracle).isNotEmpty()
        .allSatisfy(e -> assertThat(e.firstShown() != EpisodeRow.FirstShown.MISLEADS || e.success())
            .as("%s seed %d epoch %d: misled into a failure", e.taskId(), e.seed(), e.epoch()).isTrue());
  }

  @Test
  void dataFiles_holdSummaryAndEveryEpisode(@TempDir Path dir) throws Exception {
    BenchData.write(report, dir);
    String summary = Files.readString(dir.resolve("summary.json"));
    assertThat(summary).contains("\"lastEpochAccuracy\"", "\"memrl\"", "\"oracle\"", "\"developmentSeeds\"");
    // the same run writes the same bytes: a headline's best names its strategy first, in every JVM
    assertThat(summary).containsPattern("\"best\"\\s*:\\s*\\{\\s*\"strategy\"");
    long episodes = report.runs().stream()
        .mapToLong(r -> r.result().rows().size() + r.result().transferRows().size()).sum();
    try (var lines = Files.lines(dir.resolve("episodes.jsonl"))) {
      assertThat(lines.count()).isEqualTo(episodes);
    }
    try (var lines = Files.lines(dir.resolve("episodes.csv"))) {
      assertThat(lines.count()).isEqualTo(episodes + 1);
    }
    assertThat(report.toMarkdown()).contains("| memrl |", "| oracle |", "Definitions");
  }

  @Test
  void aQuickRun_saysFirstThatItIsASmokeTest_andDefinesTheNamesOfItsFindings() {
    String markdown = report.toMarkdown();
    assertThat(markdown).startsWith("Quick run: a smoke test");
    assertThat(markdown.indexOf("Strategies: `default` is MemLoop's default preset"))
        .as("the names are defined right after the findings, before the tables")
        .isPositive().isLessThan(markdown.indexOf("### "));
    assertThat(markdown).contains("**");
    assertThat(report.toText()).as("the console gets plain text").doesNotContain("**", "`")
        .contains("Strategies: default is MemLoop's default preset");
  }

  @Test
  void badOptions_nameTheField() {
    assertThatThrownBy(() -> BenchOptions.quick().withSeeds(List.of())).isInstanceOf(MemLoopException.class).hasMessageStartingWith("seeds:");
    assertThatThrownBy(() -> BenchOptions.quick().withEpochs(0)).hasMessageStartingWith("epochs:");
    assertThatThrownBy(() -> BenchOptions.quick().withStrategies(List.of("magic"))).hasMessageContaining("unknown strategy 'magic'");
    assertThatThrownBy(() -> BenchOptions.quick().withEnvironments(List.of("moon"))).hasMessageContaining("unknown environment 'moon'");
  }

  @Test
  void everyBaselineIsANamedBenchStrategy() {
    assertThat(BenchOptions.STRATEGIES).contains("rag", "rag-success", "recent");
    assertThat(List.of("rag", "rag-success", "recent", "rag-k5"))
        .allSatisfy(n -> assertThat(Bench.strategy(n, null).name()).isEqualTo(n));
    assertThat(BenchOptions.STRATEGIES).contains("rag-k5");
  }

  @Test
  void anEngineStrategy_withKnobsChanged_runsThatConfiguration_andBadChangesNameTheField() {
    MemLoopConfig changed = BenchOptions.engineConfig("default:exploreBudget=8:firstEncounterK2=6");
    assertThat(changed).isEqualTo(MemLoopConfig.preset(Preset.DEFAULT).toBuilder().exploreBudget(8).firstEncounterK2(6).build());
    assertThat(BenchOptions.engineConfig("default-k5:k2=7")).isEqualTo(
        io.memloop.bench.strategy.Ablation.NAMES.get("default-k5").toBuilder().k2(7).build());
    assertThat(BenchOptions.engineConfig("memrl")).isEqualTo(MemLoopConfig.preset(Preset.MEMRL));
    assertThat(BenchOptions.engineConfig("rag-k5")).isNull();
    assertThat(Bench.strategy("default:exploreBudget=8", null).name()).isEqualTo("default:exploreBudget=8");
    assertThat(BenchOptions.quick().withStrategies(List.of("default", "default:k2=5")).strategies())
        .containsExactly("default", "default:k2=5");
    for (String bad : List.of("default:k2=0", "default:nothing=1", "default:k2", "default:=3", "default:k2=", "rag:k2=5")) {
      assertThatThrownBy(() -> BenchOptions.quick().withStrategies(List.of(bad)))
          .as(bad).isInstanceOf(MemLoopException.class).hasMessageStartingWith("strategies:");
    }
  }

  @Test
  void ragShowingN_isAStrategyForEveryNButRagsOwn() {
    assertThat(List.of("rag-k1", "rag-k8", "rag-k12", "rag-k50"))
        .allSatisfy(n -> assertThat(Bench.strategy(n, null).name()).isEqualTo(n));
    assertThat(BenchOptions.quick().withStrategies(List.of("rag", "rag-k8")).strategies()).containsExactly("rag", "rag-k8");
    for (String bad : List.of("rag-k0", "rag-k3", "rag-k51", "rag-k08", "rag-k", "rag-k-1")) {
      assertThatThrownBy(() -> BenchOptions.quick().withStrategies(List.of(bad)))
          .as(bad).hasMessageStartingWith("strategies:").hasMessageContaining("unknown strategy '" + bad + "'");
    }
  }
}
