package io.memloop.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.memloop.bench.llm.LlmPolicy;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The machine-readable files of a benchmark run: {@code summary.json} (per environment and strategy,
 * mean and spread of every metric, for other tools and CI) and the raw episodes as
 * {@code episodes.jsonl} and {@code episodes.csv}.
 */
public final class BenchData {
  static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private BenchData() {}

  /** Writes the three files into {@code dir} (created if missing). */
  public static void write(BenchReport report, Path dir) {
    try {
      Files.createDirectories(dir);
      JSON.writeValue(dir.resolve("summary.json").toFile(), summary(report));
      writeEpisodes(report, dir);
    } catch (IOException e) {
      throw new UncheckedIOException("writing benchmark data to " + dir + ": " + e.getMessage(), e);
    }
  }

  /** An environment's finding (see {@link Headline}) as JSON. */
  static Map<String, Object> headline(Headline h) {
    Map<String, Object> o = new LinkedHashMap<>();
    Map<String, Object> best = new LinkedHashMap<>(); // not Map.of: its order changes from one JVM to the next
    best.put("strategy", h.best().strategy());
    best.put("lastEpochAccuracy", h.best().mean());
    o.put("best", best);
    h.overNoMemory().ifPresent(c -> o.put("bestOverNoMemory", comparison(c)));
    h.overBaseline().ifPresent(c -> o.put("bestOverNextBest", comparison(c)));
    h.defaultVsBaseline().ifPresent(c -> o.put("defaultOverBestBaseline", comparison(c)));
    o.put("identical", h.identical());
    return o;
  }

  private static Map<String, Object> comparison(Headline.Comparison c) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("strategy", c.a().strategy());
    o.put("against", c.b().strategy());
    o.put("meanDifference", c.difference().mean());
    o.put("ci95Low", c.difference().low());
    o.put("ci95High", c.difference().high());
    o.put("n", c.difference().n());
    o.put("verdict", c.difference().verdict());
    return o;
  }

  static Map<String, Object> summary(BenchReport report) {
    Map<String, Object> root = new LinkedHashMap<>();
    BenchOptions o = report.options();
    root.put("seeds", o.seeds());
    root.put("developmentSeeds", BenchOptions.DEVELOPMENT_SEEDS);
    root.put("epochs", o.epochs());
    root.put("size", o.size().name().toLowerCase(Locale.ROOT));
    root.put("slip", o.slip()); // null: each environment's default outcome noise
    root.put("knobs", o.knobs()); // environment -> knob -> value: overrides of the environments' knobs
    root.put("embedder", report.modelId());
    root.put("store", o.store().label()); // where the engine's runs kept their memories: memory or lucene/FORMAT
    root.put("policy", report.policy().id());
    if (report.policy() instanceof LlmPolicy llm) {
      LlmPolicy.Usage u = llm.usage();
      Map<String, Object> usage = new LinkedHashMap<>();
      usage.put("requests", u.requests());
      usage.put("corrections", u.corrections());
      usage.put("unreadable", u.unreadable());
      usage.put("truncated", u.truncated());
      usage.put("promptTokens", u.promptTokens());
      usage.put("completionTokens", u.completionTokens());
      usage.put("experiencesDistilled", u.distilled());
      usage.put("experiencesKeptRaw", u.rawFallbacks());
      root.put("llmUsage", usage);
    }
    root.put("wallSeconds", report.wallSeconds());
    Map<String, Object> envs = new LinkedHashMap<>();
    for (EnvironmentSummary env : report.environments()) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("tasks", env.tasks());
      e.put("heldOut", env.heldOut());
      e.put("heldOutKind", env.heldOutKind().label());
      Map<String, Object> strategies = new LinkedHashMap<>();
      for (StrategySummary s : env.strategies()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("epochAccuracy", s.epochAccuracy().stream().map(BenchData::spread).toList());
        m.put("lastEpochAccuracy", spread(s.lastEpochAccuracy()));
        m.put("cumulativeSuccess", spread(s.cumulativeSuccess()));
        m.put("forgettingRate", spread(s.forgettingRate()));
        m.put(env.heldOutKind().key(), spread(s.transferAccuracy()));
        m.put("qPredictsNext", spread(s.qPredictsNext()));
        m.put("misledRate", spread(s.misledRate()));
        m.put("memories", spread(s.memories()));
        m.put("shownChars", spread(s.shownChars()));
        m.put("wallSeconds", spread(s.wallSeconds()));
        strategies.put(s.strategy(), m);
      }
      e.put("strategies", strategies);
      e.put("headline", headline(Headline.of(env)));
      envs.put(env.environment(), e);
    }
    root.put("environments", envs);
    report.overall().ifPresent(ov -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("baselines", ov.baselines());
      m.put("meanDifference", ov.difference().mean());
      m.put("ci95Low", ov.difference().low());
      m.put("ci95High", ov.difference().high());
      m.put("n", ov.difference().n());
      m.put("verdict", ov.difference().verdict());
      root.put("overall", m);
    });
    return root;
  }

  /** A spread as JSON; undefined metrics (n = 0) have null statistics. */
  static Map<String, Object> spread(Spread s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("n", s.n());
    m.put("mean", s.isEmpty() ? null : s.mean());
    m.put("std", s.isEmpty() ? null : s.std());
    m.put("min", s.isEmpty() ? null : s.min());
    m.put("max", s.isEmpty() ? null : s.max());
    return m;
  }

  private static void writeEpisodes(BenchReport report, Path dir) throws IOException {
    try (BufferedWriter jsonl = Files.newBufferedWriter(dir.resolve("episodes.jsonl"), StandardCharsets.UTF_8);
        BufferedWriter csv = Files.newBufferedWriter(dir.resolve("episodes.csv"), StandardCharsets.UTF_8)) {
      csv.write("environment,strategy,seed,phase,epoch,task,success,reward,shown,candidates,shown_chars,first_shown\n");
      for (BenchReport.Run run : report.runs()) {
        write(run.environment(), "train", run.result().rows(), jsonl, csv);
        write(run.environment(), heldOutKind(report, run.environment()).label(), run.result().transferRows(), jsonl, csv);
      }
    }
  }

  private static Environment.HeldOut heldOutKind(BenchReport report, String environment) {
    return report.environments().stream().filter(e -> e.environment().equals(environment)).findFirst()
        .map(EnvironmentSummary::heldOutKind).orElse(Environment.HeldOut.TRANSFER);
  }

  private static void write(String env, String phase, List<EpisodeRow> rows, BufferedWriter jsonl, BufferedWriter csv)
      throws IOException {
    for (EpisodeRow r : rows) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("environment", env);
      m.put("strategy", r.strategy());
      m.put("seed", r.seed());
      m.put("phase", phase);
      m.put("epoch", r.epoch());
      m.put("task", r.taskId());
      m.put("success", r.success());
      m.put("reward", r.reward());
      m.put("shown", r.shownIds());
      m.put("candidates", r.candidates());
      m.put("shownChars", r.shownChars());
      m.put("firstShown", r.firstShown().name().toLowerCase(Locale.ROOT));
      jsonl.write(JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(m));
      jsonl.write('\n');
      csv.write(String.join(",", csvField(env), csvField(r.strategy()), Long.toString(r.seed()), phase,
          Integer.toString(r.epoch()), csvField(r.taskId()), Boolean.toString(r.success()), Double.toString(r.reward()),
          csvField(String.join(" ", r.shownIds())), Integer.toString(r.candidates()), Integer.toString(r.shownChars()),
          r.firstShown().name().toLowerCase(Locale.ROOT)));
      csv.write('\n');
    }
  }

  static String csvField(String s) {
    return s.contains(",") || s.contains("\"") || s.contains("\n") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }
}
