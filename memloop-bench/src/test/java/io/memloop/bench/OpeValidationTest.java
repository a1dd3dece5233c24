package io.memloop.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.embeddings.HashingEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The off-policy check on the benchmark: the logging policy's own greedy configuration is estimated without a
 * warning and close to its counterfactual truth; a candidate the log cannot see (another k2) is flagged.
 */
class OpeValidationTest {
  @TempDir Path dir;

  @Test
  void theLoggingPolicysGreedyChoiceIsEstimatedWellAndUnseeableCandidatesAreFlagged() throws Exception {
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(21L, 22L)).withEpochs(3)
        .withEnvironments(List.of("recurring-ops"));
    OpeValidation.Result r = OpeValidation.run(new HashingEmbedder(), options, 0.2, OpeValidation.defaultCandidates(), dir,
        new Bench.Listener() {
          @Override
          public void epochDone(String environment, String strategy, long seed, int epoch, double accuracy) {}
        });
    Map<String, OpeValidation.Row> rows = r.rows().stream().collect(Collectors.toMap(OpeValidation.Row::candidate, x -> x));
    assertThat(rows.keySet()).containsExactlyInAnyOrderElementsOf(OpeValidation.defaultCandidates().keySet());
    OpeValidation.Row memrl = rows.get("memrl");
    assertThat(memrl.departures()).isZero();
    assertThat(memrl.flagged()).isZero();
    assertThat(memrl.drError()).as("DR %s vs counterfactual %s", memrl.dr(), memrl.counterfactual())
        .isLessThanOrEqualTo(2 * memrl.drHalfWidth());
    OpeValidation.Row k2 = rows.get("memrl:k2=1");
    assertThat(k2.support()).isLessThan(1);
    assertThat(k2.flagged()).isEqualTo(2);
    try (var logs = Files.list(dir.resolve("recurring-ops").resolve("seed-21"))) {
      assertThat(logs.filter(p -> p.toString().endsWith(".jsonl"))).hasSize(1);
    }
    assertThat(OpeValidation.markdown(r)).contains("| recurring-ops | memrl |");
    assertThat(OpeValidation.markdown(r)).contains("Known-truth world").contains("per-task ledger");
    assertThat(r.knownTruth().comparisons()).allSatisfy(c -> assertThat(c.flagged() || c.liveInInterval()).isTrue());
    assertThatThrownBy(() -> OpeValidation.run(new HashingEmbedder(), options, 0, OpeValidation.defaultCandidates(), dir,
        (environment, strategy, seed, epoch, accuracy) -> {}))
        .isInstanceOf(MemLoopException.class).hasMessageStartingWith("--epsilon");
  }
}
