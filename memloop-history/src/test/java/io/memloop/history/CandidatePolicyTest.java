package io.memloop.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.OfflineLearning;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.policy.TaskNote;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What {@link CandidatePolicy} says a log cannot show of a candidate. */
class CandidatePolicyTest {
  private static final Map<String, Map<String, OfflineLearning.Known>> KNOWN =
      Map.of("ns", Map.of("m1", new OfflineLearning.Known(Outcome.SUCCESS, "did it")));

  private static OffPolicyEvaluation.Decision loggedBy(MemLoopConfig logging) {
    return new OffPolicyEvaluation.Decision("ns", "r1", "a task", List.of(new Candidate("m1", 0.9, 0, 0, true, 1)),
        Set.of("m1"), List.of("m1"), TaskNote.NO_DRAW, null, 1, 1, 1, logging);
  }

  @Test
  void aLearnedSimilarity_isInTheLog_onlyWhereTheLoggingPolicyLearnedAsManyDirections() {
    MemLoopConfig learning = MemLoopConfig.preset(Preset.DEFAULT);
    assertThat(learning.similarityDirections()).isEqualTo(8);
    MemLoopConfig cosine = learning.toBuilder().similarityDirections(0).textSimilarity(MemLoopConfig.TextSimilarity.OFF)
        .build(); // neither the learned similarity nor the texts', like memrl's log
    MemLoopConfig fewer = learning.toBuilder().similarityDirections(4).build();
    MemLoopConfig memrl = MemLoopConfig.preset(Preset.MEMRL).toBuilder().similarityDirections(8).build(); // no ledger: no learning
    List<OffPolicyEvaluation.Decision> byLearning = List.of(loggedBy(learning), loggedBy(learning));
    List<OffPolicyEvaluation.Decision> byCosine = List.of(loggedBy(cosine), loggedBy(memrl));

    assertThat(new CandidatePolicy(learning).unseeable("default", byLearning, KNOWN, Map.of())).isEmpty();
    assertThat(new CandidatePolicy(cosine).unseeable("cosine", byCosine, KNOWN, Map.of())).isEmpty();
    assertThat(new CandidatePolicy(learning).unseeable("default", byCosine, KNOWN, Map.of()))
        .filteredOn(w -> w.contains("similarityDirections")).singleElement()
        .satisfies(w -> assertThat(w).contains("'default' ranks by a similarity learned from rewards (similarityDirections=8)",
            "in 2 of 2 decisions the logging policy ranked by the cosine", "cannot be replayed",
            "evaluate it with similarityDirections=0 as logged"));
    assertThat(new CandidatePolicy(cosine).unseeable("cosine", byLearning, KNOWN, Map.of()))
        .filteredOn(w -> w.contains("similarityDirections")).singleElement()
        .satisfies(w -> assertThat(w).contains("'cosine' ranks by the cosine", "in 2 of 2 decisions",
            "(similarityDirections=8)", "evaluate it with similarityDirections=8 as logged"));
    assertThat(new CandidatePolicy(fewer).unseeable("fewer", List.of(loggedBy(learning), loggedBy(fewer)), KNOWN, Map.of()))
        .singleElement().satisfies(w -> assertThat(w).contains("in 1 of 2 decisions"));
    // with two models' vectors the block weights rank instead of a learned similarity, on both sides
    assertThat(new CandidatePolicy(learning).unseeable("default", byCosine, KNOWN, Map.of("ns", 2)))
        .noneMatch(w -> w.contains("similarityDirections"));
  }

  @Test
  void theTextsSimilarity_isInTheLog_onlyWhereTheLoggingPolicyWeighedItToo() {
    MemLoopConfig texts = MemLoopConfig.preset(Preset.DEFAULT);
    assertThat(texts.textSimilarity()).isEqualTo(MemLoopConfig.TextSimilarity.LEARNED);
    MemLoopConfig vectors = texts.toBuilder().textSimilarity(MemLoopConfig.TextSimilarity.OFF).build();
    List<OffPolicyEvaluation.Decision> byTexts = List.of(loggedBy(texts), loggedBy(texts));
    List<OffPolicyEvaluation.Decision> byVectors = List.of(loggedBy(vectors), loggedBy(texts), loggedBy(vectors));

    assertThat(new CandidatePolicy(texts).unseeable("default", byTexts, KNOWN, Map.of())).isEmpty();
    assertThat(new CandidatePolicy(texts).unseeable("default", byVectors, KNOWN, Map.of())).singleElement()
        .satisfies(w -> assertThat(w).contains("'default' mixes the words of the texts into a new task's similarity",
            "in 2 of 3 decisions the logging policy did not", "cannot be replayed",
            "evaluate it with textSimilarity=OFF as logged"));
    assertThat(new CandidatePolicy(vectors).unseeable("vectors", byTexts, KNOWN, Map.of())).singleElement()
        .satisfies(w -> assertThat(w).contains("'vectors' does not mix", "in 2 of 2 decisions the logging policy did",
            "evaluate it with textSimilarity=LEARNED as logged"));
    // with two models' vectors neither side mixes the texts in (the block weights are flagged instead)
    assertThat(new CandidatePolicy(texts).unseeable("default", byVectors, KNOWN, Map.of("ns", 2)))
        .noneMatch(w -> w.contains("textSimilarity"));
  }
}
