package io.memloop.history.report;

import io.memloop.history.OffPolicyEvaluation;
import io.memloop.history.OffPolicyEvaluation.Estimate;
import io.memloop.history.OffPolicyEvaluation.Report;
import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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

  /**
   * The configurations a report compares when none is named: MemRL's, similarity only, MemLoop's default, and
   * MemRL with one knob changed ({@code k2=1}, {@code lambda=1}); keyed by the spec that names each.
   */
  public static Map<String, MemLoopConfig> defaultCandidates() {
    Map<String, MemLoopConfig> c = new LinkedHashMap<>();
    MemLoopConfig memrl = MemLoopConfig.preset(Preset.MEMRL);
    c.put("memrl", memrl);
    c.put("similarity", MemLoopConfig.preset(Preset.SIMILARITY));
    MemLoopConfig dflt = MemLoopConfig.preset(Preset.DEFAULT);
    c.put("default", dflt);
    // a log holds the similarity its policy ranked by: where that was the cosine, the default's learned similarity and
    // its texts' similarity are not in it (flagged), and this is the default as such a log can show it
    c.put("default:similarityDirections=0:textSimilarity=OFF", dflt.toBuilder().similarityDirections(0)
        .textSimilarity(MemLoopConfig.TextSimilarity.OFF).build());
    c.put("memrl:k2=1", memrl.toBuilder().set("k2", "1").build());
    c.put("memrl:lambda=1", memrl.toBuilder().set("lambda", "1").build());
    return c;
  }

  /** What every estimate is, said once in each document (BENCHMARKS.md "Off-policy evaluation against the truth"). */
  static final String ESTIMAND = "Each estimate is this rule on our memory as it was (the logged memories and rewards), "
      + "not a deployment: what the configuration would have chosen, decision by decision, from the memories the log "
      + "shows with the utilities they had; a configuration that learns per task has its ledger replayed along the log, "
      + "fed the logged slates' rewards. Deployed, it would store and learn from its own choices, which no log shows.";

  /** One configuration's line of the report (and of its charts, {@link DecisionCharts}). */
  record Line(Report report, boolean trusted, double halfWidth, String moreToHalve, String moreToTarget0,
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
      DecisionCharts.save(dir, "estimates", DecisionCharts.estimates(r, lines));
      DecisionCharts.save(dir, "precision", DecisionCharts.precision(r, lines));
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

  /** Text in HTML ({@link ReportOutput#html}). */
  static String esc(String s) {
    return ReportOutput.html(s);
  }
}
