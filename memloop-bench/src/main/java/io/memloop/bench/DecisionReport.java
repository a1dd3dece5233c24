package io.memloop.bench;

import io.memloop.history.OffPolicyEvaluation;
import io.memloop.history.OffPolicyEvaluation.Estimate;
import io.memloop.history.OffPolicyEvaluation.Report;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The decision report (README "Execution history"): from an event log, what the current policy achieves, what
 * each MemLoop configuration is estimated to achieve with its interval, how many more logged episodes would
 * narrow each interval, and what each costs per episode (experiences shown, characters added to the prompt) —
 * as {@code report.md} and a self-contained {@code report.html} with two charts (PNG, and SVG beside them).
 *
 * <p>Every number comes from {@link OffPolicyEvaluation}; a configuration it flagged is shown with its warning
 * and never as a recommendation.
 */
public final class DecisionReport {
  /** Target interval half-widths for "how many more episodes". */
  private static final double[] TARGETS = {0.05, 0.02};
  private static final int CHARS_PER_TOKEN = 4;

  private DecisionReport() {}

  /** What every estimate is, said once in each document (BENCHMARKS.md "Off-policy evaluation against the truth"). */
  static final String ESTIMAND = "Each estimate is this rule on our memory as it was (the logged memories and rewards), "
      + "not a deployment: what the configuration would have chosen, decision by decision, from the memories the log "
      + "shows with the utilities they had; a configuration that learns per task has its ledger replayed along the log, "
      + "fed the logged slates' rewards. Deployed, it would store and learn from its own choices, which no log shows.";

  /** One configuration's line of the report. */
  private record Line(Report report, boolean trusted, double halfWidth, String moreToHalve, String moreToTarget0,
      String moreToTarget1, String moreToEvaluable) {}

  /**
   * Writes {@code report.md}, {@code report.html} and the charts to {@code dir} (created if needed).
   *
   * @return the HTML file
   * @throws UncheckedIOException when a file cannot be written
   */
  public static Path write(OffPolicyEvaluation.Result r, String source, Path dir) {
    List<Line> lines = new ArrayList<>();
    for (Report rep : r.reports()) {
      lines.add(line(rep, r.decisions()));
    }
    try {
      Files.createDirectories(dir);
      ReportWriter.saveChart(dir, "estimates", estimatesChart(r, lines));
      ReportWriter.saveChart(dir, "precision", precisionChart(r, lines));
      Files.writeString(dir.resolve("report.md"), markdown(r, source, lines), StandardCharsets.UTF_8);
      Path html = dir.resolve("report.html");
      Files.writeString(html, html(r, source, lines), StandardCharsets.UTF_8);
      return html;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the report to " + dir + ": " + e.getMessage(), e);
    }
  }

  private static Line line(Report rep, int n) {
    boolean trusted = rep.warnings().isEmpty();
    Estimate dr = rep.drSuccess();
    double h = (dr.high() - dr.low()) / 2;
    String halve = Double.isFinite(h) ? count(3L * n) : "—";
    String t0 = more(h, TARGETS[0], n);
    String t1 = more(h, TARGETS[1], n);
    String evaluable;
    if (rep.supported() < rep.decisions()) {
      evaluable = "never at this logging configuration (it never shows what this one would)";
    } else if (rep.departures() == 0 || rep.expectedMatches() >= 30) {
      evaluable = "now";
    } else if (rep.expectedMatches() == 0) {
      evaluable = "never without exploration";
    } else {
      evaluable = count((long) Math.ceil(n * (30 / rep.expectedMatches() - 1)));
    }
    return new Line(rep, trusted, h, halve, t0, t1, evaluable);
  }

  /** More decisions until the half-width {@code h} (shrinking as 1/√n) reaches {@code target}. */
  private static String more(double h, double target, int n) {
    if (!Double.isFinite(h)) {
      return "—";
    }
    if (h <= target) {
      return "0";
    }
    return count((long) Math.ceil(n * ((h / target) * (h / target) - 1)));
  }

  private static String count(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }

  private static String pct(double v) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%.1f %%", 100 * v) : "—";
  }

  private static String interval(Estimate e) {
    return Double.isFinite(e.value())
        ? String.format(Locale.ROOT, "%.1f %% [%.1f, %.1f]", 100 * e.value(), 100 * e.low(), 100 * e.high()) : "—";
  }

  private static String signedInterval(Estimate e) {
    return String.format(Locale.ROOT, "%+.1f points [%+.1f, %+.1f]", 100 * e.value(), 100 * e.low(), 100 * e.high());
  }

  private static String tokens(OffPolicyEvaluation.Slates s) {
    return Double.isFinite(s.meanPromptChars())
        ? String.format(Locale.ROOT, "%.1f experiences, ≈ %.0f prompt tokens", s.meanShown(), s.meanPromptChars() / CHARS_PER_TOKEN)
        : String.format(Locale.ROOT, "%.1f experiences (their texts are not in the log)", s.meanShown());
  }

  private static String verdict(Line l) {
    if (!l.trusted()) {
      return "not evaluable from this log (see warnings)";
    }
    Estimate g = l.report().drSuccessGain();
    if (g.low() > 0) {
      return "better than the current policy";
    }
    if (g.high() < 0) {
      return "worse than the current policy";
    }
    return "no difference shown";
  }

  private static String markdown(OffPolicyEvaluation.Result r, String source, List<Line> lines) {
    StringBuilder s = new StringBuilder();
    s.append("# What MemLoop would achieve on this history\n\n");
    s.append(String.format(Locale.ROOT, "Source: `%s`: %,d decisions (a retrieval and its reward) in namespace(s) %s, from %s to %s.%n%n",
        source, r.decisions(), String.join(", ", r.namespaces()), r.firstAt(), r.lastAt()));
    s.append("## The current policy\n\n");
    s.append(String.format(Locale.ROOT, "Success rate **%s** (95 %% interval), mean reward %.3f; per episode it showed %s.%n%n",
        interval(r.loggedSuccess()), r.loggedReward(), tokens(r.logged())));
    s.append("## Each configuration, estimated from the log\n\n");
    s.append(ESTIMAND).append("\n\n");
    for (Line l : lines) {
      if (!l.report().replayed().isEmpty()) {
        s.append("- ").append(md(l.report().candidate())).append(": ").append(md(l.report().replayed())).append(".\n");
      }
    }
    if (lines.stream().anyMatch(l -> !l.report().replayed().isEmpty())) {
      s.append('\n');
    }
    s.append("Doubly robust estimate of the success rate (95 % interval), its difference from the current policy on the same "
        + "decisions, self-normalised IPS for comparison, and what each shows per episode.\n\n");
    estimates(lines).markdown(s);
    s.append("\n![estimates](estimates.png)\n\n");
    s.append("## How many more episodes\n\n");
    s.append("An interval narrows as 1/√n: more logged episodes under the same logging configuration. A configuration the "
        + "log cannot evaluate yet needs enough exploration that matches its choices (30 expected matches).\n\n");
    precision(lines).markdown(s);
    s.append("\n![precision](precision.png)\n\n");
    s.append("## Compute\n\n");
    s.append("The cost that grows with memory is prompt length: the experiences shown are added to every prompt (about 4 "
        + "characters per token). Retrieval itself is about 1 ms of CPU per episode at 100k memories (BENCHMARKS.md); "
        + "evaluating each configuration on this log took:\n\n");
    for (Line l : lines) {
      s.append(String.format(Locale.ROOT, "- %s: %.2f s%n", md(l.report().candidate()), l.report().evaluationSeconds()));
    }
    List<Line> warned = lines.stream().filter(l -> !l.trusted()).toList();
    if (!warned.isEmpty()) {
      s.append("\n## Warnings\n\n");
      for (Line l : warned) {
        l.report().warnings().forEach(w -> s.append("- **").append(md(l.report().candidate())).append("**: ").append(md(w)).append('\n'));
      }
    }
    if (!r.skipped().isEmpty()) {
      s.append(String.format(Locale.ROOT, "%n%d malformed line(s) of the log were skipped; first: %s%n", r.skipped().size(),
          md(r.skipped().getFirst().toString())));
    }
    s.append("\nHow these estimates are made and how far to trust them: docs/event-log.md, and BENCHMARKS.md "
        + "\"Off-policy evaluation against the truth\".\n");
    return s.toString();
  }

  /**
   * A table of the report, rendered into both documents; {@code flagged} rows show their {@code flaggedColumn}
   * cell as a warning in HTML.
   */
  private record Table(List<String> header, List<List<String>> rows, List<Boolean> flagged, int flaggedColumn) {
    void markdown(StringBuilder s) {
      s.append("| ").append(String.join(" | ", header)).append(" |\n|").append("---|".repeat(header.size())).append('\n');
      for (List<String> row : rows) {
        s.append("| ").append(String.join(" | ", row.stream().map(DecisionReport::md).toList())).append(" |\n");
      }
    }

    void html(StringBuilder h) {
      h.append("<table><thead><tr>");
      header.forEach(c -> h.append("<th>").append(esc(c)).append("</th>"));
      h.append("</tr></thead><tbody>\n");
      for (int i = 0; i < rows.size(); i++) {
        h.append("<tr>");
        for (int c = 0; c < header.size(); c++) {
          h.append(flagged.get(i) && c == flaggedColumn ? "<td class=\"warn\">" : "<td>").append(esc(rows.get(i).get(c))).append("</td>");
        }
        h.append("</tr>\n");
      }
      h.append("</tbody></table>\n");
    }
  }

  /** What a flagged configuration shows in place of a number: the flag and where its reasons are. */
  static final String FLAGGED = "not evaluable (flagged: see warnings)";

  private static Table estimates(List<Line> lines) {
    // a flagged configuration shows the flag, never a number with a precise-looking interval
    return new Table(List.of("configuration", "success (DR)", "vs current", "SNIPS", "verdict", "shown per episode"),
        lines.stream().map(l -> List.of(l.report().candidate(), l.trusted() ? interval(l.report().drSuccess()) : FLAGGED,
            l.trusted() ? signedInterval(l.report().drSuccessGain()) : "—",
            l.trusted() ? interval(l.report().snipsSuccess()) : "—", verdict(l), tokens(l.report().slates()))).toList(),
        lines.stream().map(l -> !l.trusted()).toList(), 1);
  }

  private static Table precision(List<Line> lines) {
    return new Table(List.of("configuration", "± now", "more episodes to halve it", "to ± 5 points", "to ± 2 points",
            "until evaluable"),
        lines.stream().map(l -> l.trusted() ? List.of(l.report().candidate(), pct(l.halfWidth()), l.moreToHalve(),
            l.moreToTarget0(), l.moreToTarget1(), l.moreToEvaluable())
            : List.of(l.report().candidate(), "— (flagged)", "—", "—", "—", l.moreToEvaluable())).toList(),
        lines.stream().map(l -> false).toList(), -1);
  }

  /** Text from the log in Markdown: no table breaks, no markup. */
  private static String md(String text) {
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("_", "\\_").replace("`", "\\`")
        .replace("<", "&lt;").replace("\n", " ");
  }

  private static String html(OffPolicyEvaluation.Result r, String source, List<Line> lines) {
    StringBuilder h = new StringBuilder();
    h.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>MemLoop decision report</title>\n<style>\n")
        .append("body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;padding:0 1rem;color:#222;line-height:1.45}")
        .append("table{border-collapse:collapse;margin:.8rem 0;font-variant-numeric:tabular-nums}th,td{border:1px solid #ddd;")
        .append("padding:.3rem .6rem;text-align:left}thead th{background:#f6f6f6}td.warn{color:#a33}img{max-width:100%;")
        .append("border:1px solid #eee}.n{color:#777;font-size:.9em}\n</style></head><body>\n");
    h.append("<h1>What MemLoop would achieve on this history</h1>\n");
    h.append(String.format(Locale.ROOT, "<p class=\"n\">Source: <code>%s</code>: %,d decisions in namespace(s) %s, from %s to %s.</p>%n",
        esc(source), r.decisions(), esc(String.join(", ", r.namespaces())), esc(r.firstAt()), esc(r.lastAt())));
    h.append("<h2>The current policy</h2>\n");
    h.append(String.format(Locale.ROOT, "<p>Success rate <strong>%s</strong> (95 %% interval), mean reward %.3f; per episode it "
        + "showed %s.</p>%n", esc(interval(r.loggedSuccess())), r.loggedReward(), esc(tokens(r.logged()))));
    h.append("<h2>Each configuration, estimated from the log</h2>\n<p>").append(esc(ESTIMAND)).append("</p>\n");
    estimates(lines).html(h);
    h.append("<figure><img src=\"estimates.png\" alt=\"estimated success per configuration\">"
        + "<figcaption>Doubly robust estimates with 95 % intervals; the dashed line is the current policy "
        + "(<a href=\"estimates.svg\">SVG</a>).</figcaption></figure>\n");
    h.append("<h2>How many more episodes</h2>\n<p>An interval narrows as 1/&radic;n. A configuration the log cannot evaluate "
        + "yet needs enough exploration that matches its choices (30 expected matches).</p>\n");
    precision(lines).html(h);
    h.append("<figure><img src=\"precision.png\" alt=\"interval half-width against logged episodes\">"
        + "<figcaption>Half-width of each 95 % interval as the log grows (<a href=\"precision.svg\">SVG</a>).</figcaption></figure>\n");
    h.append("<h2>Compute</h2>\n<p>The cost that grows with memory is prompt length: the experiences shown are added to every "
        + "prompt (about 4 characters per token; table above). Retrieval is about 1 ms of CPU per episode at 100k memories "
        + "(BENCHMARKS.md). Evaluation time on this log:</p>\n<ul>\n");
    for (Line l : lines) {
      h.append(String.format(Locale.ROOT, "<li>%s: %.2f s</li>%n", esc(l.report().candidate()), l.report().evaluationSeconds()));
    }
    h.append("</ul>\n");
    List<Line> warned = lines.stream().filter(l -> !l.trusted()).toList();
    if (!warned.isEmpty()) {
      h.append("<h2>Warnings</h2>\n<ul>\n");
      for (Line l : warned) {
        l.report().warnings().forEach(w -> h.append("<li><strong>").append(esc(l.report().candidate())).append("</strong>: ")
            .append(esc(w)).append("</li>\n"));
      }
      h.append("</ul>\n");
    }
    if (!r.skipped().isEmpty()) {
      h.append(String.format(Locale.ROOT, "<p class=\"n\">%d malformed line(s) of the log were skipped; first: %s</p>%n",
          r.skipped().size(), esc(r.skipped().getFirst().toString())));
    }
    h.append("<p class=\"n\">How these estimates are made and how far to trust them: docs/event-log.md, and BENCHMARKS.md "
        + "&ldquo;Off-policy evaluation against the truth&rdquo;.</p>\n</body></html>\n");
    return h.toString();
  }

  private static String esc(String s) {
    return ReportPage.esc(s);
  }

  private static CategoryChart estimatesChart(OffPolicyEvaluation.Result r, List<Line> lines) {
    CategoryChart chart = new CategoryChartBuilder().width(ReportCharts.WIDTH).height(ReportCharts.HEIGHT)
        .title("Estimated success rate (doubly robust, 95 % interval)").xAxisTitle("configuration").yAxisTitle("success rate")
        .build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setYAxisMin(0.0);
    chart.getStyler().setYAxisMax(1.0);
    chart.getStyler().setErrorBarsColorSeriesColor(false);
    chart.getStyler().setErrorBarsColor(new Color(80, 80, 80));
    chart.getStyler().setOverlapped(true);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    List<String> names = lines.stream().map(l -> l.report().candidate()).toList();
    List<Double> trusted = new ArrayList<>();
    List<Double> trustedErr = new ArrayList<>();
    List<Double> flagged = new ArrayList<>();
    List<Double> flaggedErr = new ArrayList<>();
    for (Line l : lines) {
      double v = clamp(l.report().drSuccess().value());
      double e = Double.isFinite(l.halfWidth()) ? l.halfWidth() : 0;
      trusted.add(l.trusted() ? v : Double.NaN);
      trustedErr.add(l.trusted() ? e : 0.0);
      flagged.add(l.trusted() ? Double.NaN : v);
      flaggedErr.add(l.trusted() ? 0.0 : e);
    }
    CategorySeries ok = chart.addSeries("evaluable", names, trusted, trustedErr);
    ok.setFillColor(new Color(44, 160, 44));
    CategorySeries warn = chart.addSeries("flagged (not evaluable)", names, flagged, flaggedErr);
    warn.setFillColor(new Color(200, 200, 200));
    List<Double> current = names.stream().map(n -> r.loggedSuccess().value()).toList();
    CategorySeries base = chart.addSeries("current policy", names, current);
    base.setChartCategorySeriesRenderStyle(org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle.Line);
    base.setLineColor(Color.BLACK);
    base.setMarker(SeriesMarkers.NONE);
    base.setLineStyle(new java.awt.BasicStroke(1.5f, java.awt.BasicStroke.CAP_BUTT, java.awt.BasicStroke.JOIN_MITER, 10f,
        new float[] {6f, 4f}, 0f));
    return chart;
  }

  private static double clamp(double v) {
    return Double.isFinite(v) ? Math.max(0, Math.min(1, v)) : Double.NaN;
  }

  private static XYChart precisionChart(OffPolicyEvaluation.Result r, List<Line> lines) {
    XYChart chart = new XYChartBuilder().width(ReportCharts.WIDTH).height(ReportCharts.HEIGHT)
        .title("Interval half-width as the log grows").xAxisTitle("logged decisions").yAxisTitle("± success rate (95 %)").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setYAxisMin(0.0);
    int n = r.decisions();
    boolean any = false;
    for (Line l : lines) {
      if (!Double.isFinite(l.halfWidth())) {
        continue;
      }
      any = true;
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      for (int f = 1; f <= 16; f++) {
        x.add((double) n * f);
        y.add(l.halfWidth() / Math.sqrt(f));
      }
      XYSeries s = chart.addSeries(l.report().candidate() + (l.trusted() ? "" : " (flagged)"), x, y);
      s.setMarker(SeriesMarkers.NONE);
    }
    if (!any) {
      chart.addSeries("no interval", List.of((double) n), List.of(0.0)).setMarker(SeriesMarkers.NONE);
    }
    return chart;
  }
}
