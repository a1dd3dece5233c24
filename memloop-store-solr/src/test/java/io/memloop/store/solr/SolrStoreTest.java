package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.Utility;
import io.memloop.UtilityChange;
import io.memloop.Vectors;
import io.memloop.store.IntentMatch;
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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrQuery;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What the contract cannot see: the near-real-time default, updates in place, tenants under kNN, and several MemLoop
 * instances (each with its own SolrStore and client, as separate server processes would have) sharing one collection.
 * Each test has its own collection; searches are made to see writes by an explicit commit, never by waiting.
 */
@ExtendWith(SolrTestCluster.Shared.class)
class SolrStoreTest {
  private static final int DIM = 16;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final List<SolrStore> opened = new ArrayList<>();
  private String collection;

  @AfterEach
  void close() {
    opened.forEach(SolrStore::close);
  }

  private SolrStore open(TestInfo test, String params) {
    collection = "t-" + test.getTestMethod().orElseThrow().getName().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]", "-");
    collection = collection.substring(0, Math.min(collection.length(), 40));
    SolrStore s = SolrStore.open(SolrStoreOptions.parse(cluster().location(collection, params), "test"), OptionalInt.of(DIM));
    opened.add(s);
    return s;
  }

  private static SolrTestCluster cluster() {
    return SolrTestCluster.Shared.get();
  }

  private SolrClient admin() {
    return cluster().cluster.getSolrClient();
  }

  /** Makes every acknowledged write searchable now (what the soft-commit interval does a moment later). */
  private void commit() throws Exception {
    new UpdateRequest().commit(admin(), collection);
  }

  private static float[] vector(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "test");
  }

  /** A unit vector near {@code center}: cosine about 0.99. */
  private static float[] near(float[] center, SplittableRandom rnd) {
    float[] v = center.clone();
    for (int i = 0; i < DIM; i++) {
      v[i] += (float) (rnd.nextGaussian() * 0.03);
    }
    return Vectors.normalized(v, "test");
  }

  private static NewMemory memory(String ns, float[] v, String experience) {
    return new NewMemory(ns, "intent " + experience, v, experience, Outcome.SUCCESS, 0.0, T0);
  }

  @Test
  void nearRealTime_readsByIdAreCurrent_searchesCatchUpAtTheCommit_andQuickInsertsStillJoinOneGroup(TestInfo test) throws Exception {
    SolrStore store = open(test, "shards=2&replicas=1");
    SplittableRandom rnd = new SplittableRandom(1);
    float[] center = vector(rnd);
    Memory first = store.insert(memory("ns", center, "first"), 0.9);
    // not searchable yet, but this process remembers the group it just made
    Memory second = store.insert(memory("ns", near(center, rnd), "second"), 0.9);
    assertThat(second.intentId()).isEqualTo(first.intentId());
    assertThat(store.get("ns", second.id())).contains(second);

    RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(60),
        List.of(new io.memloop.Candidate(first.id(), 1, 0, 1, true, 1))));
    assertThat(store.applyReward("ns", r.id(), T0, (id, u) -> new Utility(0.5, u.visits() + 1)))
        .isInstanceOf(RewardOutcome.Applied.class);
    assertThat(store.get("ns", first.id()).orElseThrow().utility()).isEqualTo(new Utility(0.5, 1)); // real-time get
    assertThat(store.applyReward("ns", r.id(), T0, (id, u) -> u)).isInstanceOf(RewardOutcome.AlreadyRewarded.class);

    commit();
    List<IntentMatch> hits = store.recall("ns", center, 3, 0.5);
    assertThat(hits).hasSize(1);
    assertThat(hits.getFirst().memories()).extracting(Memory::id).containsExactly(first.id(), second.id());
    assertThat(hits.getFirst().memories().getFirst().q()).isEqualTo(0.5);
  }

  @Test
  void utilityUpdatesAreInPlace_theDocumentIsNotReindexed(TestInfo test) throws Exception {
    SolrStore store = open(test, "visibility=immediate&shards=1&replicas=1");
    SplittableRandom rnd = new SplittableRandom(2);
    float[] v = vector(rnd);
    Memory m = store.insert(memory("ns", v, "kept"), 0.9);
    // an indexed-only field: a document re-indexed from its stored fields would lose it
    String docId = store.docId("ns", m.id());
    String groupId = store.docId("ns", m.intentId());
    UpdateRequest mark = new UpdateRequest();
    for (String id : List.of(docId, groupId)) {
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", id);
      d.addField("marker", Map.of("set", "x"));
      mark.add(d);
    }
    mark.commit(admin(), collection);
    assertThat(markerHits(docId)).isEqualTo(1);

    for (int i = 0; i < 3; i++) {
      RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(60),
          List.of(new io.memloop.Candidate(m.id(), 1, 0, 1, true, 1))));
      store.applyReward("ns", r.id(), T0.plusSeconds(i), (id, u) -> new Utility(u.q() + 0.25, u.visits() + 1));
    }
    store.insert(memory("ns", near(v, rnd), "joins the group"), 0.9); // the group's member count, in place too
    commit();
    assertThat(store.get("ns", m.id()).orElseThrow().utility()).isEqualTo(new Utility(0.75, 3));
    assertThat(markerHits(docId)).as("memory after three rewards").isEqualTo(1);
    assertThat(markerHits(groupId)).as("intent group after a new member").isEqualTo(1);
    assertThat(store.recall("ns", v, 1, 0.9).getFirst().memories()).hasSize(2); // its vector still searchable

    // the check can fail: an update of a stored field re-indexes the document and the marker is gone
    UpdateRequest reindex = new UpdateRequest();
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", docId);
    d.addField("experience", Map.of("set", "rewritten"));
    reindex.add(d);
    reindex.commit(admin(), collection);
    assertThat(markerHits(docId)).isZero();
  }

  private long markerHits(String docId) throws Exception {
    SolrQuery q = new SolrQuery("marker:x");
    q.addFilterQuery("{!term f=id}" + docId);
    return admin().query(collection, q).getResults().getNumFound();
  }

  @Test
  void tenantsNeverSeeEachOther_underKnn_routedToTheirShard(TestInfo test) throws Exception {
    SolrStore store = open(test, "visibility=immediate&shards=2&replicas=1");
    SplittableRandom rnd = new SplittableRandom(3);
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      vectors.add(vector(rnd));
    }
    Map<String, List<String>> ids = new HashMap<>();
    for (String tenant : List.of("alpha", "beta", "gamma")) {
      for (int i = 0; i < vectors.size(); i++) { // the same vectors in every tenant: only the filter separates them
        ids.computeIfAbsent(tenant, t -> new ArrayList<>()).add(store.insert(memory(tenant, vectors.get(i), tenant + i), 0.99).id());
      }
    }
    for (String tenant : List.of("alpha", "beta", "gamma")) {
      for (float[] v : vectors) {
        for (IntentMatch h : store.recall(tenant, v, 10, -1)) {
          assertThat(h.memories()).allSatisfy(m -> {
            assertThat(m.namespace()).isEqualTo(tenant);
            assertThat(ids.get(tenant)).contains(m.id());
          });
        }
        assertThat(store.recall(tenant, v, 1, 0.999).getFirst().similarity()).isGreaterThan(0.999);
      }
      String other = tenant.equals("alpha") ? "beta" : "alpha";
      assertThat(store.get(other, ids.get(tenant).getFirst())).isEmpty();
      assertThat(store.get(tenant, ids.get(tenant).getFirst())).isPresent();
    }
    // a namespace's documents share its shard, so its kNN asks one shard
    SolrQuery q = new SolrQuery("*:*");
    q.set("_route_", "beta!");
    q.set("shards.info", true);
    q.setRows(0);
    var info = (org.apache.solr.common.util.NamedList<?>) admin().query(collection, q).getResponse().get("shards.info");
    assertThat(info.size()).isEqualTo(1);
    q.remove("_route_");
    assertThat(((org.apache.solr.common.util.NamedList<?>) admin().query(collection, q).getResponse().get("shards.info")).size())
        .isEqualTo(2);
  }

  @Test
  void aNamespaceTooLargeForOneShard_spreadsOverSeveralWithFewerTenantBits(TestInfo test) throws Exception {
    SolrStore store = open(test, "visibility=immediate&shards=4&replicas=1&tenantBits=0");
    SplittableRandom rnd = new SplittableRandom(7);
    List<Memory> big = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      big.add(store.insert(memory("big", vector(rnd), "big " + i), 0.99));
    }
    Memory small = store.insert(memory("small", big.getFirst().intentEmbedding(), "small"), 0.99);
    assertThat(store.docId("big", "m1")).isEqualTo("big/0!m1");
    // the namespace's documents are on more than one shard, and its routed searches ask all of them
    SolrQuery q = new SolrQuery("{!term f=tenant}big");
    q.set("_route_", "big/0!");
    q.set("shards.info", true);
    q.setRows(0);
    var info = (org.apache.solr.common.util.NamedList<?>) admin().query(collection, q).getResponse().get("shards.info");
    long shardsWithDocs = 0;
    for (var e : info) {
      shardsWithDocs += ((Number) ((org.apache.solr.common.util.NamedList<?>) e.getValue()).get("numFound")).longValue() > 0 ? 1 : 0;
    }
    assertThat(shardsWithDocs).isGreaterThan(1);
    for (Memory m : big) {
      assertThat(store.get("big", m.id())).contains(m);
      assertThat(store.recall("big", m.intentEmbedding(), 1, 0.99).getFirst().memories()).extracting(Memory::id).containsExactly(m.id());
    }
    assertThat(store.recall("small", small.intentEmbedding(), 5, 0.0)).hasSize(1);
    RetrievalRecord r = store.saveRetrieval(new RetrievalRecordDraft("big", T0, T0.plusSeconds(60),
        List.of(new io.memloop.Candidate(big.get(7).id(), 1, 0, 1, true, 1), new io.memloop.Candidate(big.get(8).id(), 1, 0, 1, true, 1))));
    assertThat(((RewardOutcome.Applied) store.applyReward("big", r.id(), T0, (id, u) -> new Utility(1, 1))).changes()).hasSize(2);
    assertThat(store.counts("big", T0)).isEqualTo(new io.memloop.store.StoreCounts(60, 60, 0));
    // the routing is the collection's: a store opened without the parameter uses it
    SolrStore again = SolrStore.open(SolrStoreOptions.parse(cluster().location(collection, ""), "test"), OptionalInt.empty());
    opened.add(again);
    assertThat(again.get("big", big.get(7).id()).orElseThrow().utility()).isEqualTo(new Utility(1, 1));
    assertThat(again.docId("big", "m1")).isEqualTo("big/0!m1");
  }

  @Test
  void twoInstancesOnOneCollection_loseNoUpdate_aSequentialReplayOfTheAcknowledgedRewardsGivesTheFinalState(TestInfo test)
      throws Exception {
    SolrStore a = open(test, "shards=2&replicas=1");
    SolrStore b = SolrStore.open(a.options(), OptionalInt.empty());
    opened.add(b);
    MemLoopConfig config = MemLoopConfig.preset(Preset.MEMRL); // every selected memory gets the reward
    MemLoop[] engines = {MemLoop.builder().store(a).config(config).seed(1).build(), MemLoop.builder().store(b).config(config).seed(2).build()};
    SplittableRandom rnd = new SplittableRandom(4);
    float[][] tasks = {vector(rnd), vector(rnd)};
    for (int i = 0; i < 6; i++) {
      engines[i % 2].remember("team", Intent.ofEmbedding(near(tasks[i % 2], rnd)), "seed " + i, Outcome.SUCCESS);
    }
    commit();
    Map<String, Double> initialQ = new HashMap<>();
    a.forEachMemory("team", m -> initialQ.put(m.id(), m.q()));
    record Update(double qBefore, double qAfter, double reward) {}
    Map<String, List<Update>> updates = new ConcurrentHashMap<>();
    int clients = 4;
    int episodes = 25;
    try (ExecutorService pool = Executors.newFixedThreadPool(clients)) {
      List<Future<?>> futures = new ArrayList<>();
      for (int c = 0; c < clients; c++) {
        int client = c;
        futures.add(pool.submit(() -> {
          SplittableRandom random = new SplittableRandom(100 + client);
          MemLoop engine = engines[client % 2]; // half the clients on each instance
          for (int e = 0; e < episodes; e++) {
            Retrieval r = engine.retrieve("team", Intent.ofEmbedding(near(tasks[random.nextInt(2)], random)));
            double reward = Math.round((random.nextDouble() * 2 - 1) * 1e6) / 1e6;
            RewardResult result = engine.reward("team", r.id(), reward);
            for (UtilityChange ch : result.changes()) {
              updates.computeIfAbsent(ch.memoryId(), k -> new CopyOnWriteArrayList<>()).add(new Update(ch.qBefore(), ch.qAfter(), reward));
            }
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    }
    double alpha = config.alpha();
    int total = 0;
    for (var e : initialQ.entrySet()) {
      Memory m = a.get("team", e.getKey()).orElseThrow(); // real-time
      List<Update> chain = new ArrayList<>(updates.getOrDefault(m.id(), List.of()));
      total += chain.size();
      double q = e.getValue();
      int applied = 0;
      while (!chain.isEmpty()) {
        double from = q;
        List<Update> next = chain.stream().filter(u -> u.qBefore() == from).toList();
        assertThat(next).as("%s: updates starting from Q=%s (more than one is a lost update)", m.id(), from).hasSize(1);
        Update u = next.getFirst();
        assertThat(u.qAfter()).isCloseTo(from + alpha * (u.reward() - from), org.assertj.core.data.Offset.offset(1e-12));
        q = u.qAfter();
        chain.remove(u);
        applied++;
      }
      assertThat(m.q()).as("%s final Q", m.id()).isEqualTo(q);
      assertThat(m.visits()).as("%s visits", m.id()).isEqualTo(applied);
    }
    assertThat(total).as("rewards that reached memories").isGreaterThan(clients * episodes);
  }

  @Test
  void insertAll_groupsAsOneByOneInsertsWould_andKeepsMemberCountsExact(TestInfo test) throws Exception {
    SolrStore store = open(test, "visibility=immediate&shards=2&replicas=1");
    SplittableRandom rnd = new SplittableRandom(5);
    float[] old = vector(rnd);
    float[] fresh = vector(rnd);
    Memory existing = store.insert(memory("ns", old, "existing"), 0.9);
    List<Memory> batch = store.insertAll(List.of(
        memory("ns", near(old, rnd), "joins existing"),
        memory("ns", fresh, "starts a group"),
        memory("ns", near(fresh, rnd), "joins the batch's group"),
        memory("ns", vector(rnd), "alone"),
        memory("other", old, "another namespace")), 0.9);
    assertThat(batch.get(0).intentId()).isEqualTo(existing.intentId());
    assertThat(batch.get(2).intentId()).isEqualTo(batch.get(1).intentId()).isNotEqualTo(existing.intentId());
    assertThat(batch.get(3).intentId()).isNotIn(existing.intentId(), batch.get(1).intentId());
    assertThat(batch.get(4).namespace()).isEqualTo("other");
    for (Memory m : batch) {
      assertThat(store.get(m.namespace(), m.id())).contains(m);
    }
    assertThat(store.counts("ns", T0)).isEqualTo(new io.memloop.store.StoreCounts(5, 3, 0));
    // member counts are exact: a group goes with its last memory, not before
    store.delete("ns", existing.id());
    assertThat(store.counts("ns", T0).intents()).isEqualTo(3);
    store.delete("ns", batch.get(0).id());
    store.delete("ns", batch.get(1).id());
    assertThat(store.counts("ns", T0)).isEqualTo(new io.memloop.store.StoreCounts(2, 2, 0));
    store.delete("ns", batch.get(2).id());
    assertThat(store.counts("ns", T0)).isEqualTo(new io.memloop.store.StoreCounts(1, 1, 0));
  }

  /**
   * ledgerKeys decodes each key from its document's id, and pages by cursor: more keys than one page (500), the
   * namespace spread over both shards, keys with the characters the id encodes ('!' is the routing separator).
   */
  @Test
  void ledgerKeys_pagesPastOneCursorPageOverShards_decodesEveryKey_andDeletesShowAtOnceInRealTimeGets(TestInfo test)
      throws Exception {
    SolrStore store = open(test, "shards=2&replicas=1&tenantBits=0");
    List<String> odd = List.of("a!b", "!", "with space", "plus+sign", "per%cent", "%21", "slash/x", "t:é:m1", "emoji 🙂",
        "amp&eq=", "");
    Map<String, double[]> values = new HashMap<>();
    for (int i = 0; i < 1_234; i++) {
      values.put("c:m" + i, new double[] {i});
    }
    odd.forEach(k -> values.put(k, new double[] {-1}));
    store.putLedger("ns", values);
    store.putLedger("n", Map.of("c:m1", new double[] {7})); // a namespace whose name is a prefix of the other's
    commit();
    assertThat(store.ledgerKeys("ns")).hasSize(values.size()).containsExactlyInAnyOrderElementsOf(values.keySet());
    assertThat(store.ledgerKeys("n")).containsExactly("c:m1");

    List<String> gone = new ArrayList<>(odd);
    for (int i = 0; i < 1_234; i += 2) {
      gone.add("c:m" + i);
    }
    gone.add("never-stored");
    store.deleteLedger("ns", gone);
    List<String> someGone = new ArrayList<>(odd);
    someGone.addAll(List.of("c:m0", "c:m2", "c:m1232", "never-stored"));
    assertThat(store.ledger("ns", someGone)).isEmpty(); // real-time get: gone before any commit
    assertThat(store.ledger("ns", List.of("c:m1", "c:m1233"))).containsOnlyKeys("c:m1", "c:m1233");
    commit();
    Map<String, double[]> left = new HashMap<>(values);
    gone.forEach(left::remove);
    assertThat(store.ledgerKeys("ns")).hasSize(617).containsExactlyInAnyOrderElementsOf(left.keySet());
    List<String> all = new ArrayList<>(values.keySet()); // 1,245 keys in one read: real-time gets of 40 ids each
    Map<String, double[]> read = store.ledger("ns", all);
    assertThat(read).containsOnlyKeys(left.keySet());
    left.forEach((k, v) -> assertThat(read.get(k)).as(k).containsExactly(v));
    assertThat(store.ledgerKeys("n")).containsExactly("c:m1");
    store.deleteLedger("ns", List.of()); // nothing to send
  }

  @Test
  void aNamespaceMovesFromAnotherStore_exactly(TestInfo test) throws Exception {
    io.memloop.store.InMemoryStore embedded = new io.memloop.store.InMemoryStore(DIM);
    SplittableRandom rnd = new SplittableRandom(6);
    for (int i = 0; i < 30; i++) {
      float[] v = vector(rnd);
      embedded.insert(memory("team", v, "e" + i), 0.9);
      embedded.insert(memory("team", near(v, rnd), "e" + i + " again"), 0.9);
    }
    List<Memory> ms = new ArrayList<>();
    embedded.forEachMemory("team", ms::add);
    for (int r = 0; r < 20; r++) {
      RetrievalRecord rec = embedded.saveRetrieval(new RetrievalRecordDraft("team", T0, T0.plusSeconds(60),
          List.of(new io.memloop.Candidate(ms.get(rnd.nextInt(ms.size())).id(), 1, 0, 1, true, 1))));
      embedded.applyReward("team", rec.id(), T0.plusSeconds(r), (id, u) -> new Utility(u.q() + 0.5, u.visits() + 1));
    }
    embedded.saveSettings("team", Map.of("preset", "default"));
    embedded.putLedger("team", Map.of("p:t1:" + ms.get(3).id(), new double[] {1.5}, "c:" + ms.get(3).id(), new double[] {2, 0},
        "n", new double[] {4, 1, 3, 2}));
    List<Memory> before = new ArrayList<>();
    embedded.forEachMemory("team", before::add);

    SolrStore store = open(test, "shards=2&replicas=1");
    io.memloop.store.StoreCopy.Result r = io.memloop.store.StoreCopy.copy(embedded, store, "team", n -> {});
    assertThat(r.memories()).isEqualTo(60);
    assertThat(r.groups()).isEqualTo(30);
    commit();
    List<Memory> after = new ArrayList<>();
    store.forEachMemory("team", after::add);
    assertThat(after).hasSize(before.size());
    for (int i = 0; i < before.size(); i++) {
      assertThat(after.get(i)).usingRecursiveComparison().ignoringFields("id", "intentId").isEqualTo(before.get(i));
      assertThat(after.get(i).intentId().equals(after.get(i - i % 2).intentId())).isTrue(); // pairs stay grouped
    }
    assertThat(store.settings("team")).contains(Map.of("preset", "default"));
    assertThat(r.ledgerEntries()).isEqualTo(3);
    String copyOf3 = after.get(before.indexOf(before.stream().filter(m -> m.id().equals(ms.get(3).id())).findFirst().orElseThrow()))
        .id();
    assertThat(store.ledgerKeys("team")).containsExactlyInAnyOrder("p:t1:" + copyOf3, "c:" + copyOf3, "n");
    assertThat(store.ledger("team", List.of("p:t1:" + copyOf3)).get("p:t1:" + copyOf3)).containsExactly(1.5);
  }

  /** Issue 25: a collection made with one model used to answer another model's searches with nothing, silently. */
  @Test
  void aCollectionMadeWithOneModel_refusesAnotherInEveryProcess(TestInfo test) throws Exception {
    SolrStore store = open(test, "shards=1&replicas=1");
    assertThat(store.model()).isEmpty();
    MemLoop first = MemLoop.builder().store(store).embedder(model("model-a")).build();
    first.remember("team", Intent.ofText("book a flight"), "use the airline site", Outcome.SUCCESS);
    commit();
    io.memloop.EmbeddingModel a = new io.memloop.EmbeddingModel("model-a", DIM);
    assertThat(first.stats("team").model()).isEqualTo(a);

    // another process: its own store and client on the same collection
    SolrStore other = SolrStore.open(store.options(), OptionalInt.empty());
    opened.add(other);
    assertThat(other.model()).contains(a);
    assertThatThrownBy(() -> MemLoop.builder().store(other).embedder(model("model-b")).build())
        .isInstanceOfSatisfying(MemLoopException.class, e -> {
          assertThat(e.reason()).isEqualTo(MemLoopException.Reason.CONFLICT);
          assertThat(e.field()).isEqualTo("embedder");
        })
        .hasMessageContainingAll("'model-a' (16-d)", "'model-b' (16-d)", "migrate --re-embed");
    assertThat(other.recordModel(new io.memloop.EmbeddingModel("model-b", DIM))).isEqualTo(a); // never replaced
    MemLoop same = MemLoop.builder().store(other).embedder(model("model-a")).build();
    assertThat(same.retrieve("team", Intent.ofText("book a flight")).selected()).hasSize(1);
  }

  /** A deterministic model of {@code DIM}-d vectors named {@code id}: a text's vector is seeded by its hash. */
  private static io.memloop.embed.Embedder model(String id) {
    return new io.memloop.embed.Embedder() {
      @Override public int dimension() { return DIM; }
      @Override public String modelId() { return id; }
      @Override public List<float[]> embedAll(List<String> texts) {
        return texts.stream().map(t -> vector(new SplittableRandom(t.hashCode()))).toList();
      }
    };
  }

  @Test
  void anExistingCollectionKeepsItsDimension_aMissingOneIsNotFound(TestInfo test) {
    SolrStore store = open(test, "shards=1&replicas=1");
    SolrStoreOptions o = store.options();
    SolrStore other = SolrStore.open(o, OptionalInt.of(DIM + 1)); // the dimension is only for a collection made now
    opened.add(other);
    assertThat(other.dimension()).isEqualTo(DIM);
    SolrStoreOptions missing = SolrStoreOptions.parse(cluster().location("no-such-collection", ""), "--store");
    assertThatThrownBy(() -> SolrStore.open(missing, OptionalInt.empty()))
        .isInstanceOf(MemLoopException.class)
        .satisfies(e -> assertThat(((MemLoopException) e).reason()).isEqualTo(MemLoopException.Reason.NOT_FOUND))
        .hasMessageContaining("no collection no-such-collection");
    SolrStore viaHttp = SolrStore.open(SolrStoreOptions.parse(cluster().httpLocation(collection, ""), "test"), OptionalInt.empty());
    opened.add(viaHttp);
    assertThat(viaHttp.dimension()).isEqualTo(DIM);
  }

}
