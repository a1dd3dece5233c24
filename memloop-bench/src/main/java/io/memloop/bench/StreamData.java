package io.memloop.bench;

import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The machine-readable files of a stream run, as {@link BenchData} writes them for the epoch protocol:
 * {@code summary.json} (its {@code stream} section: per environment and strategy every metric's mean and spread,
 * the curves per window, default's paired differences) and every episode in {@code episodes.jsonl} and
 * {@code episodes.csv} (phase {@code stream}). Keys keep a fixed order.
 */
public final class StreamData {
  /** The phase of stream episodes in {@code episodes.jsonl}. */
  static final String PHASE = "stream";

  private StreamData() {}

  /** Writes the three files into {@code dir} (created if missing). */
  public static void write(StreamReport report, Path dir) {
    try {
      Files.createDirectories(dir);
      BenchData.JSON.writeValue(dir.resolve("summary.json").toFile(), summary(report));
      writeEpisodes(report, dir);
    } catch (IOException e) {
      throw new UncheckedIOException("writing benchmark data to " + dir + ": " + e.getMessage(), e);
    }
  }

  static Map<String, Object> summary(StreamReport report) {
    BenchOptions o = report.options().bench();
    StreamShape shape = report.options().shape();
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("mode", PHASE);
    root.put("seeds", o.seeds());
    root.put("developmentSeeds", BenchOptions.DEVELOPMENT_SEEDS);
    root.put("size", o.size().name().toLowerCase(Locale.ROOT));
    root.put("slip", o.slip()); // null: each environment's default outcome noise
    root.put("knobs", o.knobs());
    root.put("embedder", report.modelId());
    root.put("store", o.store().label()); // where the engine's runs kept their memories: memory or lucene/FORMAT
    root.put("policy", "frozen");
    root.put("wallSeconds", report.wallSeconds());
    Map<String, Object> stream = new LinkedHashMap<>();
    stream.put("length", shape.length());
    stream.put("driftAt", shape.driftAt());
    stream.put("driftedShare", shape.driftedShare());
    stream.put("window", StreamMetrics.WINDOW);
    Map<String, Object> envs = new LinkedHashMap<>();
    for (StreamEnvironmentSummary env : report.environments()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("episodes", env.length());
      e.put("driftIndex", env.driftAt());
      e.put("kinds", env.kinds());
      e.put("driftingKinds", env.driftingKinds());
      Map<String, Object> strategies = new LinkedHashMap<>();
      for (StreamStrategySummary s : env.strategies()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("success", BenchData.spread(s.success()));
        m.put("successBeforeDrift", BenchData.spread(s.successBeforeDrift()));
        m.put("successAfterDrift", BenchData.spread(s.successAfterDrift()));
        m.put("regret", BenchData.spread(s.regret()));
        m.put("recoveryEpisodes", BenchData.spread(s.recoveryEpisodes()));
        m.put("recovered", s.recovered());
        m.put("dip", BenchData.spread(s.dip()));
        m.put("misledRate", BenchData.spread(s.misledRate()));
        m.put("memories", BenchData.spread(s.memories()));
        m.put("shownChars", BenchData.spread(s.shownChars()));
        m.put("wallSeconds", BenchData.spread(s.wallSeconds()));
        m.put("curve", s.curve().stream().map(BenchData::spread).toList());
        m.put("regretCurve", s.regretCurve().stream().map(BenchData::spread).toList());
        m.put("memoryCurve", s.memoryCurve().stream().map(BenchData::spread).toList());
        strategies.put(s.strategy(), m);
      }
      e.put("strategies", strategies);
      e.put("defaultVsBaselines", env.comparisons().stream().map(StreamData::comparison).toList());
      env.headline().ifPresent(h -> e.put("defaultOverBestBaseline", comparison(h)));
      envs.put(env.environment(), e);
    }
    stream.put("environments", envs);
    report.overall().ifPresent(ov -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("baselines", ov.baselines());
      m.putAll(difference(ov.difference()));
      stream.put("overall", m);
    });
    root.put("stream", stream);
    return root;
  }

  private static Map<String, Object> comparison(StreamEnvironmentSummary.Comparison c) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("strategy", c.strategy());
    o.put("against", c.against());
    o.put("success", difference(c.success()));
    o.put("recoveryEpisodes", c.recovery().map(StreamData::recoveryDifference).orElse(null));
    o.put("recoveryEpisodesToCommonLevel", c.recoveryToCommonLevel().map(StreamData::recoveryDifference).orElse(null));
    o.put("recoveryTiedAtFirstWindow", c.recoveryToCommonLevel().isPresent() ? c.tiedAtFirstWindow() : null);
    o.put("recoveryEpisodesToCommonLevelAtBest", c.bestToCommonLevel().map(StreamData::recoveryDifference).orElse(null));
    return o;
  }

  private static Map<String, Object> difference(Headline.Difference d) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("meanDifference", d.mean());
    o.put("ci95Low", d.low());
    o.put("ci95High", d.high());
    o.put("n", d.n());
    o.put("verdict", d.verdict());
    return o;
  }

  /** A difference in episodes to recover: its verdict says "faster" or "slower" (fewer episodes are better). */
  private static Map<String, Object> recoveryDifference(Headline.Difference d) {
    Map<String, Object> o = difference(d);
    o.put("verdict", d.recoveryVerdict());
    return o;
  }

  private static void writeEpisodes(StreamReport report, Path dir) throws IOException {
    try (BufferedWriter jsonl = Files.newBufferedWriter(dir.resolve("episodes.jsonl"), StandardCharsets.UTF_8);
        BufferedWriter csv = Files.newBufferedWriter(dir.resolve("episodes.csv"), StandardCharsets.UTF_8)) {
      csv.write("environment,strategy,seed,phase,index,task,kind,drifting_kind,success,reward,shown,candidates,"
          + "shown_chars,first_shown\n");
      var writer = BenchData.JSON.writer().without(SerializationFeature.INDENT_OUTPUT);
      for (StreamReport.Run run : report.runs()) {
        String env = run.environment();
        StreamRun r = run.result();
        for (StreamRow row : r.rows()) {
          String firstShown = row.firstShown().name().toLowerCase(Locale.ROOT);
          Map<String, Object> m = new LinkedHashMap<>();
          m.put("environment", env);
          m.put("strategy", r.strategy());
          m.put("seed", r.seed());
          m.put("phase", PHASE);
          m.put("index", row.index());
          m.put("task", row.taskId());
          m.put("kind", row.kind());
          m.put("driftingKind", row.driftingKind());
          m.put("afterDrift", row.index() >= r.driftAt());
          m.put("success", row.success());
          m.put("reward", row.reward());
          m.put("shown", row.shownIds());
          m.put("candidates", row.candidates());
          m.put("shownChars", row.shownChars());
          m.put("firstShown", firstShown);
          jsonl.write(writer.writeValueAsString(m));
          jsonl.write('\n');
          csv.write(String.join(",", BenchData.csvField(env), BenchData.csvField(r.strategy()), Long.toString(r.seed()),
              PHASE, Integer.toString(row.index()), BenchData.csvField(row.taskId()), BenchData.csvField(row.kind()),
              Boolean.toString(row.driftingKind()), Boolean.toString(row.success()), Double.toString(row.reward()),
              BenchData.csvField(String.join(" ", row.shownIds())), Integer.toString(row.candidates()),
              Integer.toString(row.shownChars()), firstShown));
          csv.write('\n');
        }
      }
    }
  }
}
