package io.memloop.history.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.history.JsonlEventLog;
import io.memloop.history.OffPolicyEvaluation;
import io.memloop.store.InMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DecisionReportTest {
  @TempDir Path dir;

  @Test
  void writesMarkdownHtmlAndChartsWithEveryNumberFromTheEvaluation() throws Exception {
    Path log = dir.resolve("events");
    MemLoopConfig logging = MemLoopConfig.preset(Preset.MEMRL).toBuilder().exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.3).build();
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).config(logging).seed(7).events(new JsonlEventLog(log)).build()) {
      SplittableRandom random = new SplittableRandom(7);
      for (int i = 0; i < 200; i++) {
        String task = "rotate the keys of service " + random.nextInt(8);
        Retrieval r = loop.retrieve("ops", Intent.ofText(task));
        boolean ok = random.nextDouble() < 0.6;
        loop.reward("ops", r.id(), ok ? 1 : -1);
        loop.remember("ops", Intent.ofText(task), "attempt " + i + (ok ? ": worked" : ": failed"),
            ok ? Outcome.SUCCESS : Outcome.FAILURE, r.id());
      }
    }
    try (var files = Files.list(log)) {
      Files.writeString(files.findFirst().orElseThrow(), "<script>alert(1)</script>\n", StandardOpenOption.APPEND);
    }
    OffPolicyEvaluation.Result r = OffPolicyEvaluation.run(log, DecisionReport.defaultCandidates(), logging);
    Path html = DecisionReport.write(r, log.toString(), dir.resolve("report"));
    String md = Files.readString(dir.resolve("report/report.md"));
    String page = Files.readString(html);
    assertThat(md).contains(String.format(java.util.Locale.ROOT, "%,d decisions", r.decisions()))
        .contains(String.format(java.util.Locale.ROOT, "**%.1f %%", 100 * r.loggedSuccess().value()))
        .contains("| memrl:k2=1 |").contains("never at this logging configuration")
        .contains("1 malformed line(s)");
    // issue 23 item 12: what an estimate is; a flagged configuration shows its flag, not a precise-looking number
    assertThat(md).contains("this rule on our memory as it was (the logged memories and rewards), not a deployment");
    String flagged = md.lines().filter(l -> l.startsWith("| memrl:k2=1 |")).findFirst().orElseThrow();
    assertThat(flagged).contains(DecisionReport.FLAGGED).doesNotContain("[").doesNotContain("points");
    String precision = md.lines().filter(l -> l.startsWith("| memrl:k2=1 |")).skip(1).findFirst().orElseThrow();
    assertThat(precision).contains("— (flagged)").doesNotContain("%");
    assertThat(page).contains("<td>memrl</td>").doesNotContain("<script>").contains("(&#39;&lt;&#39; (code 60))");
    for (String chart : new String[] {"estimates.png", "estimates.svg", "precision.png", "precision.svg"}) {
      assertThat(dir.resolve("report").resolve(chart)).isNotEmptyFile();
    }
  }
}
