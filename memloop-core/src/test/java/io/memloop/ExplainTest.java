package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link MemLoop#explain} runs retrieval's own steps, changes nothing; {@link MemLoop#learned} reads the ledger. */
class ExplainTest {
  private static final int DIM = 8;

  private static MemLoop engine(MemLoopConfig config, long seed) {
    return MemLoop.builder().store(new InMemoryStore(DIM)).config(config)
        .clock(new MutableClock(Instant.parse("2026-01-01T00:00:00Z"))).seed(seed).build();
  }

  private static float[] vec(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return v;
  }

  /** Thirty memories in a few nearby groups, some rewarded, so that Q, similarity and the floor all matter. */
  private static List<float[]> fill(MemLoop loop, long seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    List<float[]> queries = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      float[] v = vec(rnd);
      queries.add(v);
      loop.remember("ns", Intent.ofEmbedding(v), "experience " + i, i % 3 == 0 ? Outcome.FAILURE : Outcome.SUCCESS);
    }
    for (int i = 0; i < 10; i++) {
      Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(queries.get(i)));
      loop.reward("ns", r.id(), i % 2 == 0 ? 1 : -1);
    }
    return queries;
  }

  @Test
  void explain_withExplorationOff_showsWhatRetrieveSelects() {
    MemLoopConfig config = MemLoopConfig.preset(Preset.MEMRL).toBuilder().set("k1", "5").set("similarityThreshold", "-1")
        .set("qMin", "-0.5").build();
    try (MemLoop loop = engine(config, 3)) {
      List<float[]> queries = fill(loop, 11);
      for (float[] q : queries) {
        Explanation x = loop.explain("ns", Intent.ofEmbedding(q));
        Retrieval r = loop.retrieve("ns", Intent.ofEmbedding(q));
        assertThat(x.shown()).isEqualTo(r.selected().stream().map(Memory::id).toList());
        assertThat(x.candidates()).extracting(Explanation.Entry::memoryId)
            .isEqualTo(r.candidates().stream().map(Candidate::memoryId).toList());
        for (int i = 0; i < x.candidates().size(); i++) {
          Explanation.Entry e = x.candidates().get(i);
          Candidate c = r.candidates().get(i);
          assertThat(e.rank()).isEqualTo(i + 1);
          assertThat(e.score()).isEqualTo(c.score());
          assertThat(e.probability()).isEqualTo(c.probability());
          assertThat(e.greedy()).isEqualTo(c.selected());
          assertThat(e.eligible()).isEqualTo(e.q() >= config.qMin());
          assertThat(e.dropped()).isEqualTo(e.eligible() ? null : "below qMin");
          assertThat(e.score()).isEqualTo((1 - config.lambda()) * e.normSimilarity() + config.lambda() * e.normQ());
        }
        assertThat(x.steps()).extracting(Explanation.Step::step)
            .containsExactly("Score", "TieBreak", "QMinFilter", "TaskOrder", "Explore", "NoteDepth");
        assertThat(x.recalledMemories()).isEqualTo(r.candidates().size());
      }
    }
  }

  @Test
  void explain_isReadOnly_theNextRetrievalIsTheTwinEnginesWhichNeverExplained() {
    // ε-greedy and per-task learning: every retrieval draws, so a draw taken by explain would change the next one
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().set("exploration", "EPSILON_GREEDY")
        .set("epsilon", "0.5").set("similarityThreshold", "-1").build();
    try (MemLoop explained = engine(config, 5); MemLoop twin = engine(config, 5)) {
      List<float[]> queries = fill(explained, 13);
      fill(twin, 13);
      for (float[] q : queries) {
        var before = explained.list("ns", MemoryQuery.builder().limit(100).build()).memories();
        var pending = explained.stats("ns").pendingRetrievals();
        var ledger = ((InMemoryStore) explained.store()).ledger("ns", List.of("n", "d"));
        explained.explain("ns", Intent.ofEmbedding(q));
        assertThat(explained.list("ns", MemoryQuery.builder().limit(100).build()).memories()).isEqualTo(before);
        assertThat(explained.stats("ns").pendingRetrievals()).isEqualTo(pending);
        assertThat(explained.store().ledger("ns", List.of("n", "d"))).usingRecursiveComparison().isEqualTo(ledger);
        Retrieval a = explained.retrieve("ns", Intent.ofEmbedding(q));
        Retrieval b = twin.retrieve("ns", Intent.ofEmbedding(q));
        assertThat(a.candidates()).isEqualTo(b.candidates());
        assertThat(a.selected()).isEqualTo(b.selected());
        explained.reward("ns", a.id(), 1);
        twin.reward("ns", b.id(), 1);
      }
    }
  }

  @Test
  void explain_ofATaskWithNoRecord_namesTheWiderFirstView_andShowsWhatRetrieveShows() {
    // doubt LEARNED: NOTES_FIRST would draw between two orders for this new task, and explain shows the greedy one
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().set("similarityThreshold", "-1")
        .set("k1", "20").doubt(MemLoopConfig.Doubt.LEARNED).build();
    try (MemLoop loop = engine(config, 4)) {
      fill(loop, 19);
      Intent fresh = Intent.ofEmbedding(vec(new SplittableRandom(99)));
      Explanation x = loop.explain("ns", fresh);
      assertThat(x.shown()).hasSize(config.firstEncounterK2()).hasSize(8);
      assertThat(x.steps()).filteredOn(s -> s.step().equals("TaskOrder")).singleElement()
          .satisfies(s -> assertThat(s.detail()).contains("no record of its own yet", "firstEncounterK2 = 8", "k2 = 3"));
      Retrieval r = loop.retrieve("ns", fresh);
      assertThat(x.shown()).isEqualTo(r.selected().stream().map(Memory::id).toList());
      loop.reward("ns", r.id(), -1); // now it has a record: the learned selection of k2, and no such line
      Explanation after = loop.explain("ns", fresh);
      assertThat(after.shown()).hasSizeLessThanOrEqualTo(config.k2());
      assertThat(after.steps()).filteredOn(s -> s.step().equals("TaskOrder")).singleElement()
          .satisfies(s -> assertThat(s.detail()).doesNotContain("no record of its own yet"));
    }
  }

  @Test
  void explain_withNoUtilityFloor_namesItInItsStep() {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().set("qMin", "-Infinity")
        .set("similarityThreshold", "-1").build();
    try (MemLoop loop = engine(config, 2)) {
      List<float[]> queries = fill(loop, 17);
      Explanation x = loop.explain("ns", Intent.ofEmbedding(queries.getFirst()));
      assertThat(x.candidates()).allMatch(Explanation.Entry::eligible);
      assertThat(x.steps()).filteredOn(s -> s.step().equals("QMinFilter")).singleElement()
          .satisfies(s -> assertThat(s.detail()).contains("qMin = −∞"));
    }
  }

  @Test
  void explain_ofAnEmptyNamespace_recallsNothingAndRecordsNoConfiguration() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT), 1)) {
      Explanation x = loop.explain("empty", Intent.ofEmbedding(new float[] {1, 0, 0, 0, 0, 0, 0, 0}));
      assertThat(x.candidates()).isEmpty();
      assertThat(x.shown()).isEmpty();
      assertThat(x.steps()).hasSize(1);
      assertThat(loop.recordedConfig("empty")).isEmpty();
    }
  }

  @Test
  void learned_readsTheNamespacesLedger_andIsNoneWithTaskLearningOff() {
    try (MemLoop loop = engine(MemLoopConfig.preset(Preset.DEFAULT), 1)) {
      Learned fresh = loop.learned("ns");
      assertThat(fresh).isEqualTo(new Learned(true, 0, null, 0, null, null, 0, null, 0, null, null, List.of(), 0, 0, 0,
          List.of(), null, List.of(0.5, 0.5), 0)); // the vectors' and the texts' similarity, equal before any reward
      loop.store().putLedger("ns", Map.of("n", new double[] {2, 1, 4, 3}, "d", new double[] {5, 2.5, 1, 0}));
      Learned l = loop.learned("ns");
      assertThat(l).isEqualTo(new Learned(true, 2, 0.5, 4, 0.75, TaskLedger.explorationProbability(new double[] {2, 1, 4, 3}),
          5, 0.5, 1, 0.0, null, List.of(), 0, 0, 0, List.of(), null, List.of(0.5, 0.5), 0));
      loop.store().putLedger("ns", Map.of("r", new double[] {8, 6}));
      assertThat(loop.learned("ns").recurrence()).isEqualTo(0.7); // (6 + 1) / (8 + 2)
      assertThat(loop.learned("ns").blockWeights()).isEmpty(); // one model's vectors
      assertThat(loop.learned("ns").blockUpdates()).isZero();
    }
    MemLoopConfig off = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().set("taskLearning", "OFF").build();
    try (MemLoop loop = engine(off, 1)) {
      loop.store().putLedger("ns", Map.of("n", new double[] {2, 1, 4, 3}));
      assertThat(loop.learned("ns")).isEqualTo(Learned.NONE);
    }
  }
}
