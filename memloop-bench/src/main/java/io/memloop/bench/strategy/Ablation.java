package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.MemLoopConfig.Consolidation;
import io.memloop.MemLoopConfig.SimilarityScope;
import io.memloop.MemLoopConfig.TieBreak;
import io.memloop.Preset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The ablations of the default preset: each undoes one of its differences from {@code memrl}, or adds
 * value-aware ranking, so that every component has to earn its place in the table.
 */
public final class Ablation {
  private static final MemLoopConfig DEFAULT = MemLoopConfig.preset(Preset.DEFAULT);

  /** Strategy name to configuration, in table order. */
  public static final Map<String, MemLoopConfig> NAMES = names();

  private Ablation() {}

  private static Map<String, MemLoopConfig> names() {
    Map<String, MemLoopConfig> m = new LinkedHashMap<>();
    m.put("default-no-task-learning", DEFAULT.toBuilder().taskLearning(MemLoopConfig.TaskLearning.OFF).build());
    m.put("default-no-exploration", DEFAULT.toBuilder().exploreBudget(0).build());
    m.put("default-no-merging", DEFAULT.toBuilder().consolidation(Consolidation.EXACT_DUPLICATES).build());
    m.put("default-no-consolidation", DEFAULT.toBuilder().consolidation(Consolidation.NONE).build());
    m.put("default-whole-notes", DEFAULT.toBuilder().noteDepth(MemLoopConfig.NoteDepth.WHOLE).build());
    m.put("default-newest-notes", DEFAULT.toBuilder().noteDepth(MemLoopConfig.NoteDepth.NEWEST).build());
    // both of the namespace's draws fixed, to see what perfect draws would reach on each environment:
    // newest attempts and no exploration is what `rag` shows a failing task; whole notes, no exploration
    m.put("default-newest-no-exploration",
        DEFAULT.toBuilder().noteDepth(MemLoopConfig.NoteDepth.NEWEST).exploreBudget(0).build());
    m.put("default-whole-no-exploration",
        DEFAULT.toBuilder().noteDepth(MemLoopConfig.NoteDepth.WHOLE).exploreBudget(0).build());
    m.put("default-oldest-first", DEFAULT.toBuilder().tieBreak(TieBreak.OLDEST_FIRST).build());
    m.put("default-group-similarity", DEFAULT.toBuilder().similarityScope(SimilarityScope.INTENT_GROUP).build());
    m.put("default+utility", DEFAULT.toBuilder().lambda(0.5).build());
    m.put("default-k5", DEFAULT.toBuilder().k2(5).build()); // beside rag-k5: both show five memories
    // a task with no record of its own sees k2 = 3 like every other, not eight (the default's firstEncounterK2)
    m.put("default-narrow-first", DEFAULT.toBuilder().firstEncounterK2(0).build());
    // a task with no record of its own is shown eight from the k1 = 5 nearest intents, not from 32
    m.put("default-narrow-first-recall", DEFAULT.toBuilder().firstEncounterK1(0).build());
    // ... from its eight nearest intents (the default of 2026-11-26 to 2026-11-27)
    m.put("default-eight-intents-first", DEFAULT.toBuilder().firstEncounterK1(8).build());
    // ranked by the plain cosine, no similarity learned from rewards (similarityDirections)
    m.put("default-no-learned-similarity", DEFAULT.toBuilder().similarityDirections(0).build());
    // a task with no record of its own is ranked by the vectors' similarity alone, not the texts' words too
    m.put("default-no-text-similarity", DEFAULT.toBuilder().textSimilarity(MemLoopConfig.TextSimilarity.OFF).build());
    // a task with no record of its own is shown a success whose latest use failed where similarity put it
    m.put("default-no-doubt", DEFAULT.toBuilder().doubt(MemLoopConfig.Doubt.OFF).build());
    // ... and on the draw only the successes whose latest use failed go last, the notes not first (2026-11-28 to -29)
    m.put("default-doubted-last", DEFAULT.toBuilder().doubt(MemLoopConfig.Doubt.LEARNED).build());
    // a new task ranked by the learned similarity whenever there is one, as before the draw
    m.put("default-always-learned",
        DEFAULT.toBuilder().directionsUse(MemLoopConfig.DirectionsUse.ALWAYS).build());
    // a new task ranked by the learned mix of the vectors' and the texts' similarities, as before the draw
    m.put("default-mixed-text", DEFAULT.toBuilder().textAlone(MemLoopConfig.TextAlone.NEVER).build());
    // neither, nor the texts, nor doubt: the default of 2026-11-27 before the learned similarity was part of it
    m.put("default-cosine-eight-intents", DEFAULT.toBuilder().similarityDirections(0).firstEncounterK1(8)
        .textSimilarity(MemLoopConfig.TextSimilarity.OFF).doubt(MemLoopConfig.Doubt.OFF).build());
    // a task with no record of its own is shown the similarity order even where a success has gone stale
    m.put("default-no-freshness", DEFAULT.toBuilder().freshness(0).build());
    // with a two-model embedder (--embedder minilm+hashing): the whole vectors' cosine, no learned block weights
    m.put("default-equal-blocks", DEFAULT.toBuilder().similarityBlocks(1).build());
    m.put("default+neighbours", DEFAULT.toBuilder().taskLearning(MemLoopConfig.TaskLearning.NEIGHBOURS).build());
    m.put("default-capped-128", DEFAULT.toBuilder().maxMemories(128).build());
    return java.util.Collections.unmodifiableMap(m);
  }
}
