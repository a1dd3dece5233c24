package io.memloop.bench;

import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.TranscriptWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report's {@code index.html}: one self-contained static page (no script, no external style,
 * font or network reference; every link is relative to the report directory). All text from the
 * report is escaped, so names and the embedder id cannot inject markup.
 */
final class ReportPage {
  /** Raw files {@link BenchData} writes into the same directory. */
  static final List<String> DATA_FILES = List.of("summary.json", "episodes.jsonl", "episodes.csv");

  /** Shown for a metric no seed defined (n = 0), as in {@link Spread#format()}. */
  static final String UNDEFINED = "\u2014";

  private static final String TITLE = "MemLoop runtime-learning benchmark";

  static final String STYLE =
      """
      body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif;
             margin: 2rem auto; max-width: 1100px; padding: 0 1rem; color: #222; line-height: 1.45; }
      h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2.5rem; border-bottom: 1px solid #ddd; }
      table { border-collapse: collapse; margin: 0.8rem 0; font-variant-numeric: tabular-nums; }
      th, td { border: 1px solid #ddd; padding: 0.3rem 0.6rem; }
      table.metrics td { text-align: right; white-space: nowrap; } table.metrics th[scope=row] { text-align: left; }
      table.params th { text-align: left; background: #f6f6f6; }
      thead th { background: #f6f6f6; }
      .n { color: #777; font-size: 0.85em; }
      figure { margin: 1rem 0; } figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
      figcaption { color: #555; font-size: 0.9rem; }
      nav a { margin-right: 1rem; }
      p.lead { font-size: 1.05rem; }
      table.finding td, table.finding th { text-align: left; vertical-align: top; }
      td.gain { background: #e8f5e9; } td.loss { background: #fdecea; } td.flat { background: #f6f6f6; }
      """;

  /** One chart as written: {@code stem.png} and {@code stem.svg}, relative to the report directory. */
  record Figure(String stem, String caption) {}

  /** Why a chart is missing (e.g. a metric undefined everywhere). */
  record Note(String text) {}

  private ReportPage() {}

  /**
   * @param anchors each environment's section id (unique, HTML-safe)
   * @param perEnvironment each environment's charts, by environment name
   * @param overall the charts across environments
   * @param notes charts left out, and why
   */
  static String render(BenchReport report, Map<String, String> anchors, Map<String, List<Figure>> perEnvironment,
      List<Figure> overall, List<Note> notes) {
    StringBuilder h = new StringBuilder(16_384);
    h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        .append("<title>").append(esc(TITLE)).append("</title>\n<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
    h.append("<h1>").append(esc(TITLE)).append("</h1>\n");
    findings(h, report);

    h.append("<nav>");
    for (EnvironmentSummary env : report.environments()) {
      h.append("<a href=\"#").append(esc(anchors.get(env.environment()))).append("\">").append(esc(env.environment())).append("</a>");
    }
    h.append("<a href=\"#overall\">all environments</a><a href=\"#run\">this run</a><a href=\"#definitions\">definitions</a>"
        + "<a href=\"#data\">raw data</a></nav>\n");

    for (EnvironmentSummary env : report.environments()) {
      h.append("<section id=\"").append(esc(anchors.get(env.environment()))).append("\">\n<h2>").append(esc(env.environment())).append("</h2>\n");
      h.append("<p>").append(env.tasks()).append(" tasks, ").append(env.heldOut())
          .append(" held out (per seed). Mean \u00b1 sample std over seeds; <span class=\"n\">(n=k)</span> marks a metric defined for only k seeds.</p>\n");
      table(h, env);
      for (Figure f : perEnvironment.getOrDefault(env.environment(), List.of())) {
        figure(h, f);
      }
      h.append("</section>\n");
    }

    h.append("<section id=\"overall\">\n<h2>All environments</h2>\n");
    overall.forEach(f -> figure(h, f));
    for (Note n : notes) {
      h.append("<p>").append(esc(n.text())).append("</p>\n");
    }
    h.append("</section>\n");

    h.append("<section id=\"run\">\n<h2>This run</h2>\n");
    parameters(h, report);
    h.append("</section>\n");
    definitions(h, BenchReport.DEFINITIONS);

    h.append("<section id=\"data\">\n<h2>Raw data</h2>\n<p>Written alongside this page by the benchmark:</p>\n<ul>\n");
    for (String file : DATA_FILES) {
      h.append("<li><a href=\"").append(esc(file)).append("\">").append(esc(file)).append("</a></li>\n");
    }
    h.append("</ul>\n</section>\n</body>\n</html>\n");
    return h.toString();
  }

  /** The result at a glance: per environment, the best strategy and what it gains, with 95 % intervals. */
  private static void findings(StringBuilder h, BenchReport report) {
    BenchOptions o = report.options();
    h.append("<section id=\"finding\">\n<p class=\"lead\">Last-epoch accuracy of a frozen agent helped by each memory "
        + "strategy, ").append(o.seeds().size()).append(" seeds \u00d7 ").append(o.epochs()).append(" epochs, policy ")
        .append(esc(report.policy().id())).append(". Gains are paired per-seed differences: mean [95 % t-interval]; "
        + "<strong>gain</strong> means the whole interval is above zero.</p>\n");
    h.append("<table class=\"finding\">\n<thead><tr>");
    for (String c : List.of("environment", "best strategy", "gain over no memory", "gain over the next best",
        "MemLoop default vs the best other baseline")) {
      h.append("<th scope=\"col\">").append(esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (Headline hl : report.headlines()) {
      h.append("<tr><th scope=\"row\">").append(esc(hl.environment())).append("</th><td><strong>").append(esc(hl.best().strategy()))
          .append("</strong> ").append(String.format(Locale.ROOT, "%.2f", hl.best().mean())).append("</td>");
      cell(h, hl.overNoMemory(), false);
      cell(h, hl.overBaseline(), true);
      cell(h, hl.defaultVsBaseline(), true);
      h.append("</tr>\n");
    }
    h.append("</tbody></table>\n");
    report.overall().ifPresent(ov -> h.append("<p class=\"lead\">On average over the ").append(ov.baselines().size())
        .append(" environments, MemLoop default against each one's best baseline: <strong>")
        .append(esc(ov.difference().format())).append("</strong> (").append(esc(ov.difference().verdict())).append(").</p>\n"));
    Map<String, List<String>> identical = new java.util.LinkedHashMap<>(); // "a = b" -> environments
    for (Headline hl : report.headlines()) {
      hl.identical().forEach((s, same) -> identical.computeIfAbsent(s + " ran exactly as " + same, k -> new java.util.ArrayList<>())
          .add(hl.environment()));
    }
    identical.forEach((pair, envs) -> h.append("<p class=\"n\">").append(esc(pair)).append(" (identical runs, drawn dotted) on ")
        .append(envs.size() == report.environments().size() ? "every environment" : esc(String.join(", ", envs))).append(".</p>\n"));
    h.append("</section>\n");
  }

  private static void cell(StringBuilder h, java.util.Optional<Headline.Comparison> c, boolean nameOther) {
    if (c.isEmpty()) {
      h.append("<td>").append(UNDEFINED).append("</td>");
      return;
    }
    Headline.Difference d = c.get().difference();
    String verdict = d.verdict();
    String css = verdict.equals("gain") ? "gain" : verdict.equals("loss") ? "loss" : "flat";
    h.append("<td class=\"").append(css).append("\">");
    if (nameOther) {
      h.append(esc(c.get().a().strategy())).append(" vs ").append(esc(c.get().b().strategy())).append(": ");
    }
    h.append("<strong>").append(esc(d.format())).append("</strong> <span class=\"n\">").append(esc(verdict)).append("</span></td>");
  }

  private static void parameters(StringBuilder h, BenchReport report) {
    BenchOptions o = report.options();
    h.append("<table class=\"params\">\n");
    row(h, "seeds", o.seeds().size() + " " + o.seeds());
    row(h, "epochs", Integer.toString(o.epochs()));
    row(h, "size", o.size().name().toLowerCase(Locale.ROOT));
    row(h, "environments", String.join(", ", report.environments().stream().map(EnvironmentSummary::environment).toList()));
    row(h, "strategies", String.join(", ", ReportCharts.strategies(report)));
    row(h, "policy", report.policy().id());
    if (report.policy() instanceof LlmPolicy llm) {
      row(h, "LLM usage", BenchReport.usage(llm.usage()) + " (conversations in " + TranscriptWriter.FILE_NAME + ")");
    }
    row(h, "embedder", report.modelId());
    row(h, "wall time", String.format(Locale.ROOT, "%.1f s", report.wallSeconds()));
    h.append("</table>\n");
  }

  private static void row(StringBuilder h, String name, String value) {
    h.append("<tr><th scope=\"row\">").append(esc(name)).append("</th><td>").append(esc(value)).append("</td></tr>\n");
  }

  /** The columns of {@link BenchReport#toMarkdown()}, every one as mean ± std. */
  private static void table(StringBuilder h, EnvironmentSummary env) {
    h.append("<table class=\"metrics\">\n<thead><tr>");
    for (String c : List.of("strategy", "last epoch", "CSR", "forgetting", env.heldOutKind().label(), "r(Q, next)", "misled",
        "memories", "chars shown", "s/run")) {
      h.append("<th scope=\"col\">").append(esc(c)).append("</th>");
    }
    h.append("</tr></thead>\n<tbody>\n");
    for (StrategySummary s : env.strategies()) {
      int runs = s.runs().size();
      h.append("<tr><th scope=\"row\">").append(esc(s.strategy())).append("</th>");
      cell(h, s.lastEpochAccuracy(), 2, runs);
      cell(h, s.cumulativeSuccess(), 2, runs);
      cell(h, s.forgettingRate(), 2, runs);
      cell(h, s.transferAccuracy(), 2, runs);
      cell(h, s.qPredictsNext(), 2, runs);
      cell(h, s.misledRate(), 2, runs);
      cell(h, s.memories(), 0, runs);
      cell(h, s.shownChars(), 0, runs);
      cell(h, s.wallSeconds(), 1, runs);
      h.append("</tr>\n");
    }
    h.append("</tbody>\n</table>\n");
  }

  private static void cell(StringBuilder h, Spread s, int decimals, int runs) {
    h.append("<td>").append(esc(format(s, decimals)));
    if (!s.isEmpty() && s.n() < runs) {
      h.append(" <span class=\"n\">(n=").append(s.n()).append(")</span>");
    }
    h.append("</td>");
  }

  /** "0.62 ± 0.05" with the given decimals, or "—" when undefined. */
  static String format(Spread s, int decimals) {
    return s.isEmpty() ? UNDEFINED : String.format(Locale.ROOT, "%." + decimals + "f \u00b1 %." + decimals + "f", s.mean(), s.std());
  }

  static void figure(StringBuilder h, Figure f) {
    String png = f.stem() + ".png";
    String svg = f.stem() + ".svg";
    h.append("<figure>\n<a href=\"").append(esc(svg)).append("\"><img src=\"").append(esc(png))
        .append("\" alt=\"").append(esc(f.caption())).append("\" width=\"").append(ReportCharts.WIDTH)
        .append("\" height=\"").append(ReportCharts.HEIGHT).append("\"></a>\n<figcaption>").append(esc(f.caption()))
        .append(" (<a href=\"").append(esc(svg)).append("\">SVG</a>, <a href=\"").append(esc(png)).append("\">PNG</a>)</figcaption>\n</figure>\n");
  }

  /** Definitions such as {@link BenchReport#DEFINITIONS} as HTML: "- " lines become list items, indented lines continue them. */
  static void definitions(StringBuilder h, String text) {
    h.append("<section id=\"definitions\">\n<h2>Definitions</h2>\n");
    boolean inList = false;
    boolean inItem = false;
    for (String line : text.strip().split("\n")) {
      if (line.startsWith("- ")) {
        if (!inList) {
          h.append("<ul>\n");
          inList = true;
        }
        if (inItem) {
          h.append("</li>\n");
        }
        h.append("<li>").append(esc(line.substring(2).strip()));
        inItem = true;
      } else if (inItem && !line.isBlank() && Character.isWhitespace(line.charAt(0))) {
        h.append(' ').append(esc(line.strip()));
      } else {
        if (inItem) {
          h.append("</li>\n");
          inItem = false;
        }
        if (inList) {
          h.append("</ul>\n");
          inList = false;
        }
        if (!line.isBlank()) {
          h.append("<p>").append(esc(line.strip())).append("</p>\n");
        }
      }
    }
    if (inItem) {
      h.append("</li>\n");
    }
    if (inList) {
      h.append("</ul>\n");
    }
    h.append("</section>\n");
  }

  /** Escapes text for HTML element content and double- or single-quoted attribute values. */
  static String esc(String s) {
    return io.memloop.history.report.ReportOutput.html(s);
  }
}
