package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Candidate;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import io.memloop.store.UtilityUpdate;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Writes whose connection fails with the JDK client's "connection closed locally", before Solr saw the request or
 * after it applied it (regression: CI once failed {@code concurrentRewards_loseNoUpdate} with it). Every reward must be
 * applied exactly once, and every other write land once.
 */
@ExtendWith(SolrTestCluster.Shared.class)
class SolrWriteFaultTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final UtilityUpdate PLUS_ONE = (id, u) -> new Utility(u.q() + 1, u.visits() + 1);
  private static final Predicate<UpdateRequest> CLAIM = withDoc(d -> d.getFieldValue("rewarded") instanceof Map);
  private static final Predicate<UpdateRequest> UTILITIES = withDoc(d -> d.getFieldValue("q") instanceof Map);
  private static final Predicate<UpdateRequest> NEW_MEMORY = withDoc(d -> "m".equals(d.getFieldValue("kind")));
  private static final Predicate<UpdateRequest> NEW_RETRIEVAL = withDoc(d -> "r".equals(d.getFieldValue("kind")));

  private FaultySolrClient faults;
  private SolrStore store;
  private SolrStore other;
  private String ns;

  @BeforeEach
  void open(TestInfo test) {
    SolrStoreOptions options = SolrStoreOptions.parse(
        SolrTestCluster.Shared.get().location("faults", "visibility=immediate&shards=2&replicas=1"), "test");
    store = SolrStore.open(options, OptionalInt.of(DIM), c -> faults = new FaultySolrClient(c));
    other = SolrStore.open(options, OptionalInt.of(DIM)); // another process sharing the collection
    ns = test.getTestMethod().orElseThrow().getName().toLowerCase(Locale.ROOT);
  }

  @AfterEach
  void close() {
    store.close();
    other.close();
  }

  @Test
  void claim_failsBeforeSending_rewardAppliedOnce() {
    assertRewardAppliedOnce(CLAIM, FaultySolrClient.When.BEFORE_SENDING);
  }

  @Test
  void claim_failsAfterSolrAppliedIt_rewardAppliedOnce() {
    assertRewardAppliedOnce(CLAIM, FaultySolrClient.When.AFTER_APPLYING);
  }

  @Test
  void utilities_failBeforeSending_appliedOnce() {
    assertRewardAppliedOnce(UTILITIES, FaultySolrClient.When.BEFORE_SENDING);
  }

  @Test
  void utilities_failAfterSolrAppliedThem_appliedOnce() {
    assertRewardAppliedOnce(UTILITIES, FaultySolrClient.When.AFTER_APPLYING);
  }

  @Test
  void utilities_failAfterApplied_whileAnotherProcessRewardsTheSameMemory_eachAppliedOnce() {
    Memory a = store.insert(memory(1), 2);
    Memory b = store.insert(memory(2), 2);
    RetrievalRecord mine = save(a, b);
    RetrievalRecord theirs = save(a);
    faults.fail(UTILITIES, FaultySolrClient.When.AFTER_APPLYING, 1);
    // between the lost answer and the store reading the memory again, another process's reward lands on it
    faults.afterApplying(() -> assertThat(other.applyReward(ns, theirs.id(), T0, PLUS_ONE))
        .isInstanceOf(RewardOutcome.Applied.class));

    RewardOutcome outcome = store.applyReward(ns, mine.id(), T0, PLUS_ONE);

    assertThat(faults.failed()).isEqualTo(1);
    assertThat(outcome).isInstanceOf(RewardOutcome.Applied.class);
    assertThat(((RewardOutcome.Applied) outcome).changes()).hasSize(2);
    assertThat(utility(a)).isEqualTo(new Utility(2, 2));
    assertThat(utility(b)).isEqualTo(new Utility(1, 1));
  }

  @Test
  void claim_failingEveryTime_givesUpWithTheStoreError_andLeavesTheRewardPending() {
    Memory a = store.insert(memory(1), 2);
    RetrievalRecord r = save(a);
    faults.fail(CLAIM, FaultySolrClient.When.BEFORE_SENDING, 3);

    assertThatThrownBy(() -> store.applyReward(ns, r.id(), T0, PLUS_ONE))
        .isInstanceOfSatisfying(MemLoopException.class,
            e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_UNAVAILABLE))
        .hasMessageContaining("Solr write failed: connection closed locally");
    assertThat(faults.failed()).isEqualTo(3);
    assertThat(utility(a)).isEqualTo(new Utility(0, 0));

    assertThat(store.applyReward(ns, r.id(), T0, PLUS_ONE)).isInstanceOf(RewardOutcome.Applied.class);
    assertThat(utility(a)).isEqualTo(new Utility(1, 1));
  }

  @Test
  void insertAndSaveRetrieval_failAfterSolrAppliedThem_landOnce() {
    faults.fail(NEW_MEMORY, FaultySolrClient.When.AFTER_APPLYING, 1);
    Memory a = store.insert(memory(1), 2);
    faults.fail(NEW_MEMORY, FaultySolrClient.When.BEFORE_SENDING, 1);
    Memory b = store.insert(memory(2), 0.5);
    faults.fail(NEW_RETRIEVAL, FaultySolrClient.When.AFTER_APPLYING, 1);
    RetrievalRecord r = save(a, b);

    assertThat(faults.failed()).isEqualTo(3);
    assertThat(store.counts(ns, T0).memories()).isEqualTo(2);
    assertThat(store.get(ns, a.id()).map(Memory::experience)).contains(a.experience());
    assertThat(store.retrieval(ns, r.id())).isPresent();
    assertThat(store.applyReward(ns, r.id(), T0, PLUS_ONE)).isInstanceOf(RewardOutcome.Applied.class);
    assertThat(utility(a)).isEqualTo(new Utility(1, 1));
  }

  private void assertRewardAppliedOnce(Predicate<UpdateRequest> target, FaultySolrClient.When when) {
    Memory a = store.insert(memory(1), 2);
    Memory b = store.insert(memory(2), 2);
    RetrievalRecord r = save(a, b);
    faults.fail(target, when, 1);

    RewardOutcome outcome = store.applyReward(ns, r.id(), T0, PLUS_ONE);

    assertThat(faults.failed()).isEqualTo(1);
    assertThat(outcome).isInstanceOf(RewardOutcome.Applied.class);
    assertThat(((RewardOutcome.Applied) outcome).changes()).hasSize(2);
    assertThat(utility(a)).isEqualTo(new Utility(1, 1));
    assertThat(utility(b)).isEqualTo(new Utility(1, 1));
    assertThat(store.applyReward(ns, r.id(), T0, PLUS_ONE)).isInstanceOf(RewardOutcome.AlreadyRewarded.class);
    assertThat(utility(a)).isEqualTo(new Utility(1, 1));
  }

  private RetrievalRecord save(Memory... selected) {
    List<Candidate> candidates = java.util.Arrays.stream(selected)
        .map(m -> new Candidate(m.id(), 1, m.q(), 1, true, 1)).toList();
    return store.saveRetrieval(new RetrievalRecordDraft(ns, T0, T0.plusSeconds(3600), candidates));
  }

  private Utility utility(Memory m) {
    return other.get(ns, m.id()).orElseThrow().utility();
  }

  private NewMemory memory(int seed) {
    SplittableRandom rnd = new SplittableRandom(seed);
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return new NewMemory(ns, "intent " + seed, Vectors.normalized(v, "test"), "experience " + seed, Outcome.SUCCESS, 0, T0);
  }

  private static Predicate<UpdateRequest> withDoc(Predicate<SolrInputDocument> p) {
    return r -> r.getDocuments() != null && r.getDocuments().stream().anyMatch(p);
  }
}
