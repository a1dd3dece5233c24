package io.memloop.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Candidate;
import io.memloop.EmbeddingModel;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.policy.TaskNote;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link MemoryStore} must have. A store module tests itself by extending this
 * class; durable stores also implement {@link #reopen} so the suite checks that reopening restores
 * everything exactly.
 */
public abstract class MemoryStoreContract {
  protected static final int DIM = 8;
  protected static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  protected MemoryStore store;

  /** A new, empty store of {@code dimension}-d vectors. */
  protected abstract MemoryStore newStore(int dimension) throws Exception;

  /**
   * Closes {@code store} and opens the same store again; stores that do not persist return empty
   * (the reopen checks are then skipped).
   */
  protected Optional<MemoryStore> reopen(MemoryStore store) throws Exception {
    return Optional.empty();
  }

  @BeforeEach
  void openStore() throws Exception {
    store = newStore(DIM);
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      store.close();
    }
  }

  protected static float[] unit(double... components) {
    float[] v = new float[DIM];
    for (int i = 0; i < components.length; i++) {
      v[i] = (float) components[i];
    }
    return Vectors.normalized(v, "test");
  }

  /** A unit vector at angle {@code theta} from axis 0 in the (0, 1) plane: cos to e0 is cos(theta). */
  protected static float[] atCosine(double cosToE0) {
    return unit(cosToE0, Math.sqrt(Math.max(0, 1 - cosToE0 * cosToE0)));
  }

  protected static float[] randomUnit(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "test");
  }

  protected Memory insert(String ns, float[] embedding, String experience, double q) {
    return store.insert(
        new NewMemory(ns, "intent " + experience, embedding, experience, Outcome.SUCCESS, q, T0), 0.9);
  }

  protected RetrievalRecord saveSelecting(String ns, Duration ttl, String... memoryIds) {
    List<Candidate> candidates = new ArrayList<>();
    for (String id : memoryIds) {
      candidates.add(new Candidate(id, 0.9, 0.0, 1.0, true, 1.0));
    }
    return store.saveRetrieval(new RetrievalRecordDraft(ns, T0, T0.plus(ttl), candidates));
  }

  private static UtilityUpdate plus(double delta) {
    return (id, u) -> new Utility(u.q() + delta, u.visits() + 1);
  }

  @Test
  void insert_assignsUniqueIds_andGetReturnsTheMemory() {
    Memory a = insert("ns", unit(1, 0), "a", 0.0);
    Memory b = insert("ns", unit(0, 1), "b", 0.5);
    assertThat(a.id()).isNotEqualTo(b.id());
    assertThat(store.get("ns", a.id())).contains(a);
    assertThat(store.get("ns", b.id()).orElseThrow().q()).isEqualTo(0.5);
    assertThat(b.visits()).isZero();
    assertThat(b.createdAt()).isEqualTo(T0);
    assertThat(store.get("ns", "no-such-id")).isEmpty();
  }

  @Test
  void insert_withIntentAboveMergeThreshold_joinsTheExistingGroup() {
    Memory first = insert("ns", unit(1, 0), "first", 0);
    Memory close = store.insert(
        new NewMemory("ns", "close", atCosine(0.95), "close", Outcome.FAILURE, 0, T0), 0.9);
    Memory far = store.insert(
        new NewMemory("ns", "far", atCosine(0.5), "far", Outcome.FAILURE, 0, T0), 0.9);
    assertThat(close.intentId()).isEqualTo(first.intentId());
    assertThat(far.intentId()).isNotEqualTo(first.intentId());
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(3, 2, 0));
  }

  @Test
  void insert_placedByTheCallersSearch_joinsThatIntentOrStartsANewOne() {
    Memory first = insert("ns", unit(1, 0), "first", 0);
    var nearest = store.recall("ns", atCosine(0.95), 1, 0.9);
    assertThat(nearest).hasSize(1);
    Memory joined = store.insert(new NewMemory("ns", "close", atCosine(0.95), "close", Outcome.FAILURE, 0, T0), 0.9,
        nearest.getFirst().intentId());
    assertThat(joined.intentId()).isEqualTo(first.intentId());
    assertThat(store.recall("ns", unit(0, 0, 1), 1, 0.9)).isEmpty();
    Memory apart = store.insert(new NewMemory("ns", "apart", unit(0, 0, 1), "apart", Outcome.FAILURE, 0, T0), 0.9, null);
    assertThat(apart.intentId()).isNotIn(first.intentId());
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(3, 2, 0));
    // an intent deleted since the caller's search: the store finds the nearest itself
    store.delete("ns", apart.id());
    Memory again = store.insert(new NewMemory("ns", "again", atCosine(0.97), "again", Outcome.FAILURE, 0, T0), 0.9,
        apart.intentId());
    assertThat(again.intentId()).isEqualTo(first.intentId());
    assertThat(store.get("ns", again.id())).isPresent();
  }

  @Test
  void page_listsLiveMemoriesOldestFirstAfterTheGivenOne() {
    List<Memory> in = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      in.add(insert("ns", unit(i + 1, 1), "e" + i, 0));
    }
    insert("other", unit(1, 0), "elsewhere", 0);
    store.delete("ns", in.get(2).id());
    assertThat(store.page("ns", null, 2)).extracting(Memory::id).containsExactly(in.get(0).id(), in.get(1).id());
    assertThat(store.page("ns", in.get(1).id(), 10)).extracting(Memory::id).containsExactly(in.get(3).id(), in.get(4).id());
    assertThat(store.page("ns", in.get(4).id(), 10)).isEmpty();
    assertThat(store.page("nobody", null, 10)).isEmpty();
    assertThat(store.page("ns", null, 10).getFirst().experience()).isEqualTo("e0");
  }

  @Test
  void recall_appliesGate_ordersBySimilarity_andPoolsGroupMembers() {
    Memory a1 = insert("ns", unit(1, 0), "a1", 0);
    Memory a2 = insert("ns", atCosine(0.99), "a2", 0); // joins a1's group
    Memory b = insert("ns", atCosine(0.7), "b", 0);
    insert("ns", unit(0, 0, 1), "c", 0); // orthogonal: below any positive gate

    List<IntentMatch> hits = store.recall("ns", unit(1, 0), 5, 0.5);
    assertThat(hits).extracting(IntentMatch::intentId).containsExactly(a1.intentId(), b.intentId());
    assertThat(hits.get(0).similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(hits.get(1).similarity()).isCloseTo(0.7, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(hits.get(0).memories()).extracting(Memory::id).containsExactly(a1.id(), a2.id());

    assertThat(store.recall("ns", unit(1, 0), 1, 0.5)).hasSize(1);
    assertThat(store.recall("ns", unit(1, 0), 5, 0.99)).hasSize(1);
  }

  @Test
  void recall_neverCrossesNamespaces() {
    insert("tenant-a", unit(1, 0), "a", 0);
    Memory b = insert("tenant-b", unit(1, 0), "b", 0);
    List<IntentMatch> hits = store.recall("tenant-b", unit(1, 0), 5, 0.0);
    assertThat(hits).hasSize(1);
    assertThat(hits.get(0).memories()).extracting(Memory::id).containsExactly(b.id());
    assertThat(store.recall("tenant-c", unit(1, 0), 5, 0.0)).isEmpty();
    assertThat(store.get("tenant-a", b.id())).isEmpty();
    assertThat(store.namespaces()).contains("tenant-a", "tenant-b").doesNotContain("tenant-c");
  }

  @Test
  void applyReward_updatesSelectedMemoriesOnce() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory b = insert("ns", unit(0, 1), "b", 0);
    Memory untouched = insert("ns", unit(0, 0, 1), "c", 0);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), a.id(), b.id());
    assertThat(store.counts("ns", T0).pendingRetrievals()).isEqualTo(1);

    RewardOutcome first = store.applyReward("ns", r.id(), T0.plusSeconds(1), plus(0.25));
    assertThat(first).isInstanceOf(RewardOutcome.Applied.class);
    assertThat(((RewardOutcome.Applied) first).changes()).hasSize(2);
    assertThat(store.get("ns", a.id()).orElseThrow().utility()).isEqualTo(new Utility(0.25, 1));
    assertThat(store.get("ns", b.id()).orElseThrow().updatedAt()).isEqualTo(T0.plusSeconds(1));
    assertThat(store.get("ns", untouched.id()).orElseThrow().utility()).isEqualTo(new Utility(0, 0));

    RewardOutcome second = store.applyReward("ns", r.id(), T0.plusSeconds(2), plus(0.25));
    assertThat(second).isEqualTo(new RewardOutcome.AlreadyRewarded(T0.plusSeconds(1)));
    assertThat(store.get("ns", a.id()).orElseThrow().q()).isEqualTo(0.25);
    assertThat(store.counts("ns", T0).pendingRetrievals()).isZero();
  }

  @Test
  void retrieval_readsASavedRetrieval_beforeAndAfterItsReward_onlyInItsNamespace() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory b = insert("ns", unit(0, 1), "b", 0);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), a.id(), b.id());
    RetrievalRecord read = store.retrieval("ns", r.id()).orElseThrow();
    assertThat(read.id()).isEqualTo(r.id());
    assertThat(read.selectedIds()).containsExactly(a.id(), b.id());
    assertThat(read.candidates()).isEqualTo(r.candidates());
    store.applyReward("ns", r.id(), T0.plusSeconds(1), plus(0.25));
    assertThat(store.retrieval("ns", r.id())).as("still readable once rewarded").hasValueSatisfying(
        x -> assertThat(x.selectedIds()).containsExactly(a.id(), b.id()));
    assertThat(store.retrieval("other", r.id())).isEmpty();
    assertThat(store.retrieval("ns", "r999999")).isEmpty();
    assertThat(store.retrieval("ns", "not-an-id")).isEmpty();
  }

  @Test
  void applyReward_unknownOrOtherNamespaceOrExpired_changesNothing() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    RetrievalRecord r = saveSelecting("ns", Duration.ofMinutes(5), a.id());
    assertThat(store.applyReward("ns", "r-nope", T0, plus(1))).isInstanceOf(RewardOutcome.Unknown.class);
    assertThat(store.applyReward("other", r.id(), T0, plus(1))).isInstanceOf(RewardOutcome.Unknown.class);
    assertThat(store.applyReward("ns", r.id(), T0.plus(Duration.ofMinutes(6)), plus(1)))
        .isEqualTo(new RewardOutcome.Expired(T0.plus(Duration.ofMinutes(5))));
    assertThat(store.get("ns", a.id()).orElseThrow().utility()).isEqualTo(new Utility(0, 0));
  }

  @Test
  void applyReward_whenRuleThrows_changesNothingAndRetrievalStaysPending() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory b = insert("ns", unit(0, 1), "b", 0);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), a.id(), b.id());
    AtomicInteger calls = new AtomicInteger();
    try {
      store.applyReward("ns", r.id(), T0, (id, u) -> {
        if (calls.incrementAndGet() == 2) {
          throw new IllegalStateException("boom");
        }
        return new Utility(9, 9);
      });
    } catch (IllegalStateException expected) {
      // the rule failed half-way
    }
    assertThat(store.get("ns", a.id()).orElseThrow().utility()).isEqualTo(new Utility(0, 0));
    assertThat(store.applyReward("ns", r.id(), T0, plus(1))).isInstanceOf(RewardOutcome.Applied.class);
  }

  @Test
  void savedRetrieval_keepsCandidatesAndProbabilities() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    List<Candidate> candidates =
        List.of(new Candidate(a.id(), 0.8, 0.1, 1.5, true, 0.9), new Candidate("m-gone", 0.6, -0.2, -1.5, false, 0.1));
    RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(60), candidates));
    assertThat(r.candidates()).isEqualTo(candidates);
    RewardOutcome out = store.applyReward("ns", r.id(), T0, plus(1));
    assertThat(((RewardOutcome.Applied) out).retrieval()).isEqualTo(r);
  }

  @Test
  void delete_removesMemory_andEmptyGroup_andRewardsSkipIt() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory a2 = insert("ns", atCosine(0.99), "a2", 0); // same group as a
    Memory b = insert("ns", unit(0, 1), "b", 0);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), a.id(), b.id());

    assertThat(store.delete("ns", a.id())).isTrue();
    assertThat(store.delete("ns", a.id())).isFalse();
    assertThat(store.delete("other", b.id())).isFalse();
    assertThat(store.get("ns", a.id())).isEmpty();
    assertThat(store.recall("ns", unit(1, 0), 5, 0.5).get(0).memories()).extracting(Memory::id).containsExactly(a2.id());
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(2, 2, 1));

    assertThat(store.delete("ns", b.id())).isTrue();
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(1, 1, 1));
    assertThat(store.recall("ns", unit(0, 1), 5, 0.5)).isEmpty();
    RewardOutcome out = store.applyReward("ns", r.id(), T0, plus(1));
    assertThat(((RewardOutcome.Applied) out).changes()).isEmpty();
  }

  @Test
  void delete_survivesReopen() throws Exception {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory b = insert("ns", unit(0, 1), "b", 0);
    store.delete("ns", a.id());
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.get("ns", a.id())).isEmpty();
    assertThat(store.get("ns", b.id())).isPresent();
    assertThat(store.recall("ns", unit(1, 0), 5, 0.5)).isEmpty();
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(1, 1, 0));
  }

  @Test
  void forEachMemory_visitsEveryMemoryOfTheNamespaceOldestFirst() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      ids.add(insert("ns", randomUnit(new SplittableRandom(i)), "e" + i, i).id());
    }
    insert("other", unit(1, 0), "x", 0);
    List<String> seen = new ArrayList<>();
    store.forEachMemory("ns", m -> seen.add(m.id()));
    assertThat(seen).containsExactlyElementsOf(ids);
  }

  @Test
  void summary_addsUpWhatForEachMemorySees_afterRewardsAndADelete() {
    assertThat(store.summary("ns")).isEqualTo(MemorySummary.EMPTY);
    SplittableRandom rnd = new SplittableRandom(7);
    List<Memory> made = new ArrayList<>();
    Outcome[] outcomes = Outcome.values();
    for (int i = 0; i < 12; i++) {
      made.add(store.insert(new NewMemory("ns", "intent " + i, randomUnit(rnd), "e" + i, outcomes[i % 3],
          rnd.nextDouble(-1, 1), T0), 0.99));
    }
    insert("other", unit(1, 0), "x", 5);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), made.get(1).id(), made.get(4).id());
    store.applyReward("ns", r.id(), T0.plusSeconds(1), plus(0.5));
    store.delete("ns", made.get(2).id());
    MemorySummary.Adder expected = new MemorySummary.Adder();
    store.forEachMemory("ns", expected::add);
    MemorySummary summary = store.summary("ns");
    assertThat(summary).isEqualTo(expected.result());
    assertThat(summary.memories()).isEqualTo(11);
    assertThat(summary.totalVisits()).isEqualTo(2);
  }

  @Test
  void concurrentRewards_loseNoUpdate() throws Exception {
    int memories = 8;
    // 480 rewards on 4 threads, every memory shared by two retrievals: enough overlapping read-modify-writes that a
    // lost update shows (each store's conflict path runs many times), few enough that a store committing every
    // write (SolrCloud with visibility=immediate) finishes in seconds
    int rewardsPerMemory = 60;
    List<Memory> ms = new ArrayList<>();
    for (int i = 0; i < memories; i++) {
      ms.add(insert("ns", randomUnit(new SplittableRandom(100 + i)), "m" + i, 0));
    }
    List<RetrievalRecord> records = new ArrayList<>();
    for (int r = 0; r < rewardsPerMemory; r++) {
      for (int i = 0; i < memories; i++) {
        // each retrieval selects two memories, so memories are shared between concurrent rewards
        records.add(saveSelecting("ns", Duration.ofHours(1), ms.get(i).id(), ms.get((i + 1) % memories).id()));
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<RewardOutcome>> futures = new ArrayList<>();
      for (RetrievalRecord rec : records) {
        futures.add(pool.submit(() -> store.applyReward("ns", rec.id(), T0, plus(1))));
      }
      for (Future<RewardOutcome> f : futures) {
        assertThat(f.get()).isInstanceOf(RewardOutcome.Applied.class);
      }
    } finally {
      pool.shutdown();
    }
    for (Memory m : ms) {
      assertThat(store.get("ns", m.id()).orElseThrow().utility())
          .isEqualTo(new Utility(2 * rewardsPerMemory, 2 * rewardsPerMemory));
    }
  }

  @Test
  void concurrentInserts_allLand_withUniqueIds() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    Map<String, Boolean> ids = new ConcurrentHashMap<>();
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(thread);
          for (int i = 0; i < 100; i++) {
            ids.put(insert("ns", randomUnit(rnd), "t" + thread + "-" + i, 0).id(), true);
          }
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
    assertThat(ids).hasSize(400);
    assertThat(store.counts("ns", T0).memories()).isEqualTo(400);
  }

  @Test
  void reopen_restoresEveryMemoryUtilityAndPendingRetrievalExactly() throws Exception {
    SplittableRandom rnd = new SplittableRandom(7);
    List<Memory> inserted = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      inserted.add(insert(i % 2 == 0 ? "ns" : "ns2", randomUnit(rnd), "e" + i, i * 0.01));
    }
    RetrievalRecord rewarded = saveSelecting("ns", Duration.ofHours(1), inserted.get(0).id(), inserted.get(2).id());
    RetrievalRecord pending = saveSelecting("ns", Duration.ofHours(1), inserted.get(4).id());
    store.applyReward("ns", rewarded.id(), T0.plusSeconds(3), (id, u) -> new Utility(u.q() + 0.123456789, u.visits() + 1));
    Map<String, Memory> before = new java.util.HashMap<>();
    for (String ns : List.of("ns", "ns2")) {
      store.forEachMemory(ns, m -> before.put(m.id(), m));
    }

    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return; // not a persistent store
    }
    store = reopened.get();
    Map<String, Memory> after = new java.util.HashMap<>();
    for (String ns : List.of("ns", "ns2")) {
      store.forEachMemory(ns, m -> after.put(m.id(), m));
    }
    assertThat(after).isEqualTo(before);
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(25, 25, 1));
    assertThat(store.applyReward("ns", rewarded.id(), T0, plus(1))).isInstanceOf(RewardOutcome.AlreadyRewarded.class);
    assertThat(store.applyReward("ns", pending.id(), T0, plus(1))).isInstanceOf(RewardOutcome.Applied.class);
    // ids are never reused after a reopen
    Memory fresh = insert("ns", randomUnit(rnd), "fresh", 0);
    assertThat(before).doesNotContainKey(fresh.id());
    assertThat(saveSelecting("ns", Duration.ofHours(1)).id()).isNotIn(rewarded.id(), pending.id());
    // recall still works on the reopened index
    Memory probe = inserted.get(10);
    assertThat(store.recall("ns", probe.intentEmbedding(), 1, 0.0).get(0).memories())
        .extracting(Memory::id).contains(probe.id());
  }

  @Test
  void settings_arePerNamespace_replacedWhole_andSurviveAReopen() throws Exception {
    assertThat(store.settings("ns")).isEmpty();
    store.saveSettings("ns", Map.of("k1", "5", "lambda", "0.5"));
    store.saveSettings("other", Map.of("k1", "7"));
    store.saveSettings("ns", Map.of("k1", "10"));
    assertThat(store.settings("ns")).contains(Map.of("k1", "10"));
    assertThat(store.settings("other")).contains(Map.of("k1", "7"));
    assertThat(store.settings("nobody")).isEmpty();
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.settings("ns")).contains(Map.of("k1", "10"));
    assertThat(store.settings("other")).contains(Map.of("k1", "7"));
  }

  @Test
  void model_isEmptyUntilRecorded_firstRecordWins_andSurvivesAReopen() throws Exception {
    assertThat(store.model()).isEmpty();
    EmbeddingModel first = new EmbeddingModel("model-a", DIM);
    assertThat(store.recordModel(first)).isEqualTo(first);
    assertThat(store.model()).contains(first);
    // a recorded model is never replaced: the second record answers with the first
    assertThat(store.recordModel(new EmbeddingModel("model-b", DIM))).isEqualTo(first);
    assertThat(store.model()).contains(first);
    insert("ns", unit(1), "experience", 0);
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.model()).contains(first);
    assertThat(store.recordModel(new EmbeddingModel("model-b", DIM))).isEqualTo(first);
  }

  @Test
  void recordModel_ofAnotherDimension_isRefused_andRecordsNothing() throws Exception {
    assertThatThrownBy(() -> store.recordModel(new EmbeddingModel("model-a", DIM + 1)))
        .isInstanceOfSatisfying(MemLoopException.class, e -> {
          assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT);
          assertThat(e.field()).isEqualTo("model");
        })
        .hasMessageContainingAll("'model-a' (" + (DIM + 1) + "-d)", DIM + "-d");
    assertThat(store.model()).isEmpty();
  }

  @Test
  void ledger_isPerNamespace_replacesWholeValues_andSurvivesAReopen() throws Exception {
    assertThat(store.ledger("ns", List.of("t:a", "n"))).isEmpty();
    store.putLedger("ns", Map.of("t:a", new double[] {1, 2}, "n", new double[] {3, 0.5, 4, 1.5}));
    store.putLedger("other", Map.of("t:a", new double[] {9}));
    store.putLedger("ns", Map.of("t:a", new double[] {0, 3}, "p:a:m1", new double[] {-1}));
    Map<String, double[]> got = store.ledger("ns", List.of("t:a", "n", "p:a:m1", "absent"));
    assertThat(got).containsOnlyKeys("t:a", "n", "p:a:m1");
    assertThat(got.get("t:a")).containsExactly(0, 3);
    assertThat(got.get("n")).containsExactly(3, 0.5, 4, 1.5);
    assertThat(store.ledger("other", List.of("t:a")).get("t:a")).containsExactly(9);
    got.get("t:a")[0] = 42; // a copy: changing it changes nothing stored
    assertThat(store.ledger("ns", List.of("t:a")).get("t:a")).containsExactly(0, 3);

    TaskNote note = new TaskNote("a", "m7", true);
    RetrievalRecord r = store.saveRetrieval(
        new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600), List.of(new Candidate("m7", 0.9, 0, 1, true, 1)),
            note.into(Annotations.EMPTY)));
    assertThat(TaskNote.of(r.annotations())).isEqualTo(note);
    TaskNote drawn = new TaskNote("a", "", false, "m7", TaskNote.NEWEST); // the note-depth draw is kept too
    RetrievalRecord d = store.saveRetrieval(
        new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600), List.of(new Candidate("m7", 0.9, 0, 1, true, 1)),
            drawn.into(Annotations.EMPTY)));
    assertThat(TaskNote.of(d.annotations())).isEqualTo(drawn);
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.ledger("ns", List.of("t:a")).get("t:a")).containsExactly(0, 3);
    assertThat(store.ledger("ns", List.of("p:a:m1")).get("p:a:m1")).containsExactly(-1);
    assertThat(store.ledger("other", List.of("t:a")).get("t:a")).containsExactly(9);
    RewardOutcome out = store.applyReward("ns", r.id(), T0, plus(1));
    assertThat(TaskNote.of(((RewardOutcome.Applied) out).retrieval().annotations())).isEqualTo(note);
    RewardOutcome outDrawn = store.applyReward("ns", d.id(), T0, plus(1));
    assertThat(TaskNote.of(((RewardOutcome.Applied) outDrawn).retrieval().annotations()).noteDepth())
        .isEqualTo(TaskNote.NEWEST);
  }

  @Test
  void aLedgerValueAsLongAsTheLargestVector_survivesAReopen_andALongerOneIsRefused() throws Exception {
    double[] longest = new double[MemoryStore.MAX_LEDGER_VALUE]; // a learned direction of a 4096-d model
    for (int i = 0; i < longest.length; i++) {
      longest[i] = Math.sin(i);
    }
    store.putLedger("ns", Map.of("X:0", longest));
    assertThatThrownBy(() -> store.putLedger("ns", Map.of("X:1", new double[MemoryStore.MAX_LEDGER_VALUE + 1],
        "t:a", new double[] {1}))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("X:1");
    assertThat(store.ledger("ns", List.of("X:1", "t:a"))).as("all or nothing").isEmpty();
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isPresent()) {
      store = reopened.get();
    }
    assertThat(store.ledger("ns", List.of("X:0")).get("X:0")).containsExactly(longest);
  }

  @Test
  void existing_namesTheLiveMemoriesOfTheNamespaceOnly() throws Exception {
    Memory a = store.insert(new NewMemory("ns", "a", unit(1), "A", Outcome.SUCCESS, 0, T0), 0.99);
    Memory b = store.insert(new NewMemory("ns", "b", unit(0, 1), "B", Outcome.FAILURE, 0, T0), 0.99);
    Memory c = store.insert(new NewMemory("ns", "c", unit(0, 0, 1), "C", Outcome.SUCCESS, 0, T0), 0.99);
    Memory other = store.insert(new NewMemory("other", "o", unit(1), "O", Outcome.SUCCESS, 0, T0), 0.99);
    assertThat(store.delete("ns", b.id())).isTrue();
    assertThat(store.existing("ns", List.of(a.id(), b.id(), c.id(), other.id(), "m999999", "not-an-id", "")))
        .containsExactlyInAnyOrder(a.id(), c.id());
    assertThat(store.existing("other", List.of(a.id(), other.id()))).containsExactly(other.id());
    assertThat(store.existing("absent-namespace", List.of(a.id()))).isEmpty();
    assertThat(store.existing("ns", List.of())).isEmpty();
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.existing("ns", List.of(a.id(), b.id(), c.id()))).containsExactlyInAnyOrder(a.id(), c.id());
  }

  @Test
  void ledgerKeys_listEveryKeyOfTheNamespace_andDeletedKeysAreGoneForGood() throws Exception {
    assertThat(store.ledgerKeys("ns")).isEmpty();
    store.putLedger("ns", Map.of("t:a", new double[] {1, 2}, "c:m1", new double[] {1, 0}, "n", new double[] {1, 0, 0, 0}));
    store.putLedger("ns", Map.of("p:a:m1", new double[] {-1}));
    store.putLedger("other", Map.of("t:b", new double[] {9}));
    assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("t:a", "c:m1", "n", "p:a:m1");
    assertThat(store.ledgerKeys("other")).containsExactly("t:b");

    store.deleteLedger("ns", List.of("c:m1", "p:a:m1", "never-stored"));
    store.deleteLedger("absent-namespace", List.of("t:a")); // nothing to delete: no error, nothing created
    assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("t:a", "n");
    assertThat(store.ledger("ns", List.of("c:m1", "p:a:m1", "t:a"))).containsOnlyKeys("t:a");
    assertThat(store.ledgerKeys("other")).containsExactly("t:b"); // per namespace
    assertThat(store.ledgerKeys("absent-namespace")).isEmpty();
    store.putLedger("ns", Map.of("c:m1", new double[] {0, 1})); // a deleted key can be put again
    store.deleteLedger("ns", List.of("t:a"));

    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.ledgerKeys("ns")).containsExactlyInAnyOrder("n", "c:m1");
    assertThat(store.ledger("ns", List.of("c:m1")).get("c:m1")).containsExactly(0, 1);
    assertThat(store.ledger("ns", List.of("t:a", "p:a:m1"))).isEmpty();
    assertThat(store.ledgerKeys("other")).containsExactly("t:b");
  }

  private static Annotations annotation(String name, int version, String text) {
    return Annotations.of(name, version, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
  }

  @Test
  void memoryAnnotations_roundTrip_areReplacedNotMerged_andOnlyForListedLiveMemories() {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory b = insert("ns", unit(0, 1), "b", 0);
    Memory c = insert("ns", unit(1, 1), "c", 0);
    assertThat(store.annotations("ns", List.of(a.id(), b.id()))).isEmpty();
    Annotations first = annotation("seen", 1, "r1 r2").with("task.count", 2, new byte[] {3});
    store.annotate("ns", Map.of(a.id(), first, b.id(), annotation("seen", 1, "r9")));
    assertThat(store.annotations("ns", List.of(a.id(), b.id(), c.id(), "m999999", "nonsense")))
        .isEqualTo(Map.of(a.id(), first, b.id(), annotation("seen", 1, "r9")));
    // replaced whole: the names a later call leaves out are gone
    Annotations second = annotation("other", 7, "x");
    store.annotate("ns", Map.of(a.id(), second));
    assertThat(store.annotations("ns", List.of(a.id())).get(a.id())).isEqualTo(second);
    assertThat(store.annotations("ns", List.of(b.id())).get(b.id())).isEqualTo(annotation("seen", 1, "r9"));
    // EMPTY removes; unknown ids are skipped, the others applied
    store.annotate("ns", Map.of(b.id(), Annotations.EMPTY, "m424242", first, c.id(), first));
    assertThat(store.annotations("ns", List.of(a.id(), b.id(), c.id(), "m424242")))
        .isEqualTo(Map.of(a.id(), second, c.id(), first));
    assertThat(store.annotations("ns", List.of())).isEmpty();
    store.annotate("ns", Map.of()); // nothing to do
    assertThat(store.get("ns", a.id())).contains(a); // annotations do not touch the memory
  }

  @Test
  void memoryAnnotations_goWithTheMemory_andStayInTheirNamespace() throws Exception {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Memory b = insert("ns", unit(0, 1), "b", 0);
    Memory other = insert("other", unit(1, 0), "o", 0);
    store.annotate("ns", Map.of(a.id(), annotation("seen", 1, "a"), b.id(), annotation("seen", 1, "b")));
    store.annotate("other", Map.of(other.id(), annotation("seen", 1, "o"), a.id(), annotation("seen", 1, "wrong ns")));
    assertThat(store.annotations("other", List.of(a.id(), other.id()))).containsOnlyKeys(other.id());
    assertThat(store.annotations("ns", List.of(a.id(), other.id())))
        .isEqualTo(Map.of(a.id(), annotation("seen", 1, "a")));
    assertThat(store.annotations("nowhere", List.of(a.id()))).isEmpty();
    assertThat(store.delete("ns", a.id())).isTrue();
    assertThat(store.annotations("ns", List.of(a.id(), b.id()))).containsOnlyKeys(b.id());
    store.annotate("ns", Map.of(a.id(), annotation("seen", 1, "too late"))); // deleted: skipped
    assertThat(store.annotations("ns", List.of(a.id()))).isEmpty();
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.annotations("ns", List.of(a.id(), b.id()))).isEqualTo(Map.of(b.id(), annotation("seen", 1, "b")));
    assertThat(store.annotations("other", List.of(other.id())))
        .isEqualTo(Map.of(other.id(), annotation("seen", 1, "o")));
  }

  @Test
  void retrievalAnnotations_areKeptWithTheRecord_throughItsRewardAndAReopen() throws Exception {
    Memory a = insert("ns", unit(1, 0), "a", 0);
    Annotations big = Annotations.of("blob", 3, new byte[Annotations.MAX_DATA_BYTES]).with("task", 1, new byte[] {0, 0, 0, 0});
    Annotations small = annotation("shown", 1, "a");
    List<Candidate> candidates = List.of(new Candidate(a.id(), 0.9, 0, 1, true, 1));
    RetrievalRecord r1 = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600), candidates, big));
    RetrievalRecord r2 = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600), candidates, small));
    RetrievalRecord plain = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600), candidates));
    assertThat(r1.annotations()).isEqualTo(big);
    assertThat(store.retrieval("ns", r2.id()).orElseThrow().annotations()).isEqualTo(small);
    assertThat(store.retrieval("ns", plain.id()).orElseThrow().annotations()).isSameAs(Annotations.EMPTY);
    RewardOutcome out = store.applyReward("ns", r2.id(), T0, plus(1));
    assertThat(((RewardOutcome.Applied) out).retrieval().annotations()).isEqualTo(small);
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.retrieval("ns", r1.id()).orElseThrow().annotations()).isEqualTo(big);
    assertThat(store.retrieval("ns", r2.id()).orElseThrow().annotations()).isEqualTo(small);
    assertThat(store.retrieval("ns", plain.id()).orElseThrow().annotations()).isEqualTo(Annotations.EMPTY);
    RewardOutcome again = store.applyReward("ns", r1.id(), T0, plus(1));
    assertThat(((RewardOutcome.Applied) again).retrieval().annotations()).isEqualTo(big);
  }

  @Test
  void evictionCandidate_isTheLowestQ_thenFewestVisits_thenOldest_neverTheKeptOne() {
    assertThat(store.evictionCandidate("ns", "m1")).isEmpty();
    Memory a = insert("ns", unit(1, 0), "a", 0.5);
    Memory b = insert("ns", unit(0, 1), "b", -0.2);
    Memory c = insert("ns", unit(0, 0, 1), "c", -0.2);
    Memory d = insert("ns", unit(0, 0, 0, 1), "d", -0.2);
    insert("other", unit(1, 0), "lower elsewhere", -9);
    // b, c and d tie on Q; give b a visit: c and d have fewer, c is older
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), b.id());
    store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(u.q(), u.visits() + 1));
    assertThat(store.evictionCandidate("ns", a.id())).contains(c.id());
    assertThat(store.evictionCandidate("ns", c.id())).contains(d.id());
    store.delete("ns", c.id());
    store.delete("ns", d.id());
    assertThat(store.evictionCandidate("ns", a.id())).contains(b.id());
    assertThat(store.evictionCandidate("nobody", a.id())).isEmpty();
  }

  // ---------------------------------------------------------------- the policy rules (issue 26)

  /**
   * The unit vector halfway between axes {@code a} and {@code b}: its cosine to either axis is the same number
   * whatever the other axis, so two of them are exactly equally near to their common axis.
   */
  private static float[] diagonal(int a, int b) {
    float[] v = new float[DIM];
    v[a] = 1;
    v[b] = 1;
    return Vectors.normalized(v, "test");
  }

  private static float[] diagonal(int ax) {
    return diagonal(0, ax);
  }

  /** A memory in a group of its own (threshold above any cosine). */
  private Memory insertApart(String ns, float[] embedding, String experience) {
    return store.insert(new NewMemory(ns, "intent " + experience, embedding, experience, Outcome.SUCCESS, 0, T0), 1.01);
  }

  /**
   * A group made before every later one of the test, whose intent id sorts after theirs as text: memories
   * inserted elsewhere first make its sequence number start with a digit of 2 or more, and after it until
   * sequence numbers have one more digit ("i3" before "i13" by number, after it by text). A store whose
   * sequence skips ahead still gets a correct, if weaker, test.
   */
  private Memory olderGroup(String ns, float[] embedding, String experience) {
    int filler = 0;
    for (; filler < 40; filler++) {
      String leading = Long.toString(seq(insertApart("filler", randomUnit(new SplittableRandom(filler)), "f").intentId()));
      if (leading.charAt(0) >= '2' && leading.charAt(0) <= '8') {
        break;
      }
    }
    Memory older = insertApart(ns, embedding, experience);
    int digits = Long.toString(seq(older.intentId())).length();
    for (; filler < 80; filler++) {
      if (Long.toString(seq(insertApart("filler", randomUnit(new SplittableRandom(filler)), "f").intentId())).length()
          > digits) {
        break;
      }
    }
    return older;
  }

  private static long seq(String intentId) {
    return MemoryStore.sequenceOf(intentId, 'i');
  }

  @Test
  void recall_atExactlyEqualSimilarity_ordersByTheIntentIdsSequence_alsoAfterAReopen() throws Exception {
    Memory older = olderGroup("ns", diagonal(1), "older");
    Memory newer = insertApart("ns", diagonal(2), "newer");
    Memory best = insertApart("ns", atCosine(0.99), "best");
    Memory twinOld = olderGroup("twins", unit(1), "twin old");
    Memory twinNew = insertApart("twins", unit(1), "twin new");
    assertThat(seq(older.intentId())).isLessThan(seq(newer.intentId()));
    for (int round = 0; round < 2; round++) {
      List<IntentMatch> hits = store.recall("ns", unit(1), 5, 0.5);
      assertThat(hits).extracting(IntentMatch::intentId)
          .containsExactly(best.intentId(), older.intentId(), newer.intentId());
      assertThat(hits.get(1).similarity()).isEqualTo(hits.get(2).similarity());
      assertThat(hits).isSortedAccordingTo(io.memloop.policy.Recall.ORDER);
      assertThat(store.recall("ns", unit(1), 2, 0.5)).extracting(IntentMatch::intentId)
          .containsExactly(best.intentId(), older.intentId());
      // identical intents: cosine exactly 1 to both
      assertThat(store.recall("twins", unit(1), 5, 0.5)).extracting(IntentMatch::intentId)
          .containsExactly(twinOld.intentId(), twinNew.intentId());
      assertThat(store.recall("twins", unit(1), 1, 0.5)).extracting(IntentMatch::intentId)
          .containsExactly(twinOld.intentId());
      Optional<MemoryStore> reopened = reopen(store); // the durable store then searches its index, not its tail
      if (reopened.isEmpty()) {
        return;
      }
      store = reopened.get();
    }
  }

  @Test
  void insert_equallyNearTwoGroups_joinsTheOlder_andAHintIsObeyedAsItIs() {
    Memory older = olderGroup("ns", diagonal(1), "older");
    Memory newer = insertApart("ns", diagonal(2), "newer");
    Memory far = insertApart("ns", unit(0, 0, 0, 1), "far");
    // no hint: the store decides by the rule
    Memory tied = store.insert(new NewMemory("ns", "tied", unit(1), "tied", Outcome.FAILURE, 0, T0), 0.7);
    assertThat(tied.intentId()).isEqualTo(older.intentId());
    assertThat(io.memloop.policy.Grouping.join(store.recall("ns", unit(1), 1, 0.7), 0.7)).isEqualTo(older.intentId());
    // a hint is obeyed as it is: the newer of the tied groups, a group below the threshold, no group at all
    Memory hinted = store.insert(new NewMemory("ns", "hinted", unit(1), "hinted", Outcome.FAILURE, 0, T0), 0.7,
        newer.intentId());
    assertThat(hinted.intentId()).isEqualTo(newer.intentId());
    Memory toFar = store.insert(new NewMemory("ns", "to far", unit(1), "to far", Outcome.FAILURE, 0, T0), 0.7,
        far.intentId());
    assertThat(toFar.intentId()).isEqualTo(far.intentId());
    Memory alone = store.insert(new NewMemory("ns", "alone", unit(1), "alone", Outcome.FAILURE, 0, T0), 0.7, null);
    assertThat(alone.intentId()).isNotIn(older.intentId(), newer.intentId(), far.intentId());
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(7, 4, 0));
  }

  @Test
  void insert_hintedAtADeletedIntent_fallsBackToTheRule_tiesToTheOlder() {
    Memory older = olderGroup("ns", diagonal(1), "older");
    Memory newer = insertApart("ns", diagonal(2), "newer");
    Memory gone = insertApart("ns", unit(0, 0, 0, 1), "gone");
    assertThat(store.delete("ns", gone.id())).isTrue();
    Memory m = store.insert(new NewMemory("ns", "m", unit(1), "m", Outcome.FAILURE, 0, T0), 0.7, gone.intentId());
    assertThat(m.intentId()).isEqualTo(older.intentId());
    // and with nothing near enough, a new group (not the deleted one)
    Memory lone = store.insert(new NewMemory("ns", "lone", unit(0, 0, 0, 0, 1), "lone", Outcome.FAILURE, 0, T0), 0.7,
        gone.intentId());
    assertThat(lone.intentId()).isNotIn(older.intentId(), newer.intentId(), gone.intentId());
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(4, 3, 0));
  }

  @Test
  void insertAll_equallyNearTwoGroups_joinsTheOlder_existingBeforeTheBatchsOwn() {
    Memory older = olderGroup("ns", diagonal(1), "older");
    Memory newer = insertApart("ns", diagonal(2), "newer");
    Memory existing = insertApart("mixed", unit(0, 0, 0, 0, 1), "existing");
    List<Memory> stored = store.insertAll(List.of(
        new NewMemory("ns", "x", unit(1), "x", Outcome.FAILURE, 0, T0), // ties older and newer
        new NewMemory("fresh", "p", diagonal(1), "p", Outcome.FAILURE, 0, T0), // two groups made by the batch
        new NewMemory("fresh", "q", diagonal(2), "q", Outcome.FAILURE, 0, T0),
        new NewMemory("fresh", "y", unit(1), "y", Outcome.FAILURE, 0, T0), // ties p's and q's groups
        new NewMemory("mixed", "r", unit(0, 0, 0, 0, 0, 1), "r", Outcome.FAILURE, 0, T0), // a group made by the batch
        new NewMemory("mixed", "z", diagonal(4, 5), "z", Outcome.FAILURE, 0, T0)), 0.7); // ties existing and r's
    assertThat(stored.get(0).intentId()).isEqualTo(older.intentId());
    assertThat(stored.get(1).intentId()).isNotEqualTo(stored.get(2).intentId());
    assertThat(stored.get(3).intentId()).isEqualTo(stored.get(1).intentId());
    assertThat(stored.get(4).intentId()).isNotEqualTo(existing.intentId());
    assertThat(stored.get(5).intentId()).isEqualTo(existing.intentId());
    assertThat(store.counts("ns", T0)).isEqualTo(new StoreCounts(3, 2, 0));
    assertThat(store.counts("fresh", T0)).isEqualTo(new StoreCounts(3, 2, 0));
    assertThat(store.counts("mixed", T0)).isEqualTo(new StoreCounts(3, 2, 0));
    assertThat(newer.intentId()).isNotIn(stored.stream().map(Memory::intentId).toList());
  }

  @Test
  void recall_andEviction_agreeWithTheRules_onRandomIntentsWithExactTies() {
    SplittableRandom rnd = new SplittableRandom(26);
    List<Memory> all = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      float[] v = i % 3 == 2 ? all.get(rnd.nextInt(all.size())).intentEmbedding() : randomUnit(rnd); // exact ties
      all.add(insertApart("ns", v, "e" + i));
    }
    for (int i = 0; i < 12; i++) {
      setUtility("ns", all.get(rnd.nextInt(all.size())).id(), rnd.nextInt(3) * 0.25, rnd.nextInt(3), T0);
    }
    for (int t = 0; t < 10; t++) {
      float[] query = t % 2 == 0 ? all.get(rnd.nextInt(all.size())).intentEmbedding() : randomUnit(rnd);
      List<IntentMatch> expected = new ArrayList<>();
      for (Memory m : all) {
        double sim = Vectors.dot(m.intentEmbedding(), query);
        if (sim >= -0.2) {
          expected.add(new IntentMatch(m.intentId(), sim, List.of()));
        }
      }
      expected.sort(io.memloop.policy.Recall.ORDER);
      List<IntentMatch> got = store.recall("ns", query, 5, -0.2);
      assertThat(got).extracting(IntentMatch::intentId)
          .containsExactlyElementsOf(expected.subList(0, 5).stream().map(IntentMatch::intentId).toList());
      for (int i = 0; i < got.size(); i++) {
        assertThat(got.get(i).similarity()).isCloseTo(expected.get(i).similarity(), org.assertj.core.data.Offset.offset(1e-5));
      }
    }
    List<Memory> now = new ArrayList<>();
    store.forEachMemory("ns", now::add);
    for (Memory keep : List.of(all.get(0), all.get(7), all.get(29))) {
      Memory expected = now.stream().filter(m -> !m.id().equals(keep.id()))
          .min(io.memloop.policy.Eviction.ORDER).orElseThrow();
      assertThat(store.evictionCandidate("ns", keep.id())).contains(expected.id());
    }
  }

  @Test
  void durablyTogether_returnsTheUnitsResult_andEveryWriteOfItIsVisibleAndSurvivesAReopen() throws Exception {
    Memory a = insert("ns", unit(1, 0), "a", 0.25);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), a.id());
    Memory[] insertedInside = new Memory[1];
    RewardOutcome out = store.durablyTogether(() -> {
      RewardOutcome applied = store.applyReward("ns", r.id(), T0.plusSeconds(1), plus(0.5));
      // the unit's own writes are visible to it
      assertThat(store.get("ns", a.id()).orElseThrow().q()).isEqualTo(0.75);
      insertedInside[0] = insert("ns", unit(0, 1), "b", -0.5);
      assertThat(store.delete("ns", insertedInside[0].id())).isTrue();
      insertedInside[0] = insert("ns", unit(0, 0, 1), "c", -0.25);
      return applied;
    });
    assertThat(out).isInstanceOf(RewardOutcome.Applied.class);
    Memory c = insertedInside[0];
    assertThat(store.get("ns", a.id()).orElseThrow().q()).isEqualTo(0.75);
    assertThat(store.get("ns", c.id())).isPresent();
    assertThat(store.counts("ns", T0).memories()).isEqualTo(2);

    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return; // not a persistent store
    }
    store = reopened.get();
    assertThat(store.get("ns", a.id()).orElseThrow()).satisfies(m -> {
      assertThat(m.q()).isEqualTo(0.75);
      assertThat(m.visits()).isEqualTo(1);
    });
    assertThat(store.get("ns", c.id()).orElseThrow().experience()).isEqualTo("c");
    assertThat(store.counts("ns", T0).memories()).isEqualTo(2);
    assertThat(store.applyReward("ns", r.id(), T0, plus(1))).isInstanceOf(RewardOutcome.AlreadyRewarded.class);
  }

  @Test
  void durablyTogether_whenTheUnitThrows_propagatesIt_andKeepsWhatItWroteBefore() throws Exception {
    IllegalStateException boom = new IllegalStateException("boom");
    Memory[] inside = new Memory[1];
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.durablyTogether(() -> {
      inside[0] = insert("ns", unit(1, 0), "kept", 0.5);
      throw boom;
    })).isSameAs(boom);
    assertThat(store.get("ns", inside[0].id())).isPresent();
    // the store goes on serving, in and out of units
    Memory after = store.durablyTogether(() -> insert("ns", unit(0, 1), "after", 0));
    assertThat(store.get("ns", after.id())).isPresent();

    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.get("ns", inside[0].id()).orElseThrow().experience()).isEqualTo("kept");
    assertThat(store.get("ns", after.id())).isPresent();
  }

  @Test
  void durablyTogether_nests_andARefusedRewardInsideWritesNothing() {
    Memory a = insert("ns", unit(1, 0), "a", 0.0);
    RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), a.id());
    String result = store.durablyTogether(() -> {
      assertThat(store.applyReward("ns", "r999999", T0, plus(1))).isInstanceOf(RewardOutcome.Unknown.class);
      return store.durablyTogether(() -> {
        store.applyReward("ns", r.id(), T0, plus(1));
        return insert("ns", unit(0, 1), "inner", 0).id();
      });
    });
    assertThat(store.get("ns", result)).isPresent();
    assertThat(store.get("ns", a.id()).orElseThrow().q()).isEqualTo(1.0);
    assertThat(store.counts("ns", T0).memories()).isEqualTo(2);
  }

  @Test
  void durablyTogether_onManyThreads_withPlainWritesBetween_losesNothing() throws Exception {
    int threads = 4;
    int perThread = 15;
    List<Memory> seeds = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      seeds.add(insert("ns", unit(1, i), "seed" + i, 0));
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<String>>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          SplittableRandom rnd = new SplittableRandom(thread);
          List<String> ids = new ArrayList<>();
          for (int n = 0; n < perThread; n++) {
            int i = n;
            RetrievalRecord r = saveSelecting("ns", Duration.ofHours(1), seeds.get(thread).id());
            float[] v = randomUnit(rnd);
            if (i % 3 == 0) { // a plain write between units
              store.applyReward("ns", r.id(), T0, plus(1));
              ids.add(insert("ns", v, "plain " + thread + "/" + i, 0).id());
            } else {
              ids.add(store.durablyTogether(() -> {
                store.applyReward("ns", r.id(), T0, plus(1));
                return insert("ns", v, "unit " + thread + "/" + i, 0).id();
              }));
            }
          }
          return ids;
        }));
      }
      List<String> all = new ArrayList<>();
      for (Future<List<String>> f : done) {
        all.addAll(f.get(60, java.util.concurrent.TimeUnit.SECONDS)); // a deadlock fails here
      }
      assertThat(all).doesNotHaveDuplicates().hasSize(threads * perThread);
      for (String id : all) {
        assertThat(store.get("ns", id)).as(id).isPresent();
      }
      for (int t = 0; t < threads; t++) {
        Memory seed = store.get("ns", seeds.get(t).id()).orElseThrow();
        assertThat(seed.visits()).isEqualTo(perThread);
        assertThat(seed.q()).isEqualTo(perThread);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---------------------------------------------------------------- edit and search (issue 25)

  /** A memory with the given intent, experience, outcome, Q and creation instant, in its own intent group. */
  protected Memory insertFull(String ns, String intent, String experience, Outcome outcome, double q, Instant created) {
    SplittableRandom rnd = new SplittableRandom(intent.hashCode() * 31L + experience.hashCode());
    return store.insert(new NewMemory(ns, intent, randomUnit(rnd), experience, outcome, q, created), 1.01);
  }

  /** Sets memory {@code id}'s utility to (q, visits) at {@code at} through the store's reward path. */
  protected void setUtility(String ns, String id, double q, long visits, Instant at) {
    RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft(ns, at, at.plus(Duration.ofHours(1)),
        List.of(new Candidate(id, 0.9, 0.0, 1.0, true, 1.0))));
    assertThat(store.applyReward(ns, r.id(), at, (mid, u) -> new Utility(q, visits))).isInstanceOf(RewardOutcome.Applied.class);
  }

  /** Every page of {@code query}, followed through its cursors, as ids. */
  protected List<String> allPages(String ns, MemoryQuery query) {
    List<String> ids = new ArrayList<>();
    MemoryQuery q = query;
    for (int pages = 0; pages < 10_000; pages++) {
      MemoryPage page = store.search(ns, q);
      page.memories().forEach(m -> ids.add(m.id()));
      assertThat(page.memories().size()).isLessThanOrEqualTo(query.limit());
      if (page.next() == null) {
        return ids;
      }
      assertThat(page.memories()).hasSize(query.limit());
      q = q.after(page.next());
    }
    throw new AssertionError("no last page");
  }

  /** What {@code query} must return over all its pages: the reference rule of {@link MemoryQuery} on a scan. */
  protected List<String> reference(String ns, MemoryQuery query) {
    List<Memory> all = new ArrayList<>();
    List<String> words = query.words();
    store.forEachMemory(ns, m -> {
      if (query.matches(m, words)) {
        all.add(m);
      }
    });
    all.sort(query.order(MemoryStore::sequenceOf));
    return all.stream().map(Memory::id).toList();
  }

  @Test
  void updateExperience_replacesTheTextOnly_andSurvivesReopen() throws Exception {
    Memory m = insertFull("ns", "deploy billing", "old text", Outcome.FAILURE, 0.25, T0);
    setUtility("ns", m.id(), 0.75, 3, T0.plusSeconds(10));
    Memory edited = store.updateExperience("ns", m.id(), "new text\nsecond line", T0.plusSeconds(20)).orElseThrow();
    Memory expected = new Memory(m.id(), "ns", m.intentId(), "deploy billing", m.intentEmbedding(), "new text\nsecond line",
        Outcome.FAILURE, 0.75, 3, T0, T0.plusSeconds(20));
    assertThat(edited).isEqualTo(expected);
    assertThat(store.get("ns", m.id())).contains(expected);
    assertThat(store.recall("ns", m.intentEmbedding(), 1, 0.5).getFirst().memories()).containsExactly(expected);
    Optional<MemoryStore> reopened = reopen(store);
    if (reopened.isEmpty()) {
      return;
    }
    store = reopened.get();
    assertThat(store.get("ns", m.id())).contains(expected);
    assertThat(store.search("ns", MemoryQuery.builder().text("second").build()).memories()).containsExactly(expected);
  }

  @Test
  void updateExperience_ofAnUnknownOrDeletedMemory_orInAnotherNamespace_isEmpty() {
    Memory m = insertFull("ns", "a", "text", Outcome.SUCCESS, 0, T0);
    Memory gone = insertFull("ns", "b", "text", Outcome.SUCCESS, 0, T0);
    store.delete("ns", gone.id());
    assertThat(store.updateExperience("ns", "m999999", "x", T0)).isEmpty();
    assertThat(store.updateExperience("ns", "not-an-id", "x", T0)).isEmpty();
    assertThat(store.updateExperience("ns", gone.id(), "x", T0)).isEmpty();
    assertThat(store.updateExperience("other", m.id(), "x", T0)).isEmpty();
    assertThat(store.get("ns", m.id()).orElseThrow().experience()).isEqualTo("text");
    assertThat(store.get("ns", gone.id())).isEmpty();
  }

  @Test
  void search_appliesEveryFilter_andCountsTheMatches() {
    Memory a = insertFull("ns", "rotate keys", "vault write", Outcome.SUCCESS, 0.9, T0);
    Memory b = insertFull("ns", "rotate certs", "certbot renew", Outcome.FAILURE, -0.5, T0.plusSeconds(60));
    Memory c = insertFull("ns", "restart billing", "kubectl rollout", Outcome.UNKNOWN, 0.0, T0.plusSeconds(120));
    Memory d = insertFull("ns", "restart search", "systemctl restart", Outcome.SUCCESS, 0.5, T0.plusSeconds(180));
    insertFull("other", "rotate keys", "vault write", Outcome.SUCCESS, 0.9, T0);
    setUtility("ns", c.id(), 0.4, 2, T0.plusSeconds(1000));
    setUtility("ns", d.id(), 0.5, 5, T0.plusSeconds(2000));
    record Case(MemoryQuery query, List<Memory> expected) {}
    List<Case> cases = List.of(
        new Case(MemoryQuery.all(10), List.of(a, b, c, d)),
        new Case(MemoryQuery.builder().outcomes(Outcome.SUCCESS).build(), List.of(a, d)),
        new Case(MemoryQuery.builder().outcomes(Outcome.FAILURE, Outcome.UNKNOWN).build(), List.of(b, c)),
        new Case(MemoryQuery.builder().minQ(0.4).build(), List.of(a, c, d)),
        new Case(MemoryQuery.builder().minQ(0.4).maxQ(0.5).build(), List.of(c, d)),
        new Case(MemoryQuery.builder().maxQ(-0.5).build(), List.of(b)),
        new Case(MemoryQuery.builder().minVisits(2).build(), List.of(c, d)),
        new Case(MemoryQuery.builder().minVisits(1).maxVisits(2).build(), List.of(c)),
        new Case(MemoryQuery.builder().maxVisits(0).build(), List.of(a, b)),
        new Case(MemoryQuery.builder().createdFrom(T0.plusSeconds(60)).build(), List.of(b, c, d)),
        new Case(MemoryQuery.builder().createdFrom(T0.plusSeconds(60)).createdTo(T0.plusSeconds(180)).build(), List.of(b, c)),
        new Case(MemoryQuery.builder().createdTo(T0.plusSeconds(60)).build(), List.of(a)),
        new Case(MemoryQuery.builder().updatedFrom(T0.plusSeconds(1000)).build(), List.of(c, d)),
        new Case(MemoryQuery.builder().updatedTo(T0.plusSeconds(1000)).build(), List.of(a, b)),
        new Case(MemoryQuery.builder().updatedFrom(T0.plusSeconds(60)).updatedTo(T0.plusSeconds(2000)).build(), List.of(b, c)),
        new Case(MemoryQuery.builder().text("ROTATE").build(), List.of(a, b)),
        new Case(MemoryQuery.builder().text("restart").build(), List.of(c, d)),
        new Case(MemoryQuery.builder().text("rotate vault").build(), List.of(a)),
        new Case(MemoryQuery.builder().text("rotate kubectl").build(), List.of()),
        new Case(MemoryQuery.builder().text("  ").build(), List.of(a, b, c, d)),
        new Case(MemoryQuery.builder().text("restart").outcomes(Outcome.SUCCESS).minVisits(5).build(), List.of(d)));
    for (Case k : cases) {
      MemoryPage page = store.search("ns", k.query.toBuilder().limit(10).build());
      assertThat(page.memories()).as(k.query.toString()).containsExactlyElementsOf(
          k.expected.stream().map(m -> store.get("ns", m.id()).orElseThrow()).toList());
      assertThat(page.total()).as(k.query.toString()).isEqualTo(k.expected.size());
      assertThat(page.next()).isNull();
      // one at a time through the cursors: the same memories, and the total on every page
      assertThat(allPages("ns", k.query.toBuilder().limit(1).build())).as(k.query.toString())
          .containsExactlyElementsOf(k.expected.stream().map(Memory::id).toList());
      if (!k.expected.isEmpty()) {
        assertThat(store.search("ns", k.query.toBuilder().limit(1).build()).total()).isEqualTo(k.expected.size());
      }
    }
    assertThat(store.search("nobody", MemoryQuery.all(10))).isEqualTo(new MemoryPage(List.of(), null, 0));
  }

  @Test
  void search_sortsByEachKeyBothWays_breakingTiesByCreationOrder() {
    Memory a = insertFull("ns", "a", "a", Outcome.SUCCESS, 0.5, T0);
    Memory b = insertFull("ns", "b", "b", Outcome.SUCCESS, -0.25, T0);
    Memory c = insertFull("ns", "c", "c", Outcome.SUCCESS, 0.5, T0);
    Memory d = insertFull("ns", "d", "d", Outcome.SUCCESS, 1.0, T0);
    Memory e = insertFull("ns", "e", "e", Outcome.SUCCESS, -0.0, T0);
    setUtility("ns", b.id(), -0.25, 2, T0.plusSeconds(5));
    setUtility("ns", d.id(), 1.0, 2, T0.plusNanos(1));
    setUtility("ns", a.id(), 0.5, 1, T0.plusSeconds(5));
    Map<MemoryQuery.Sort, List<Memory>> ascending = Map.of(
        MemoryQuery.Sort.CREATED, List.of(a, b, c, d, e),
        MemoryQuery.Sort.Q, List.of(b, e, a, c, d),
        MemoryQuery.Sort.VISITS, List.of(c, e, a, b, d),
        MemoryQuery.Sort.UPDATED, List.of(c, e, d, a, b));
    ascending.forEach((sort, expected) -> {
      List<String> ids = expected.stream().map(Memory::id).toList();
      for (int limit : new int[] {1, 2, 5}) {
        MemoryQuery asc = MemoryQuery.builder().sort(sort).limit(limit).build();
        assertThat(allPages("ns", asc)).as(sort + " asc, limit " + limit).containsExactlyElementsOf(ids);
        assertThat(allPages("ns", asc.toBuilder().descending(true).build())).as(sort + " desc, limit " + limit)
            .containsExactlyElementsOf(ids.reversed());
      }
    });
  }

  @Test
  void search_text_matchesWholeWords_caseFolded_inTheIntentOrTheExperience() {
    Memory a = insertFull("ns", "Deploy the API-gateway", "kubectl apply -f gw.yaml; v2.3 OK", Outcome.SUCCESS, 0, T0);
    Memory b = insertFull("ns", "deploying gateways", "ran make_deploy (exit 0)", Outcome.SUCCESS, 0, T0);
    Memory c = insertFull("ns", "Straße prüfen", "ÉTÉ 42x; café", Outcome.SUCCESS, 0, T0);
    record Case(String text, List<Memory> expected) {}
    for (Case k : List.of(
        new Case("deploy", List.of(a, b)), // a word, not a prefix ("deploying" is another); '_' separates words
        new Case("DEPLOY api", List.of(a)),
        new Case("gateway", List.of(a)),
        new Case("api-GATEWAY!", List.of(a)),
        new Case("gw yaml", List.of(a)),
        new Case("v2", List.of(a)),
        new Case("3", List.of(a)),
        new Case("v2.3", List.of(a)),
        new Case("make", List.of(b)),
        new Case("make_deploy", List.of(b)),
        new Case("deploying", List.of(b)),
        new Case("gatewayS", List.of(b)),
        new Case("0", List.of(b)),
        new Case("deploying exit", List.of(b)),
        new Case("ok", List.of(a)),
        new Case("straße", List.of(c)),
        new Case("PRÜFEN été", List.of(c)),
        new Case("42x", List.of(c)),
        new Case("42", List.of()),
        new Case("CAFÉ", List.of(c)),
        new Case("cafe", List.of()),
        new Case("deploy gateways", List.of(b)),
        new Case("deploy yaml", List.of(a)),
        new Case("api gateways", List.of()))) {
      assertThat(store.search("ns", MemoryQuery.builder().text(k.text).build()).memories()).as(k.text)
          .extracting(Memory::id).containsExactlyElementsOf(k.expected.stream().map(Memory::id).toList());
    }    // words longer than any index takes as one term still match exactly
    String longWord = "é".repeat(5_000); // 10,000 UTF-8 bytes
    Memory d = insertFull("ns", "long", longWord + "y, and more", Outcome.SUCCESS, 0, T0);
    assertThat(store.search("ns", MemoryQuery.builder().text(longWord.toUpperCase() + "Y").build()).memories())
        .extracting(Memory::id).containsExactly(d.id());
    assertThat(store.search("ns", MemoryQuery.builder().text(longWord + "z").build()).memories()).isEmpty();
    assertThat(store.search("ns", MemoryQuery.builder().text(longWord).build()).memories()).isEmpty();
  }

  @Test
  void search_seesEditedText_andNotTheOldText() {
    Memory m = insertFull("ns", "rotate keys", "old words here", Outcome.SUCCESS, 0, T0);
    insertFull("ns", "rotate certs", "unrelated", Outcome.SUCCESS, 0, T0);
    store.updateExperience("ns", m.id(), "brand new", T0.plusSeconds(9));
    assertThat(store.search("ns", MemoryQuery.builder().text("old").build()).memories()).isEmpty();
    assertThat(store.search("ns", MemoryQuery.builder().text("brand rotate").build()).memories())
        .extracting(Memory::id).containsExactly(m.id());
    assertThat(store.search("ns", MemoryQuery.builder().updatedFrom(T0.plusSeconds(9)).build()).memories())
        .extracting(Memory::id).containsExactly(m.id());
  }

  @Test
  void search_pagesStably_whileMemoriesAreInsertedAndDeletedBetweenPages() {
    SplittableRandom rnd = new SplittableRandom(25);
    List<Memory> throughout = new ArrayList<>();
    List<Memory> deletable = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Memory m = insertFull("ns", "task " + i, "step " + (i % 3), Outcome.values()[i % 3], (i % 7) / 7.0, T0.plusSeconds(i));
      (i % 4 == 0 ? deletable : throughout).add(m);
    }
    for (MemoryQuery.Sort sort : MemoryQuery.Sort.values()) {
      for (boolean desc : new boolean[] {false, true}) {
        MemoryQuery q = MemoryQuery.builder().sort(sort).descending(desc).limit(3).build();
        List<String> seen = new ArrayList<>();
        List<Memory> added = new ArrayList<>();
        while (true) {
          MemoryPage page = store.search("ns", q);
          page.memories().forEach(m -> seen.add(m.id()));
          if (page.next() == null) {
            break;
          }
          // between pages: a new memory, and one of the deletable ones goes
          added.add(insertFull("ns", "new " + added.size() + sort + desc, "later", Outcome.SUCCESS, rnd.nextDouble(),
              T0.plusSeconds(1000 + added.size())));
          if (!deletable.isEmpty()) {
            store.delete("ns", deletable.removeLast().id());
          }
          q = q.after(page.next());
        }
        assertThat(seen).as(sort + (desc ? " desc" : " asc")).doesNotHaveDuplicates()
            .containsAll(throughout.stream().map(Memory::id).toList());
        added.forEach(m -> store.delete("ns", m.id()));
      }
    }
  }

  @Test
  void search_refusesACursorOfAnotherQuerySortOrNamespace_andAForgedOne() {
    for (int i = 0; i < 3; i++) {
      insertFull("ns", "t" + i, "e", Outcome.SUCCESS, i, T0);
    }
    MemoryQuery q = MemoryQuery.builder().sort(MemoryQuery.Sort.Q).limit(1).build();
    String next = store.search("ns", q).next();
    assertThat(next).isNotNull();
    assertThat(store.search("ns", q.toBuilder().limit(2).after(next).build()).memories()).hasSize(2); // limit may change
    for (MemoryQuery other : List.of(
        q.toBuilder().descending(true).after(next).build(),
        q.toBuilder().sort(MemoryQuery.Sort.VISITS).after(next).build(),
        q.toBuilder().minQ(0).after(next).build(),
        q.toBuilder().text("e").after(next).build(),
        q.toBuilder().outcomes(Outcome.SUCCESS).after(next).build(),
        q.toBuilder().after(next.substring(0, next.length() - 2)).build(),
        q.toBuilder().after("garbage").build())) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.search("ns", other))
          .isInstanceOfSatisfying(io.memloop.MemLoopException.class, e -> {
            assertThat(e.reason()).isEqualTo(io.memloop.MemLoopException.Reason.INVALID_ARGUMENT);
            assertThat(e.field()).isEqualTo("after");
          });
    }
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> store.search("ns2", q.after(next)))
        .isInstanceOf(io.memloop.MemLoopException.class).hasMessageStartingWith("after:");
  }

  @Test
  void search_agreesWithTheReferenceRule_onRandomMemoriesAndQueries() {
    SplittableRandom rnd = new SplittableRandom(2525);
    String[] vocabulary = {"deploy", "Deploy", "rotate", "keys", "v2", "API", "gateway", "42", "été", "ok"};
    List<Memory> all = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      String intent = vocabulary[rnd.nextInt(vocabulary.length)] + " " + vocabulary[rnd.nextInt(vocabulary.length)];
      String experience = vocabulary[rnd.nextInt(vocabulary.length)] + "-" + vocabulary[rnd.nextInt(vocabulary.length)] + ".";
      Memory m = insertFull(rnd.nextInt(5) == 0 ? "other" : "ns", intent + " " + i, experience,
          Outcome.values()[rnd.nextInt(3)], rnd.nextInt(5) / 4.0, T0.plusSeconds(rnd.nextInt(20)));
      all.add(m);
    }
    for (Memory m : all) {
      if (rnd.nextInt(3) == 0) {
        setUtility(m.namespace(), m.id(), rnd.nextInt(9) / 8.0 - 0.5, rnd.nextInt(4), T0.plusSeconds(rnd.nextInt(10)));
      }
      if (rnd.nextInt(10) == 0) {
        store.delete(m.namespace(), m.id());
      }
    }
    for (int i = 0; i < 60; i++) {
      MemoryQuery.Builder b = MemoryQuery.builder()
          .sort(MemoryQuery.Sort.values()[rnd.nextInt(4)]).descending(rnd.nextBoolean()).limit(1 + rnd.nextInt(12));
      if (rnd.nextInt(3) == 0) {
        b.text(vocabulary[rnd.nextInt(vocabulary.length)] + (rnd.nextBoolean() ? "" : " " + vocabulary[rnd.nextInt(vocabulary.length)]));
      }
      if (rnd.nextInt(3) == 0) {
        b.outcomes(Outcome.values()[rnd.nextInt(3)]);
      }
      if (rnd.nextInt(3) == 0) {
        double lo = rnd.nextInt(5) / 4.0 - 0.5;
        b.minQ(lo).maxQ(lo + rnd.nextInt(3) / 4.0);
      }
      if (rnd.nextInt(4) == 0) {
        b.minVisits(rnd.nextInt(2)).maxVisits(1 + rnd.nextInt(3));
      }
      if (rnd.nextInt(4) == 0) {
        b.createdFrom(T0.plusSeconds(rnd.nextInt(10))).createdTo(T0.plusSeconds(10 + rnd.nextInt(10)));
      }
      if (rnd.nextInt(4) == 0) {
        b.updatedFrom(T0.plusSeconds(rnd.nextInt(5)));
      }
      MemoryQuery q = b.build();
      List<String> expected = reference("ns", q);
      assertThat(allPages("ns", q)).as(q.toString()).containsExactlyElementsOf(expected);
      assertThat(store.search("ns", q).total()).as(q.toString()).isEqualTo(expected.size());
    }
  }

  // ---------------------------------------------------------------- a learning idea added in core only (issue 26)

  /**
   * A new ranking signal ("prefer memories not shown in the last N retrievals of this task", {@link
   * io.memloop.policy.RecentlyShownSignal}) is a core-only change: a {@link io.memloop.policy.RankingSignal} whose
   * state is an annotation on each memory. It works on every store through this suite, and leaves other
   * annotations of a memory alone.
   */
  @Test
  void aRankingSignalWrittenInCore_keepsItsStateAsAnnotations_andReordersRetrievals() {
    float[] e = unit(1, 0, 0, 0, 0, 0, 0, 0);
    Memory m1 = insert("ns", e, "first", 0);
    Memory m2 = insert("ns", e, "second", 0);
    Memory m3 = insert("ns", e, "third", 0);
    store.annotate("ns", Map.of(m1.id(), Annotations.of("other", 3, new byte[] {7})));
    io.memloop.MemLoopConfig config = io.memloop.MemLoopConfig.preset(io.memloop.Preset.DEFAULT).toBuilder()
        .set("k2", "1").build();
    io.memloop.MemLoop plain = io.memloop.MemLoop.builder().store(store).config(config).build();
    io.memloop.MemLoop withSignal = io.memloop.MemLoop.builder().store(store).config(config)
        .rankingSignal(new io.memloop.policy.RecentlyShownSignal(2)).build();
    io.memloop.Intent taskA = io.memloop.Intent.of("task A", e);
    io.memloop.Intent taskB = io.memloop.Intent.of("task B", e);

    // without the signal the greedy choice (equal similarity and Q: the newest) is shown every time
    assertThat(plain.retrieve("ns", taskA).selected()).extracting(Memory::id).containsExactly(m3.id());
    assertThat(plain.retrieve("ns", taskA).selected()).extracting(Memory::id).containsExactly(m3.id());
    // with it, what task A was shown in its last two retrievals goes behind the rest
    List<String> shownToA = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      shownToA.add(withSignal.retrieve("ns", taskA).selected().getFirst().id());
    }
    assertThat(shownToA).containsExactly(m3.id(), m2.id(), m1.id(), m3.id());
    // per task: task B has not been shown anything yet
    assertThat(withSignal.retrieve("ns", taskB).selected()).extracting(Memory::id).containsExactly(m3.id());

    Map<String, Annotations> stored = store.annotations("ns", List.of(m1.id(), m2.id(), m3.id()));
    assertThat(io.memloop.policy.RecentlyShownSignal.decode(stored.get(m3.id()).get("recently-shown").orElseThrow()).values())
        .as("m3: shown to A at its 4th retrieval and to B at its 1st").containsExactly(0, 0);
    assertThat(io.memloop.policy.RecentlyShownSignal.decode(stored.get(m1.id()).get("recently-shown").orElseThrow()).values())
        .as("m1: shown to A at its 3rd retrieval, one retrieval of A ago; never to B").containsExactly(1);
    assertThat(stored.get(m1.id()).get("other")).as("another annotation of m1 is left as it was")
        .contains(new Annotations.Entry(3, new byte[] {7}));
  }
}
