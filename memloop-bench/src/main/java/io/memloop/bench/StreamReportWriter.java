package io.memloop.bench;

import static io.memloop.bench.ReportPage.esc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The human report of a stream run: {@code index.html} (a static self-contained page as {@link ReportWriter}
 * writes for the epoch protocol: findings, per environment the table, default's paired differences and the
 * charts of {@link StreamCharts}, the run's parameters, the definitions, links to {@link StreamData}'s raw files)
 * and every chart as PNG and SVG. Not safe to call concurrently on the same directory.
 */
public final class StreamReportWriter {
  private static final String TITLE = "MemLoop runtime-learning benchmark: stream mode";

  private StreamReportWriter() {}

  /**
   * Writes {@code index.html} and the charts into {@code dir} (created if missing).
   *
   * @return the path of {@code index.html}
   * @throws UncheckedIOException naming the file that could not be written
   */
  public static Path write(StreamReport report, Path dir) {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true"); // see ReportWriter
    }
    ReportCharts.Palette palette = ReportCharts.Palette.of(report.strategies());
    StringBuilder h = new StringBuilder(16_384);
    try {
      Files.createDirectories(dir);
      h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
          .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
          .append("<title>").append(esc(TITLE)).append("</title>\n<style>\n").append(ReportPage.STYLE)
          .append("</style>\n</head>\n<body>\n<h1>").append(esc(TITLE)).append("</h1>\n");
      findings(h, report);
      Set<String> used = new HashSet<>();
      for (StreamEnvironmentSummary env : report.environments()) {
        String slug = ReportWriter.uniqueSlug(env.environment(), used);
        h.append("<section id=\"env-").append(esc(slug)).append("\">\n<h2>").append(esc(env.environment())).append("</h2>\n");
        h.append("<p>").append(env.length()).append(" episodes per run, drift at episode ").append(env.driftAt())
            .append(", ").append(env.kinds()).append(" kinds of which ").append(env.driftingKinds())
            .append(" drift. Mean \u00b1 sample std over seeds.</p>\n");
        table(h, env);
        comparisons(h, env);
        figure(h, dir, "stream-curve-" + slug, StreamCharts.curve(env, palette), "Learning curve on " + env.environment()
            + ": success per window of " + StreamMetrics.WINDOW + " never-seen instances, mean over seeds; the grey line is the drift.");
        if (env.strategies().stream().anyMatch(s -> !s.regretCurve().isEmpty())) {
          figure(h, dir, "stream-regret-" + slug, StreamCharts.regret(env, palette), "Cumulative regret against the"
              + " oracle of the same seed on " + env.environment() + " (episodes the oracle solved and the strategy did not,"
              + " minus the reverse), mean over seeds.");
        }
        figure(h, dir, "stream-memories-" + slug, StreamCharts.memories(env, palette), "Memory growth on "
            + env.environment() + ": memories held after each window, mean over seeds.");
        h.append("</section>\n");
      }
      parameters(h, report);
      ReportPage.definitions(h, StreamReport.DEFINITIONS);
      h.append("<section id=\"data\">\n<h2>Raw data</h2>\n<p>Written alongside this page by the benchmark:</p>\n<ul>\n");
      for (String file : ReportPage.DATA_FILES) {
        h.append("<li><a href=\"").append(esc(file)).append("\">").append(esc(file)).append("</a></li>\n");
      }
      h.append("</ul>\n</section>\n</body>\n</html>\n");
      Path index = dir.resolve(ReportWriter.INDEX);
      Files.writeString(index, h, StandardCharsets.UTF_8);
      return index;
    } catch (IOException e) {
      throw new UncheckedIOException("writing benchmark report to " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void findings(StringBuilder h, StreamReport report) {
    h.append("<section id=\"finding\">\n<p class=\"lead\">First-encounter success of a frozen agent helped by each memory"
        + " strategy on a stream of never-seen instances of recurring kinds, with a drift; ")
        .append(report.options().bench().seeds().size()).append(" seeds. MemLoop default minus the best strategy that"
        + " does not read ground truth: paired per-seed differences, mean [95 % t-interval].</p>\n<ul>\n");
    for (StreamEnvironmentSummary env : report.environments()) {
      h.append("<li><strong>").append(esc(env.environment())).append("</strong>: ")
          .append(esc(env.headline().map(StreamEnvironmentSummary.Comparison::format).orElse(ReportPage.UNDEFINED)))
          .append("</li>\n");
    }
    report.overall().ifPresent(o -> h.append("<li><strong>on average over the ").append(o.baselines().size())
        .append(" environments</strong>: ").append(esc(o.difference().format())).append(" (")
        .append(esc(o.difference().verdict())).append(")</li>\n"));
    h.append("</ul>\n</section>\n");
  }

  private static void table(StringBuilder h, StreamEnvironmentSummary env) {
    h.append("<table class=\"metrics\">\n<thead><tr>");
    for (String c : List.of("strategy", "success", "before drift", "after drift", "regret vs oracle", "recovery (episodes)",
        "recovered", "dip", "misled", "memories at end", "chars shown", "s/run")) {
      h.append("<th scope=\"col\">").append(esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (StreamStrategySummary s : env.strategies()) {
      h.append("<tr><th scope=\"row\">").append(esc(s.strategy())).append("</th>");
      for (String v : List.of(ReportPage.format(s.success(), 2), ReportPage.format(s.successBeforeDrift(), 2),
          ReportPage.format(s.successAfterDrift(), 2), ReportPage.format(s.regret(), 0),
          ReportPage.format(s.recoveryEpisodes(), 0),
          s.recoveryEpisodes().isEmpty() ? ReportPage.UNDEFINED : s.recovered() + "/" + s.recoveryEpisodes().n(),
          ReportPage.format(s.dip(), 2), ReportPage.format(s.misledRate(), 2), ReportPage.format(s.memories(), 0),
          ReportPage.format(s.shownChars(), 0), ReportPage.format(s.wallSeconds(), 1))) {
        h.append("<td>").append(esc(v)).append("</td>");
      }
      h.append("</tr>\n");
    }
    h.append("</tbody>\n</table>\n");
  }

  private static void comparisons(StringBuilder h, StreamEnvironmentSummary env) {
    List<StreamEnvironmentSummary.Comparison> cs = env.comparisons();
    if (cs.isEmpty()) {
      return;
    }
    h.append("<table class=\"finding\">\n<thead><tr><th scope=\"col\">default minus</th><th scope=\"col\">success</th>"
        + "<th scope=\"col\">recovery (episodes; negative: faster)</th>"
        + "<th scope=\"col\">recovery to the common level</th></tr></thead>\n<tbody>\n");
    for (StreamEnvironmentSummary.Comparison c : cs) {
      h.append("<tr><th scope=\"row\">").append(esc(c.against())).append("</th>");
      cell(h, c.success().format(), c.success().verdict(), false);
      recoveryCell(h, c.formatRecovery(), c.recovery());
      recoveryCell(h, c.formatCommonLevel(), c.recoveryToCommonLevel());
      h.append("</tr>\n");
    }
    h.append("</tbody></table>\n");
  }

  /** A cell of episodes to recover ({@code text}, the formatted {@code difference}), or — without one. */
  private static void recoveryCell(StringBuilder h, Optional<String> text, Optional<Headline.Difference> difference) {
    if (text.isPresent() && difference.isPresent()) {
      cell(h, text.get(), difference.get().verdict(), true);
    } else {
      h.append("<td>").append(ReportPage.UNDEFINED).append("</td>");
    }
  }

  /** A difference with its verdict; for recovery, fewer episodes (a "loss" of the difference) is the good side. */
  private static void cell(StringBuilder h, String text, String verdict, boolean lowerIsBetter) {
    String css = verdict.equals("gain") ? (lowerIsBetter ? "loss" : "gain")
        : verdict.equals("loss") ? (lowerIsBetter ? "gain" : "loss") : "flat";
    h.append("<td class=\"").append(css).append("\"><strong>").append(esc(text)).append("</strong></td>");
  }

  private static void figure(StringBuilder h, Path dir, String stem, org.knowm.xchart.XYChart chart, String caption)
      throws IOException {
    ReportWriter.saveChart(dir, stem, chart);
    ReportPage.figure(h, new ReportPage.Figure(stem, caption));
  }

  private static void parameters(StringBuilder h, StreamReport report) {
    BenchOptions o = report.options().bench();
    StreamShape shape = report.options().shape();
    h.append("<section id=\"run\">\n<h2>This run</h2>\n<table class=\"params\">\n");
    row(h, "seeds", o.seeds().size() + " " + o.seeds());
    row(h, "stream", String.format(Locale.ROOT, "%d episodes, drift at %.2f, %.0f %% of kinds drifting", shape.length(),
        shape.driftAt(), 100 * shape.driftedShare()));
    row(h, "size", o.size().name().toLowerCase(Locale.ROOT));
    row(h, "environments", String.join(", ", report.environments().stream().map(StreamEnvironmentSummary::environment).toList()));
    row(h, "strategies", String.join(", ", report.strategies()));
    row(h, "policy", "frozen");
    row(h, "embedder", report.modelId());
    row(h, "wall time", String.format(Locale.ROOT, "%.1f s", report.wallSeconds()));
    h.append("</table>\n</section>\n");
  }

  private static void row(StringBuilder h, String name, String value) {
    h.append("<tr><th scope=\"row\">").append(esc(name)).append("</th><td>").append(esc(value)).append("</td></tr>\n");
  }
}
