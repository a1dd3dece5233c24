package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.cloud.Replica;
import org.apache.solr.embedded.JettySolrRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node of a replicated collection dies: reads and writes go on through the same store, and nothing acknowledged —
 * before, during or after the loss — is missing, on the survivor and again once the dead node has come back.
 */
class SolrNodeLossTest {
  private static final int DIM = 8;
  private static final String COLLECTION = "nodeloss";
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static SolrTestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    cluster = SolrTestCluster.start(2);
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
  }

  /** Memories acknowledged so far, and the utility each must have. */
  private final Map<String, Memory> acknowledged = new HashMap<>();
  private final SplittableRandom rnd = new SplittableRandom(11);

  @Test
  void losingTheLeaderNode_readsAndWritesContinue_andNothingAcknowledgedIsLost() throws Exception {
    // one shard, a replica on each node: either node alone holds everything
    SolrStoreOptions options = SolrStoreOptions.parse(cluster.location(COLLECTION, "shards=1&replicas=2"), "test");
    try (SolrStore store = SolrStore.open(options, OptionalInt.of(DIM))) {
      work(store, 40);

      String leaderNode = cluster.cluster.getSolrClient().getClusterState().getCollection(COLLECTION)
          .getSlice("shard1").getLeader().getNodeName();
      JettySolrRunner dead = cluster.cluster.getJettySolrRunners().stream()
          .filter(j -> j.getNodeName().equals(leaderNode)).findFirst().orElseThrow();
      cluster.cluster.stopJettySolrRunner(dead);
      cluster.cluster.waitForJettyToStop(dead);
      // the survivor takes over as leader (ZooKeeper watch, no sleeping)
      cluster.cluster.getZkStateReader().waitForState(COLLECTION, 60, TimeUnit.SECONDS, (live, c) -> c != null
          && c.getSlice("shard1").getLeader() != null
          && !c.getSlice("shard1").getLeader().getNodeName().equals(leaderNode)
          && c.getSlice("shard1").getLeader().getState() == Replica.State.ACTIVE);

      work(store, 40); // writes and reads through the same store, now on one node
      checkEverythingAcknowledged(store);

      cluster.cluster.startJettySolrRunner(dead);
      cluster.cluster.waitForActiveCollection(COLLECTION, 1, 2); // the returning replica has recovered
      work(store, 10);
      checkEverythingAcknowledged(store);
    }
  }

  /** {@code n} inserts, each followed by a reward of a retrieval selecting it and an earlier memory. */
  private void work(SolrStore store, int n) {
    List<String> ids = new ArrayList<>(acknowledged.keySet());
    for (int i = 0; i < n; i++) {
      float[] v = new float[DIM];
      for (int d = 0; d < DIM; d++) {
        v[d] = (float) rnd.nextGaussian();
      }
      Memory m = store.insert(new NewMemory("ns", "task " + acknowledged.size(), Vectors.normalized(v, "test"),
          "experience " + acknowledged.size(), Outcome.SUCCESS, 0, T0), 0.99);
      acknowledged.put(m.id(), m);
      List<Candidate> selected = new ArrayList<>();
      selected.add(new Candidate(m.id(), 1, 0, 1, true, 1));
      if (!ids.isEmpty()) {
        selected.add(new Candidate(ids.get(rnd.nextInt(ids.size())), 1, 0, 1, true, 1));
      }
      RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(3600), selected));
      RewardOutcome out = store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(u.q() + 1, u.visits() + 1));
      assertThat(out).isInstanceOf(RewardOutcome.Applied.class);
      for (var change : ((RewardOutcome.Applied) out).changes()) {
        Memory before = acknowledged.get(change.memoryId());
        acknowledged.put(change.memoryId(), before.withUtility(new Utility(change.qAfter(), change.visits()), T0));
      }
      ids.add(m.id());
    }
  }

  private void checkEverythingAcknowledged(SolrStore store) throws Exception {
    for (Memory m : acknowledged.values()) {
      assertThat(store.get("ns", m.id())).as("real-time get of %s", m.id()).contains(m);
    }
    new UpdateRequest().commit(cluster.cluster.getSolrClient(), COLLECTION);
    Map<String, Memory> searched = new HashMap<>();
    store.forEachMemory("ns", m -> searched.put(m.id(), m));
    assertThat(searched).isEqualTo(acknowledged);
    for (Memory m : acknowledged.values()) {
      assertThat(store.recall("ns", m.intentEmbedding(), 1, 0.99).getFirst().memories()).extracting(Memory::id).contains(m.id());
    }
  }
}
