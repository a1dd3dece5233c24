package io.memloop.bench.knowntruth;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.OpeValidation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * issue 23 item 11: on a world with known truth where per-task learning matters, evaluate's estimate of each
 * candidate (default included) holds the candidate's live success within its interval, or the candidate is
 * flagged not evaluable; never a confident number for a learner scored as if it learned nothing.
 */
class KnownTruthWorldTest {
  @TempDir Path dir;

  @Test
  void everyCandidatesLiveSuccessIsWithinItsIntervalOrItIsFlagged() {
    KnownTruthWorld.Result r = KnownTruthWorld.run(23, 1_500, 0.3, OpeValidation.defaultCandidates(), dir);
    String table = KnownTruthWorld.markdown(r);
    assertThat(r.decisions()).isEqualTo(1_500);
    for (KnownTruthWorld.Comparison c : r.comparisons()) {
      assertThat(c.flagged() || c.liveInInterval()).as("%s%n%s", c.candidate(), table).isTrue();
      assertThat(c.report().drSuccess().low()).isBetween(0.0, 1.0);
      assertThat(c.report().drSuccess().high()).isBetween(0.0, 1.0);
    }
    // memrl logged it, ranking by the cosine: the default's learned similarity is not in the log, the rest of it is
    assertThat(comparison(r, "default").flagged()).as("the default's learned similarity%n%s", table).isTrue();
    KnownTruthWorld.Comparison def = comparison(r, "default:similarityDirections=0:textSimilarity=OFF");
    assertThat(def.flagged()).as("the default by the cosine is evaluable from this log once its ledger is replayed%n%s", table)
        .isFalse();
    assertThat(def.report().replayed()).isNotEmpty();
    System.out.println(table);
  }

  private static KnownTruthWorld.Comparison comparison(KnownTruthWorld.Result r, String candidate) {
    return r.comparisons().stream().filter(c -> c.candidate().equals(candidate)).findFirst().orElseThrow();
  }
}
