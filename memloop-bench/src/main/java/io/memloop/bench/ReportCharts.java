package io.memloop.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The report's charts, drawn with XChart (not yet encoded: {@link ReportWriter} saves them). Every
 * y axis is a rate in [0, 1] so that charts compare at a glance; each strategy keeps one colour
 * (and the oracle its dashed line) in every chart of a report, see {@link Palette}.
 *
 * <p>Not thread-safe: build and encode each chart on one thread (XChart's charts are mutable).
 */
final class ReportCharts {
  static final int WIDTH = 800;
  static final int HEIGHT = 480;

  /** Alpha of a spread band: light enough that two overlapping bands stay readable. */
  private static final int BAND_ALPHA = 48;

  private ReportCharts() {}

  /**
   * A fixed colour per strategy, so a strategy looks the same in every chart: the floor grey, the
   * ceiling black and dashed, the rest distinct colours of the Tableau 10 palette (colour-blind
   * tolerant, and familiar from matplotlib). Unknown names take the remaining colours in order of
   * first appearance in the report.
   */
  static final class Palette {
    private static final Map<String, Color> KNOWN = Map.of(
        "no-memory", new Color(127, 127, 127),
        "similarity", new Color(31, 119, 180),
        "memp", new Color(255, 127, 14),
        "memrl", new Color(44, 160, 44),
        "default", new Color(214, 39, 40),
        "oracle", Color.BLACK);
    private static final List<Color> SPARE = List.of(
        new Color(148, 103, 189), new Color(140, 86, 75), new Color(227, 119, 194),
        new Color(188, 189, 34), new Color(23, 190, 207));

    private final Map<String, Color> colors = new LinkedHashMap<>();

    static Palette of(BenchReport report) {
      return of(strategies(report));
    }

    /** The palette of a report whose strategies are {@code strategies}, in order of first appearance. */
    static Palette of(List<String> strategies) {
      Palette p = new Palette();
      int spare = 0;
      for (String s : strategies) {
        Color c = KNOWN.get(s);
        if (c == null) {
          c = SPARE.get(spare++ % SPARE.size());
        }
        p.colors.put(s, c);
      }
      return p;
    }

    Color color(String strategy) {
      return colors.getOrDefault(strategy, Color.DARK_GRAY);
    }

    BasicStroke line(String strategy) {
      return strategy.equals("oracle")
          ? new BasicStroke(2.0f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10.0f, new float[] {8.0f, 5.0f}, 0.0f)
          : new BasicStroke(2.0f);
    }

    /** A dotted line over the series it repeats, so both stay visible. */
    static BasicStroke repeat() {
      return new BasicStroke(2.5f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 10.0f, new float[] {1.0f, 6.0f}, 0.0f);
    }
  }

  /** Every strategy of the report, in order of first appearance (the options' report order). */
  static List<String> strategies(BenchReport report) {
    Set<String> names = new LinkedHashSet<>();
    report.environments().forEach(e -> e.strategies().forEach(s -> names.add(s.strategy())));
    return List.copyOf(names);
  }

  /**
   * Mean epoch accuracy per epoch per strategy; bands of mean ± std over seeds for the two strategies
   * the finding compares (MemLoop default, or the best strategy, and the best other baseline), so the
   * bands that matter are not lost under the others.
   */
  static XYChart learningCurves(EnvironmentSummary env, Palette palette) {
    return perEpoch(env, palette, "Learning curves: " + env.environment(), "accuracy (mean over seeds)",
        StrategySummary::epochAccuracy);
  }

  /** CSR after each epoch per strategy (fraction of tasks solved at least once), mean over seeds. */
  static XYChart cumulativeSuccess(EnvironmentSummary env, Palette palette) {
    return perEpoch(env, palette, "Cumulative success rate: " + env.environment(), "CSR (mean over seeds)",
        ReportCharts::csrPerEpoch);
  }

  /** The strategies whose spread is drawn: the two the environment's finding compares. */
  static Set<String> banded(Headline h) {
    Set<String> out = new LinkedHashSet<>();
    h.defaultVsBaseline().or(h::overBaseline).ifPresent(c -> {
      out.add(c.a().strategy());
      out.add(c.b().strategy());
    });
    return out;
  }

  /** CSR per epoch over seeds, from each run's {@link LearningCurve#cumulativeSuccess()}. */
  static List<Spread> csrPerEpoch(StrategySummary s) {
    int epochs = s.runs().stream().mapToInt(LearningCurve::epochs).min().orElse(0);
    List<Spread> out = new ArrayList<>(epochs);
    for (int e = 0; e < epochs; e++) {
      int epoch = e;
      out.add(Spread.of(s.runs().stream().map(c -> c.cumulativeSuccess().get(epoch)).toList()));
    }
    return out;
  }

  private static XYChart perEpoch(
      EnvironmentSummary env, Palette palette, String title, String yTitle, Function<StrategySummary, List<Spread>> metric) {
    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle("epoch").yAxisTitle(yTitle).build();
    style(chart.getStyler());
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    Map<String, List<Spread>> curves = new LinkedHashMap<>();
    env.strategies().forEach(s -> curves.put(s.strategy(), metric.apply(s)));
    int epochs = curves.values().stream().mapToInt(List::size).max().orElse(1);
    Headline finding = Headline.of(env);
    Set<String> banded = banded(finding);
    // Bands first: XChart paints in insertion order, so every line stays on top of every band.
    curves.forEach((strategy, spreads) -> {
      if (banded.contains(strategy) && spreads.size() > 1 && spreads.stream().anyMatch(sp -> sp.std() > 0)) {
        band(chart, strategy, spreads, palette.color(strategy));
      }
    });
    for (Map.Entry<String, List<Spread>> curve : curves.entrySet()) {
      String strategy = curve.getKey();
      List<Spread> spreads = curve.getValue();
      if (spreads.isEmpty()) {
        continue;
      }
      double[] x = new double[spreads.size()];
      double[] y = new double[spreads.size()];
      for (int i = 0; i < spreads.size(); i++) {
        x[i] = i + 1;
        y[i] = spreads.get(i).mean();
      }
      String same = finding.identical().get(strategy);
      String label = (same == null ? strategy : strategy + " (= " + same + ")") + (banded.contains(strategy) ? " \u00b1 std" : "");
      XYSeries line = chart.addSeries(label, x, y);
      line.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
      line.setLineColor(palette.color(strategy));
      line.setLineStyle(same == null ? palette.line(strategy) : Palette.repeat());
      line.setMarker(SeriesMarkers.CIRCLE);
      line.setMarkerColor(palette.color(strategy));
    }
    // Epochs are whole numbers: label only those. XChart widens its tick spacing until the labels
    // are distinct, so blanking 1.5, 2.5... leaves exactly the whole epochs. A single epoch has no
    // such spacing (XChart would drop every label), so there the half steps stay labelled.
    chart.getStyler().setXAxisTickLabelsFormattingFunction(x -> {
      double whole = Math.rint(x);
      if (Math.abs(x - whole) < 1e-6) {
        return whole >= 1 && whole <= epochs ? Long.toString(Math.round(whole)) : "";
      }
      return epochs == 1 ? String.format(Locale.ROOT, "%.1f", x) : "";
    });
    chart.getStyler().setXAxisMin(epochs > 1 ? 1.0 : 0.5);
    chart.getStyler().setXAxisMax(epochs > 1 ? epochs : 1.5);
    return chart;
  }

  /** A closed polygon from mean + std (epoch 1 → E) back along mean − std (E → 1), clamped to [0, 1]. */
  private static void band(XYChart chart, String strategy, List<Spread> spreads, Color color) {
    int n = spreads.size();
    double[] x = new double[2 * n + 1];
    double[] y = new double[2 * n + 1];
    for (int i = 0; i < n; i++) {
      Spread sp = spreads.get(i);
      x[i] = i + 1;
      y[i] = clamp(sp.mean() + sp.std());
      x[2 * n - 1 - i] = i + 1;
      y[2 * n - 1 - i] = clamp(sp.mean() - sp.std());
    }
    x[2 * n] = x[0];
    y[2 * n] = y[0];
    // Series names must be unique per chart; the band never shows in the legend.
    XYSeries band = chart.addSeries(strategy + " spread", x, y);
    band.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.PolygonArea);
    band.setFillColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), BAND_ALPHA));
    band.setLineStyle(SeriesLines.NONE);
    band.setMarker(SeriesMarkers.NONE);
    band.setShowInLegend(false);
  }

  /**
   * One bar per strategy per environment: the metric's mean over seeds with std error bars. An
   * undefined value (no seed had one) gets no bar; a strategy undefined everywhere gets no series.
   *
   * @return empty when the metric is undefined for every strategy on every environment
   */
  static Optional<CategoryChart> bars(BenchReport report, Palette palette, String title, String yTitle,
      Function<StrategySummary, Spread> metric) {
    return bars(report, palette, title, yTitle, metric, s -> true, false);
  }

  /**
   * As {@link #bars(BenchReport, Palette, String, String, Function)}, for the strategies {@code include}
   * accepts; {@code fitY} scales the y axis to the highest bar plus its error (rounded up to a tenth)
   * instead of [0, 1].
   */
  static Optional<CategoryChart> bars(BenchReport report, Palette palette, String title, String yTitle,
      Function<StrategySummary, Spread> metric, java.util.function.Predicate<String> include, boolean fitY) {
    List<String> envs = report.environments().stream().map(EnvironmentSummary::environment).toList();
    CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle("environment").yAxisTitle(yTitle).build();
    style(chart.getStyler());
    chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
    chart.getStyler().setErrorBarsColorSeriesColor(false);
    chart.getStyler().setErrorBarsColor(new Color(80, 80, 80));
    chart.getStyler().setOverlapped(false);
    chart.getStyler().setPlotGridVerticalLinesVisible(false);
    boolean any = false;
    double top = 0;
    for (String strategy : strategies(report).stream().filter(include).toList()) {
      List<Double> means = new ArrayList<>(envs.size());
      List<Double> errors = new ArrayList<>(envs.size());
      boolean defined = false;
      for (EnvironmentSummary env : report.environments()) {
        Optional<Spread> sp = env.strategy(strategy).map(metric).filter(s -> !s.isEmpty());
        // XChart draws no bar for NaN; 0 would claim a measurement.
        means.add(sp.map(Spread::mean).orElse(Double.NaN));
        errors.add(sp.map(Spread::std).orElse(0.0));
        defined |= sp.isPresent();
        top = Math.max(top, sp.map(x -> x.mean() + x.std()).orElse(0.0));
      }
      if (!defined) {
        continue;
      }
      any = true;
      CategorySeries series = chart.addSeries(strategy, envs, means, errors);
      series.setFillColor(palette.color(strategy));
      series.setLineColor(palette.color(strategy));
      series.setMarkerColor(palette.color(strategy));
    }
    if (fitY) {
      chart.getStyler().setYAxisMax(Math.min(1.0, Math.max(0.1, Math.ceil(top * 10) / 10)));
      chart.getStyler().setYAxisDecimalPattern("0.00");
    }
    return any ? Optional.of(chart) : Optional.empty();
  }

  static void style(AxesChartStyler styler) {
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setPlotBackgroundColor(Color.WHITE);
    styler.setPlotBorderColor(new Color(200, 200, 200));
    styler.setPlotGridLinesColor(new Color(225, 225, 225));
    styler.setLegendBorderColor(new Color(200, 200, 200));
    styler.setChartTitleBoxVisible(false);
    styler.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
    styler.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
    styler.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    styler.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    styler.setMarkerSize(6);
    styler.setYAxisMin(0.0);
    styler.setYAxisMax(1.0);
    styler.setYAxisDecimalPattern("0.0");
    styler.setAntiAlias(true);
  }

  private static double clamp(double v) {
    return Math.max(0.0, Math.min(1.0, v));
  }
}
