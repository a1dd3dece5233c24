package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.Outcome;
import io.memloop.Retrieval;
import io.memloop.history.JsonlEventLog;
import io.memloop.store.InMemoryStore;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decision report {@code memloop serve --event-log} serves: one namespace's events of the log only. */
class ServeReportsTest {
  @TempDir Path dir;

  @Test
  void reportsEvaluateOneNamespacesEvents_andSayWhenThereAreNone() {
    Path log = dir.resolve("log");
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(2)).events(new JsonlEventLog(log, 64L << 20, false)).seed(1).build()) {
      for (String ns : new String[] {"a", "a", "a", "b"}) {
        loop.remember(ns, Intent.ofEmbedding(new float[] {1, 0}), "try x", Outcome.SUCCESS);
        Retrieval r = loop.retrieve(ns, Intent.ofEmbedding(new float[] {1, 0}));
        loop.reward(ns, r.id(), 1);
      }
    }
    Map<String, Object> a = ServeCommand.reports(log).report("a");
    assertThat(a.get("available")).isEqualTo(true);
    assertThat(a.get("decisions")).isEqualTo(3);
    assertThat(ServeCommand.reports(log).report("b").get("decisions")).isEqualTo(1);
    Map<String, Object> none = ServeCommand.reports(log).report("c");
    assertThat(none.get("available")).isEqualTo(false);
    assertThat((String) none.get("reason")).contains("no retrieval of this namespace");
  }
}
