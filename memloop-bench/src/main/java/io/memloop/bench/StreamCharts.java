package io.memloop.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The stream report's charts per environment, one line per strategy over the episodes (a point per window of
 * {@link StreamMetrics#WINDOW}), in {@link ReportCharts}' style and palette, with the drift marked by a grey
 * vertical line. Not thread-safe, like XChart's charts.
 */
final class StreamCharts {
  private StreamCharts() {}

  /** Success per window: the learning curve on never-seen instances. */
  static XYChart curve(StreamEnvironmentSummary env, ReportCharts.Palette palette) {
    return lines(env, palette, "Learning curve: " + env.environment(), "success per window (mean over seeds)",
        StreamStrategySummary::curve, true, s -> true);
  }

  /** Cumulative regret against the oracle at the end of each window (the oracle itself left out). */
  static XYChart regret(StreamEnvironmentSummary env, ReportCharts.Palette palette) {
    return lines(env, palette, "Cumulative regret vs oracle: " + env.environment(), "regret (episodes, mean over seeds)",
        StreamStrategySummary::regretCurve, false, s -> !s.equals(Headline.CEILING));
  }

  /** Memories held after each window (no memory left out: it holds none). */
  static XYChart memories(StreamEnvironmentSummary env, ReportCharts.Palette palette) {
    return lines(env, palette, "Memory growth: " + env.environment(), "memories held (mean over seeds)",
        StreamStrategySummary::memoryCurve, false, s -> !s.equals(Headline.FLOOR));
  }

  private static XYChart lines(StreamEnvironmentSummary env, ReportCharts.Palette palette, String title, String yTitle,
      Function<StreamStrategySummary, List<Spread>> metric, boolean rate, java.util.function.Predicate<String> include) {
    XYChart chart = new XYChartBuilder().width(ReportCharts.WIDTH).height(ReportCharts.HEIGHT).title(title)
        .xAxisTitle("episode").yAxisTitle(yTitle).build();
    ReportCharts.style(chart.getStyler());
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setXAxisDecimalPattern("0");
    if (!rate) {
      chart.getStyler().setYAxisMin(null);
      chart.getStyler().setYAxisMax(null);
      chart.getStyler().setYAxisDecimalPattern("0");
    }
    double low = rate ? 0 : Double.POSITIVE_INFINITY;
    double high = rate ? 1 : Double.NEGATIVE_INFINITY;
    for (StreamStrategySummary s : env.strategies()) {
      List<Spread> spreads = metric.apply(s);
      if (!include.test(s.strategy()) || spreads.isEmpty()) {
        continue;
      }
      double[] x = new double[spreads.size()];
      double[] y = new double[spreads.size()];
      for (int i = 0; i < spreads.size(); i++) {
        x[i] = Math.min(env.length(), (i + 1) * StreamMetrics.WINDOW); // the episode the window ends at
        y[i] = spreads.get(i).mean();
        low = Math.min(low, y[i]);
        high = Math.max(high, y[i]);
      }
      XYSeries line = chart.addSeries(s.strategy(), x, y);
      line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      line.setLineColor(palette.color(s.strategy()));
      line.setLineStyle(palette.line(s.strategy()));
      line.setMarker(SeriesMarkers.NONE);
    }
    if (low <= high) {
      XYSeries drift = chart.addSeries("drift", new double[] {env.driftAt(), env.driftAt()}, new double[] {low, high});
      drift.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      drift.setLineColor(new Color(150, 150, 150));
      drift.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10.0f, new float[] {4.0f, 4.0f}, 0.0f));
      drift.setMarker(SeriesMarkers.NONE);
    }
    chart.getStyler().setXAxisMin(0.0);
    chart.getStyler().setXAxisMax((double) env.length());
    return chart;
  }
}
