package io.memloop.history.report;

import io.memloop.history.OffPolicyEvaluation;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.IChart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The decision report's two charts, drawn with XChart and saved as PNG and SVG: the estimated success of each
 * configuration against the current policy, and how each interval narrows as the log grows.
 *
 * <p>Not thread-safe: build and encode each chart on one thread (XChart's charts are mutable).
 */
final class DecisionCharts {
  /** The size of every chart, in pixels (the benchmark report's charts have the same). */
  static final int WIDTH = 800;
  static final int HEIGHT = 480;

  private DecisionCharts() {}

  /** Saves {@code chart} as {@code stem.png} and {@code stem.svg} in {@code dir}. */
  static void save(Path dir, String stem, IChart chart) throws IOException {
    ReportOutput.saveChart(dir, stem, chart);
  }

  /** Each configuration's doubly robust estimate with its interval; a flagged one grey; the current policy dashed. */
  static CategoryChart estimates(OffPolicyEvaluation.Result r, List<DecisionReport.Line> lines) {
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
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
    for (DecisionReport.Line l : lines) {
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

  /** Each interval's half-width as the log grows to 16 times its size (shrinking as 1/√n). */
  static XYChart precision(OffPolicyEvaluation.Result r, List<DecisionReport.Line> lines) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
        .title("Interval half-width as the log grows").xAxisTitle("logged decisions").yAxisTitle("± success rate (95 %)").build();
    chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
    chart.getStyler().setChartBackgroundColor(Color.WHITE);
    chart.getStyler().setYAxisMin(0.0);
    int n = r.decisions();
    boolean any = false;
    for (DecisionReport.Line l : lines) {
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
