package io.memloop.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.internal.chartpart.IChart;

/**
 * The human report of a benchmark run: {@code index.html}, a static self-contained page with the
 * run parameters, per environment the summary table and charts, the metric definitions and links to
 * the raw files, plus every chart as PNG (shown in the page) and SVG (linked). The raw files
 * themselves ({@code summary.json}, {@code episodes.jsonl}, {@code episodes.csv}) are
 * {@link BenchData}'s; call both with the same directory.
 *
 * <p>Charts:
 *
 * <ul>
 *   <li>{@code learning-<env>}: mean epoch accuracy per epoch and strategy, band = mean ± std over seeds;
 *   <li>{@code csr-<env>}: CSR after each epoch per strategy, mean ± std over seeds;
 *   <li>{@code forgetting}: forgetting rate per strategy and environment, bars with std error bars
 *       (undefined values get no bar);
 *   <li>{@code last-epoch}: last-epoch accuracy per strategy and environment, mean ± std.
 * </ul>
 *
 * <p>XChart draws with {@code java.awt}. Without a display AWT must run headless, so {@link #write}
 * sets {@code java.awt.headless=true} when the property is unset (a caller that has chosen keeps its
 * choice; it only takes effect if AWT has not started yet). Not safe to call concurrently on the
 * same directory.
 */
public final class ReportWriter {
  /** The page {@link #write} returns. */
  public static final String INDEX = "index.html";

  private ReportWriter() {}

  /**
   * Writes {@code index.html} and the charts into {@code dir} (created if missing), replacing files
   * of an earlier report there.
   *
   * @return the path of {@code index.html}
   * @throws UncheckedIOException naming the file that could not be written
   */
  public static Path write(BenchReport report, Path dir) {
    ensureHeadless();
    ReportCharts.Palette palette = ReportCharts.Palette.of(report);
    Map<String, String> anchors = new LinkedHashMap<>();
    Map<String, List<ReportPage.Figure>> perEnvironment = new LinkedHashMap<>();
    List<ReportPage.Figure> overall = new ArrayList<>();
    List<ReportPage.Note> notes = new ArrayList<>();
    try {
      Files.createDirectories(dir);
      Set<String> used = new HashSet<>();
      for (EnvironmentSummary env : report.environments()) {
        String slug = uniqueSlug(env.environment(), used);
        anchors.put(env.environment(), "env-" + slug);
        List<ReportPage.Figure> figures = new ArrayList<>();
        figures.add(save(dir, "learning-" + slug, ReportCharts.learningCurves(env, palette),
            "Learning curves on " + env.environment() + ": mean epoch accuracy per epoch; bands = mean \u00b1 std over"
                + " seeds for the two strategies the finding compares; a dotted line repeats an identical strategy."));
        figures.add(save(dir, "csr-" + slug, ReportCharts.cumulativeSuccess(env, palette),
            "Cumulative success rate on " + env.environment()
                + ": fraction of tasks solved at least once after each epoch; bands as in the learning curves."));
        perEnvironment.put(env.environment(), figures);
      }
      bars(dir, report, palette, "last-epoch", "Last-epoch accuracy", "accuracy", StrategySummary::lastEpochAccuracy,
          s -> true, false, "Last-epoch accuracy per strategy and environment: mean over seeds, error bars \u00b1 std.",
          overall, notes);
      // No memory has nothing to forget (its "forgetting" is the policy's luck) and would set the scale.
      bars(dir, report, palette, "forgetting", "Forgetting rate (strategies with memory)", "forgetting rate",
          StrategySummary::forgettingRate, s -> !s.equals(Headline.FLOOR), true,
          "Forgetting rate per memory strategy and environment: mean over seeds, error bars \u00b1 std; no-memory"
              + " (nothing to forget) left out, y axis fitted to the bars; no bar where the rate is undefined.",
          overall, notes);
      Path index = dir.resolve(INDEX);
      Files.writeString(index, ReportPage.render(report, anchors, perEnvironment, overall, notes), StandardCharsets.UTF_8);
      return index;
    } catch (IOException e) {
      throw new UncheckedIOException("writing benchmark report to " + dir + ": " + e.getMessage(), e);
    }
  }

  private static void bars(Path dir, BenchReport report, ReportCharts.Palette palette, String stem, String title,
      String yTitle, Function<StrategySummary, Spread> metric, java.util.function.Predicate<String> include, boolean fitY,
      String caption, List<ReportPage.Figure> overall, List<ReportPage.Note> notes) throws IOException {
    Optional<CategoryChart> chart = ReportCharts.bars(report, palette, title, yTitle, metric, include, fitY);
    if (chart.isPresent()) {
      overall.add(save(dir, stem, chart.get(), caption));
    } else {
      // Leave no stale chart of an earlier report behind a note that says there is none.
      Files.deleteIfExists(dir.resolve(stem + ".png"));
      Files.deleteIfExists(dir.resolve(stem + ".svg"));
      notes.add(new ReportPage.Note(title + ": undefined for every strategy on every environment, so not charted."));
    }
  }

  private static ReportPage.Figure save(Path dir, String stem, IChart chart, String caption) throws IOException {
    saveChart(dir, stem, chart);
    return new ReportPage.Figure(stem, caption);
  }

  /** Saves {@code chart} as {@code stem.png} and {@code stem.svg} in {@code dir}. */
  static void saveChart(Path dir, String stem, IChart chart) throws IOException {
    io.memloop.history.report.ReportOutput.saveChart(dir, stem, chart);
  }

  /**
   * A file-name- and anchor-safe form of an environment name ({@code [a-z0-9-]}), made unique among
   * the report's environments by a numeric suffix.
   */
  static String uniqueSlug(String name, Set<String> used) {
    String base = name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-+|-+$", "");
    if (base.isEmpty()) {
      base = "environment";
    }
    String slug = base;
    for (int i = 2; !used.add(slug); i++) {
      slug = base + "-" + i;
    }
    return slug;
  }

  private static void ensureHeadless() {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }
}
