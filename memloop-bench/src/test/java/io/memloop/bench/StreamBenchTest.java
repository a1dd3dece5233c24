package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.bench.strategy.HindsightRun;
import io.memloop.bench.strategy.MemoryRun;
import io.memloop.bench.strategy.Recall;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embeddings.HashingEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stream mode end to end on {@link FakeStreamWorld}: the loop, the metrics, the summary and the files. */
class StreamBenchTest {
  private static final HashingEmbedder EMBEDDER = new HashingEmbedder(64);
  private static final StreamShape SHAPE = new StreamShape(300, 0.5, 0.5);
  private static final List<String> STRATEGIES = List.of("no-memory", "rag", "memrl", "default", "oracle");
  private static final List<String> windows = new ArrayList<>();
  private static StreamReport report;

  private static StreamOptions options() {
    return StreamOptions.defaults().withShape(SHAPE)
        .withBench(BenchOptions.quick().withSeeds(List.of(1L, 2L)).withStrategies(STRATEGIES));
  }

  private static StreamBench.Worlds fake() {
    return (env, seed) -> Optional.of(new StreamBench.Opened(FakeStreamWorld.source().stream(seed, SHAPE), () -> {}));
  }

  @BeforeAll
  static void run() {
    report = StreamBench.run(EMBEDDER, options(), 2, (env, strategy, seed, window, acc) -> {
      synchronized (windows) {
        windows.add(env + "/" + strategy + "/" + seed + "/" + window);
      }
    }, List.of("fake"), fake());
  }

  @Test
  void everyRunPlaysEveryInstanceOnce_andReportsEveryWindow() {
    assertThat(windows).hasSize(2 * STRATEGIES.size() * 3);
    StreamEnvironmentSummary env = report.environment("fake").orElseThrow();
    assertThat(env.length()).isEqualTo(300);
    assertThat(env.driftAt()).isEqualTo(150);
    assertThat(env.kinds()).isEqualTo(4);
    assertThat(env.driftingKinds()).isEqualTo(2);
    assertThat(env.strategies()).extracting(StreamStrategySummary::strategy).containsExactlyElementsOf(STRATEGIES);
    for (StreamReport.Run run : report.runs()) {
      assertThat(run.result().rows()).extracting(StreamRow::index).containsExactlyElementsOf(
          java.util.stream.IntStream.range(0, 300).boxed().toList());
      assertThat(run.result().memoryCounts()).hasSize(3);
    }
  }

  @Test
  void memoryHelpsOnNeverSeenInstances_theFloorHasNoMemory_andTheOracleHasNoRegret() {
    StreamEnvironmentSummary env = report.environment("fake").orElseThrow();
    StreamStrategySummary none = env.strategy("no-memory").orElseThrow();
    StreamStrategySummary rag = env.strategy("rag").orElseThrow();
    assertThat(none.success().mean()).isBetween(0.2, 0.4); // the policy's guesses alone
    assertThat(rag.success().mean()).isGreaterThan(none.success().mean() + 0.3);
    assertThat(none.memories().mean()).isZero();
    assertThat(rag.memories().mean()).isEqualTo(300);
    assertThat(env.strategy("oracle").orElseThrow().regret().mean()).isZero();
    assertThat(none.regret().mean()).isPositive();
    assertThat(none.curve()).hasSize(3);
    assertThat(none.regretCurve()).hasSize(3);
  }

  @Test
  void theDriftMakesOldSuccessesFail_andDefaultsComparisonsArePairedOverTheSeeds() {
    StreamEnvironmentSummary env = report.environment("fake").orElseThrow();
    StreamStrategySummary rag = env.strategy("rag").orElseThrow();
    assertThat(rag.recoveryEpisodes().n()).isEqualTo(2);
    assertThat(rag.dip().mean()).isLessThan(0.5); // a stale success is copied on the drifting kind
    assertThat(rag.misledRate().mean()).isPositive();
    List<StreamEnvironmentSummary.Comparison> cs = env.comparisons();
    assertThat(cs).extracting(StreamEnvironmentSummary.Comparison::against).containsExactly("no-memory", "rag", "memrl");
    assertThat(cs).allSatisfy(c -> {
      assertThat(c.success().n()).isEqualTo(2);
      assertThat(c.recovery()).isPresent();
      assertThat(c.recoveryToCommonLevel()).isPresent();
    });
    StreamEnvironmentSummary.Comparison headline = env.headline().orElseThrow();
    assertThat(headline.against()).isEqualTo(env.bestBaseline().orElseThrow().strategy()).isNotEqualTo("oracle");
    assertThat(report.overall()).isEmpty(); // one environment: no average over environments
    assertThat(report.toText()).contains("fake: default").contains("| rag |").contains("to the lower of the two levels")
        .doesNotContain("**");
  }

  @Test
  void aVariantOfDefault_isComparedButIsNeverTheBestBaseline() {
    StreamEnvironmentSummary env = report.environment("fake").orElseThrow();
    // the oracle's runs under an ablation's name: better than every baseline, and still not the baseline
    StreamStrategySummary o = env.strategy("oracle").orElseThrow();
    StreamStrategySummary variant = new StreamStrategySummary("default-narrow-first-recall", o.success(), o.successBeforeDrift(),
        o.successAfterDrift(), o.regret(), o.recoveryEpisodes(), o.recovered(), o.dip(), o.memories(), o.shownChars(),
        o.misledRate(), o.wallSeconds(), o.curve(), o.regretCurve(), o.memoryCurve(), o.runs());
    List<StreamStrategySummary> with = new java.util.ArrayList<>(env.strategies());
    with.add(variant);
    StreamEnvironmentSummary withVariant = new StreamEnvironmentSummary(env.environment(), env.length(), env.driftAt(),
        env.kinds(), env.driftingKinds(), with);
    assertThat(withVariant.bestBaseline()).isEqualTo(env.bestBaseline());
    assertThat(withVariant.comparisons()).extracting(StreamEnvironmentSummary.Comparison::against)
        .contains("default-narrow-first-recall");
  }

  @Test
  void theOracleSolvesEveryEpisodeAnyStrategyOfItsRunSolves() {
    for (long seed : List.of(1L, 2L)) {
      List<StreamRun> runs = report.runs().stream().map(StreamReport.Run::result).filter(r -> r.seed() == seed).toList();
      StreamRun oracle = runs.stream().filter(r -> r.strategy().equals("oracle")).findFirst().orElseThrow();
      for (StreamRun r : runs) {
        for (int i = 0; i < r.rows().size(); i++) {
          assertThat(oracle.rows().get(i).success() || !r.rows().get(i).success())
              .as("%s seed %d episode %d", r.strategy(), seed, i).isTrue();
        }
      }
    }
  }

  @Test
  void sameSeed_sameEpisodes_andEveryStrategyMeetsTheSameLuck() {
    StreamWorld world = FakeStreamWorld.source().stream(2, SHAPE);
    StreamLoop loop = new StreamLoop("fake", world, IntentEmbeddings.of(EMBEDDER, StreamLoop.intents(world)));
    StreamRun a = loop.run(Strategy.preset(io.memloop.Preset.MEMRL), 2, w -> {});
    StreamRun b = loop.run(Strategy.preset(io.memloop.Preset.MEMRL), 2, w -> {});
    assertThat(a.rows()).isEqualTo(b.rows());
    // No memory's episode i depends on (seed, environment, i) only, as in the bench run
    StreamRun floor = loop.run(Strategy.noMemory(), 2, w -> {});
    StreamRun inBench = report.runs().stream().map(StreamReport.Run::result)
        .filter(r -> r.strategy().equals("no-memory") && r.seed() == 2).findFirst().orElseThrow();
    assertThat(floor.rows()).isEqualTo(inBench.rows());
  }

  @Test
  void aHindsightRunPlaysTheEpisodeItself_withTheSameRandomNumbersForEveryView() {
    StreamWorld world = FakeStreamWorld.source().stream(3, SHAPE);
    StreamLoop loop = new StreamLoop("fake", world, IntentEmbeddings.of(EMBEDDER, StreamLoop.intents(world)));
    List<Boolean> sameLuck = new ArrayList<>();
    Strategy hindsight = new Strategy() {
      @Override
      public String name() {
        return "hindsight";
      }

      @Override
      public MemoryRun start(int dimension, long seed) {
        return new Hindsight(attempt -> {
          Episode first = attempt.apply(List.of());
          Episode again = attempt.apply(List.of());
          sameLuck.add(first.success() == again.success() && first.experience().equals(again.experience()));
          return first;
        });
      }
    };
    StreamRun run = loop.run(hindsight, 3, w -> {});
    StreamRun floor = loop.run(Strategy.noMemory(), 3, w -> {});
    assertThat(sameLuck).hasSize(300).containsOnly(true);
    assertThat(run.rows()).extracting(StreamRow::success).containsExactlyElementsOf(
        floor.rows().stream().map(StreamRow::success).toList());
    assertThat(run.memoryCounts()).containsOnly(7L); // its own count, not learned through learn()
  }

  /** A hindsight run that plays each episode with {@code play} and never stores anything. */
  private record Hindsight(Function<Function<List<Memory>, Episode>, Episode> play) implements HindsightRun {
    @Override
    public Played play(Task seen, float[] intentEmbedding, Function<List<Memory>, Episode> attempt, boolean learn) {
      assertThat(seen.id()).startsWith("task-"); // strategies see opaque ids
      assertThat(learn).isTrue();
      Episode e = play.apply(attempt);
      assertThat(e.task()).isEqualTo(seen);
      return new Played(new Recall("", List.of(), 0), e);
    }

    @Override
    public void preload(PriorExperience prior, float[] intentEmbedding) {}

    @Override
    public Recall recall(Task task, float[] intentEmbedding) {
      throw new AssertionError("the loop must call play for a hindsight run");
    }

    @Override
    public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
      throw new AssertionError("the loop must call play for a hindsight run");
    }

    @Override
    public long memoryCount() {
      return 7;
    }

    @Override
    public Map<String, Double> utilities() {
      return Map.of();
    }

    @Override
    public void close() {}
  }

  @Test
  void files_summaryStreamSection_episodesWithPhaseStream_andThePage(@TempDir Path dir) throws Exception {
    StreamData.write(report, dir);
    Path index = StreamReportWriter.write(report, dir);
    JsonNode summary = BenchData.JSON.readTree(dir.resolve("summary.json").toFile());
    assertThat(summary.path("mode").asText()).isEqualTo("stream");
    JsonNode stream = summary.path("stream");
    assertThat(iterable(stream.fieldNames())).containsExactly("length", "driftAt", "driftedShare", "window", "environments");
    JsonNode fake = stream.path("environments").path("fake");
    assertThat(fake.path("driftIndex").asInt()).isEqualTo(150);
    JsonNode rag = fake.path("strategies").path("rag");
    assertThat(iterable(rag.fieldNames())).containsExactly("success", "successBeforeDrift", "successAfterDrift", "regret",
        "recoveryEpisodes", "recovered", "dip", "misledRate", "memories", "shownChars", "wallSeconds", "curve",
        "regretCurve", "memoryCurve");
    assertThat(rag.path("curve")).hasSize(3);
    assertThat(fake.path("defaultVsBaselines")).hasSize(3);
    assertThat(fake.path("defaultOverBestBaseline").path("success").path("n").asInt()).isEqualTo(2);
    assertThat(fake.path("defaultOverBestBaseline").path("recoveryEpisodesToCommonLevel").path("n").asInt()).isEqualTo(2);
    List<String> lines = Files.readAllLines(dir.resolve("episodes.jsonl"));
    assertThat(lines).hasSize(2 * STRATEGIES.size() * 300);
    JsonNode row = BenchData.JSON.readTree(lines.get(0));
    assertThat(row.path("phase").asText()).isEqualTo("stream");
    assertThat(iterable(row.fieldNames())).contains("index", "kind", "driftingKind", "afterDrift", "success", "shown");
    assertThat(Files.readAllLines(dir.resolve("episodes.csv"))).hasSize(1 + lines.size());
    String html = Files.readString(index);
    assertThat(html).contains("stream-curve-fake.png", "stream-regret-fake.png", "stream-memories-fake.png", "recovery",
        "recovery to the common level");
    assertThat(dir.resolve("stream-curve-fake.svg")).exists();
  }

  @Test
  void environmentsWithoutAStream_areLeftOut_andNoneAtAllIsRefused() {
    StreamBench.Worlds none = (env, seed) -> Optional.empty();
    assertThatThrownBy(() -> StreamBench.run(EMBEDDER, options(), 1, (e, s, seed, w, a) -> {}, List.of("x", "y"), none))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("environments: none of x, y serves a stream");
    StreamBench.Worlds onlyFake = (env, seed) -> env.equals("fake") ? fake().open(env, seed) : Optional.empty();
    StreamReport r = StreamBench.run(EMBEDDER, options().withBench(options().bench().withSeeds(List.of(5L))
        .withStrategies(List.of("no-memory"))), 1, (e, s, seed, w, a) -> {}, List.of("x", "fake"), onlyFake);
    assertThat(r.environments()).extracting(StreamEnvironmentSummary::environment).containsExactly("fake");
  }

  @Test
  void aStreamOneEnvironmentCannotSupply_isRefusedBeforeAnyRunStarts() {
    List<String> heard = new ArrayList<>();
    StreamBench.Worlds secondTooShort = (env, seed) -> {
      if (env.equals("short")) {
        throw MemLoopException.invalid("streamLength", "short (seed " + seed + "): too long");
      }
      return fake().open(env, seed);
    };
    assertThatThrownBy(() -> StreamBench.run(EMBEDDER, options(), 1, (e, s, seed, w, a) -> heard.add(e), List.of("fake",
        "short"), secondTooShort))
        .isInstanceOf(MemLoopException.class).hasMessage("streamLength: short (seed 1): too long");
    assertThat(heard).as("no window of the first environment ran").isEmpty();
  }

  @Test
  void aStreamLongerThanAnEnvironmentSupplies_namesTheEnvironmentAndSeed() {
    StreamOptions tooLong = StreamOptions.defaults().withShape(new StreamShape(100_000, 0.5, 0.5))
        .withBench(BenchOptions.quick().withSeeds(List.of(3L)).withStrategies(List.of("no-memory")))
        .withEnvironments(List.of("hard-questions"));
    assertThatThrownBy(() -> StreamBench.run(EMBEDDER, tooLong, 1, (e, s, seed, w, a) -> {}))
        .isInstanceOf(MemLoopException.class)
        .hasMessageStartingWith("streamLength: hard-questions (seed 3): this environment supplies at most ")
        .hasMessageEndingWith(" never-seen instances at this size, got 100000 (choose a shorter --stream-length)");
  }

  private static List<String> iterable(Iterator<String> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
