package io.memloop.bench;

import io.memloop.bench.llm.Policy;
import io.memloop.embeddings.HashingEmbedder;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;

/** The HTML report of a real quick run (fake embedder) and of hand-made reports with undefined metrics. */
class ReportWriterTest {
  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  @TempDir static Path dir;
  private static BenchReport report;
  private static Path index;
  private static String html;

  @BeforeAll
  static void writeReportOfAQuickRun() throws Exception {
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(11L, 12L)).withEpochs(3);
    report = Bench.run(new HashingEmbedder(64), options, (e, s, seed, ep, acc) -> {});
    index = ReportWriter.write(report, dir.resolve("nested/report"));
    html = Files.readString(index, StandardCharsets.UTF_8);
  }

  @Test
  void write_createsTheDirectory_andReturnsIndexHtml() {
    assertThat(index).isRegularFile().hasFileName(ReportWriter.INDEX);
    assertThat(index.getParent()).isEqualTo(dir.resolve("nested/report"));
    assertThat(html).startsWith("<!DOCTYPE html>").contains("<meta charset=\"utf-8\">").endsWith("</html>\n");
  }

  @Test
  void page_namesEveryEnvironmentAndStrategy_withATableRowPerStrategy() {
    for (EnvironmentSummary env : report.environments()) {
      assertThat(html).contains("<h2>" + env.environment() + "</h2>");
      for (StrategySummary s : env.strategies()) {
        assertThat(html).contains("<tr><th scope=\"row\">" + s.strategy() + "</th><td>" + ReportPage.format(s.lastEpochAccuracy(), 2));
      }
    }
    int environments = report.environments().size();
    for (String strategy : BenchOptions.STRATEGIES) {
      assertThat(count(html, "<tr><th scope=\"row\">" + strategy + "</th>")).as(strategy).isEqualTo(environments);
    }
    assertThat(html).contains("<th scope=\"col\">r(Q, next)</th>", "<th scope=\"col\">s/run</th>");
  }

  /**
   * Rewordings of trained tasks (recurring-ops, hard-questions) are reported as robustness, unseen tasks of
   * trained kinds (sql, text-world) as transfer: in the tables, summary.json and the episodes' phase.
   */
  @Test
  void heldOutTasks_areCalledTransferOrRobustness_byWhatTheyAre(@TempDir Path data) throws Exception {
    Map<String, String> expected = Map.of("recurring-ops", "robustness", "sql", "transfer",
        "text-world", "transfer", "hard-questions", "robustness");
    assertThat(report.environments()).extracting(e -> e.environment()).containsExactlyInAnyOrderElementsOf(expected.keySet());
    BenchData.write(report, data);
    ObjectMapper json = new ObjectMapper();
    JsonNode summary = json.readTree(data.resolve("summary.json").toFile()).get("environments");
    String markdown = report.toMarkdown();
    for (EnvironmentSummary env : report.environments()) {
      String kind = expected.get(env.environment());
      assertThat(env.heldOutKind().label()).as(env.environment()).isEqualTo(kind);
      assertThat(summary.get(env.environment()).get("heldOutKind").asText()).isEqualTo(kind);
      JsonNode memrl = summary.get(env.environment()).get("strategies").get("memrl");
      assertThat(memrl.has(kind + "Accuracy")).as(env.environment()).isTrue();
      assertThat(memrl.has((kind.equals("transfer") ? "robustness" : "transfer") + "Accuracy")).isFalse();
      String heading = "### " + env.environment() + " (";
      String table = markdown.substring(markdown.indexOf(heading), markdown.indexOf("\n\n", markdown.indexOf("| strategy", markdown.indexOf(heading))));
      assertThat(table).contains("| forgetting | " + kind + " |");
    }
    Set<String> phases = new HashSet<>();
    for (String line : Files.readAllLines(data.resolve("episodes.jsonl"), StandardCharsets.UTF_8)) {
      JsonNode row = json.readTree(line);
      phases.add(row.get("environment").asText() + ":" + row.get("phase").asText());
    }
    assertThat(phases).containsExactlyInAnyOrder("recurring-ops:train", "recurring-ops:robustness", "sql:train",
        "sql:transfer", "text-world:train", "text-world:transfer", "hard-questions:train", "hard-questions:robustness");
    assertThat(html).contains("<th scope=\"col\">robustness</th>", "<th scope=\"col\">transfer</th>");
  }

  @Test
  void page_showsRunParameters_definitions_andDataLinks() {
    assertThat(html).contains("2 [11, 12]", "<td>quick</td>", "<td>" + ReportPage.esc(report.modelId()) + "</td>", "wall time");
    assertThat(html).contains("Pearson r between the top-ranked memory", "<li>misled: among episodes that showed a memory");
    for (String file : List.of("summary.json", "episodes.jsonl", "episodes.csv")) {
      assertThat(html).contains("<a href=\"" + file + "\">");
    }
  }

  @Test
  void everyChart_isWrittenAsPngAndSvg_andShownInThePage() throws Exception {
    List<String> pngs = matches(html, "<img src=\"([^\"]+)\"");
    int environments = report.environments().size();
    // learning + CSR per environment; last-epoch always, forgetting when defined anywhere.
    assertThat(pngs.size()).isBetween(2 * environments + 1, 2 * environments + 2);
    assertThat(pngs).contains("last-epoch.png").allMatch(p -> p.endsWith(".png"));
    assertThat(new HashSet<>(pngs)).hasSameSizeAs(pngs);
    Path root = index.getParent();
    for (String png : pngs) {
      byte[] bytes = Files.readAllBytes(root.resolve(png));
      assertThat(bytes.length).as(png).isGreaterThan(10_000);
      assertThat(java.util.Arrays.copyOf(bytes, PNG_MAGIC.length)).as(png).isEqualTo(PNG_MAGIC);
      String svgName = png.replaceFirst("\\.png$", ".svg");
      assertThat(html).contains("href=\"" + svgName + "\"");
      String svg = Files.readString(root.resolve(svgName), StandardCharsets.UTF_8);
      assertThat(svg.stripLeading()).as(svgName).startsWith("<?xml");
      assertThat(svg).as(svgName).contains("<svg").hasSizeGreaterThan(2_000);
      assertThat(svgRoot(root.resolve(svgName)).getTagName()).as(svgName).isEqualTo("svg");
    }
  }

  @Test
  void page_isSelfContained_withOnlyRelativeLinks() {
    assertThat(html).doesNotContainIgnoringCase("http:").doesNotContainIgnoringCase("https:")
        .doesNotContainIgnoringCase("file:").doesNotContainIgnoringCase("<script").doesNotContainIgnoringCase("<link")
        .doesNotContain("@import").doesNotContain("url(").doesNotContain(dir.toString());
    for (String link : matches(html, "(?:src|href)=\"([^\"]*)\"")) {
      assertThat(link).as(link).doesNotStartWith("/").doesNotContain("..").doesNotContain("\\").doesNotContain(":");
    }
  }

  @Test
  void undefinedMetrics_renderAsDash_andGetNoBars(@TempDir Path out) throws Exception {
    // Transfer, r(Q, next) and misled undefined for every seed; forgetting for one of two.
    LearningCurve a = curve("memrl", 1, OptionalDouble.of(0.25));
    LearningCurve b = curve("memrl", 2, OptionalDouble.empty());
    BenchReport r = report(new EnvironmentSummary("toy", 3, 0, Environment.HeldOut.TRANSFER, List.of(StrategySummary.of("memrl", List.of(a, b)))));

    String page = Files.readString(ReportWriter.write(r, out), StandardCharsets.UTF_8);

    assertThat(page).contains("<tr><th scope=\"row\">memrl</th><td>0.75 \u00b1 0.00</td><td>1.00 \u00b1 0.00</td>"
        + "<td>0.25 \u00b1 0.00 <span class=\"n\">(n=1)</span></td><td>\u2014</td><td>\u2014</td><td>\u2014</td>"
        + "<td>4 \u00b1 0</td><td>0 \u00b1 0</td><td>0.5 \u00b1 0.0</td></tr>");
    assertThat(page).doesNotContain("NaN");
  }

  @Test
  void metricUndefinedEverywhere_isNotCharted_butSaysSo(@TempDir Path out) throws Exception {
    Files.writeString(out.resolve("forgetting.png"), "stale chart of an earlier run");
    BenchReport r = report(new EnvironmentSummary("toy", 3, 0, Environment.HeldOut.TRANSFER,
        List.of(StrategySummary.of("no-memory", List.of(curve("no-memory", 1, OptionalDouble.empty()))))));

    String page = Files.readString(ReportWriter.write(r, out), StandardCharsets.UTF_8);

    assertThat(page).contains("Forgetting rate (strategies with memory): undefined for every strategy on every environment").doesNotContain("forgetting.png");
    assertThat(out.resolve("forgetting.png")).doesNotExist();
    assertThat(out.resolve("last-epoch.png")).isRegularFile();
  }

  @Test
  void textFromTheReport_isEscaped(@TempDir Path out) throws Exception {
    String evil = "<script>alert('x')</script> & \"co\"";
    BenchReport r = report(new EnvironmentSummary("env <b>", 3, 0, Environment.HeldOut.TRANSFER,
        List.of(StrategySummary.of(evil, List.of(curve(evil, 1, OptionalDouble.of(0.1)))))));

    String page = Files.readString(ReportWriter.write(r, out), StandardCharsets.UTF_8);

    assertThat(page).doesNotContain("<script").doesNotContain("<b>")
        .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;co&quot;", "<h2>env &lt;b&gt;</h2>");
    // The slug keeps file names and anchors plain.
    assertThat(out.resolve("learning-env-b.png")).isRegularFile();
    assertThat(page).contains("id=\"env-env-b\"");
  }

  @Test
  void uniqueSlug_isFileNameSafe_andDistinct() {
    var used = new HashSet<String>();
    assertThat(ReportWriter.uniqueSlug("Recurring Ops/v2", used)).isEqualTo("recurring-ops-v2");
    assertThat(ReportWriter.uniqueSlug("recurring-ops-v2", used)).isEqualTo("recurring-ops-v2-2");
    assertThat(ReportWriter.uniqueSlug("???", used)).isEqualTo("environment");
  }

  @Test
  void csrPerEpoch_isTheMeanOverSeedsOfEachRunsCumulativeSuccess() {
    LearningCurve a = new LearningCurve("memrl", 1, List.of(0.5, 0.5), List.of(0.5, 1.0), OptionalDouble.empty(),
        List.of(1L, 2L), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), 0.1);
    LearningCurve b = new LearningCurve("memrl", 2, List.of(0.0, 0.5), List.of(0.0, 0.5), OptionalDouble.empty(),
        List.of(1L, 2L), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), 0.1);

    List<Spread> csr = ReportCharts.csrPerEpoch(StrategySummary.of("memrl", List.of(a, b)));

    assertThat(csr).extracting(Spread::mean).containsExactly(0.25, 0.75);
    assertThat(csr).extracting(Spread::n).containsExactly(2, 2);
  }

  /** Three epochs; transfer, r(Q, next) and misled undefined. */
  private static LearningCurve curve(String strategy, long seed, OptionalDouble forgetting) {
    return new LearningCurve(strategy, seed, List.of(0.25, 0.5, 0.75), List.of(0.5, 0.75, 1.0), forgetting,
        List.of(2L, 3L, 4L), OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.empty(), 0.5);
  }

  private static BenchReport report(EnvironmentSummary env) {
    return new BenchReport(BenchOptions.quick().withSeeds(List.of(1L, 2L)).withEpochs(3), "fake", Policy.FROZEN, List.of(env), List.of(), 1.0);
  }

  /** Parses the SVG as XML (well-formed, no network: the DTD it names is not fetched). */
  private static Element svgRoot(Path svg) throws Exception {
    DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
    f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    return f.newDocumentBuilder().parse(svg.toFile()).getDocumentElement();
  }

  private static List<String> matches(String s, String regex) {
    List<String> out = new ArrayList<>();
    Matcher m = Pattern.compile(regex).matcher(s);
    while (m.find()) {
      out.add(m.group(1));
    }
    return out;
  }

  private static int count(String s, String needle) {
    int n = 0;
    for (int i = s.indexOf(needle); i >= 0; i = s.indexOf(needle, i + needle.length())) {
      n++;
    }
    return n;
  }
}
