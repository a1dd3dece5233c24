package io.memloop.store.solr;

import io.memloop.Vectors;
import io.memloop.policy.Grouping;
import io.memloop.policy.Recall;
import io.memloop.store.NewMemory;
import io.memloop.store.solr.RecentIntents.RecentIntent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.jspecify.annotations.Nullable;

/**
 * Intent groups: their documents (vector and member count), Phase A's kNN search over them, and the group a new
 * memory joins (the nearest at cosine ≥ the merge threshold among the searched and this process's recent groups).
 * Thread-safe.
 */
final class IntentIndex {
  /** A group found for an embedding, with its cosine similarity. */
  record IntentHit(String intentId, long seq, double similarity) {}

  private final SolrIo io;
  private final Routing routing;
  private final RecentIntents recent;

  IntentIndex(SolrIo io, Routing routing, RecentIntents recent) {
    this.io = io;
    this.routing = routing;
    this.recent = recent;
  }

  /** The {@code k} intents of {@code ns} most similar to {@code query}, most similar first, ties by age. */
  List<IntentHit> searchIntents(String ns, float[] query, int k) {
    // HNSW searches as wide as topK: ask for more than k, as the embedded store does, or the nearest is often missed
    int candidates = Math.max(3 * k, k + 35);
    ModifiableSolrParams p = routing.namespaceQuery(ns, "i");
    p.set("q", "{!knn f=vector topK=" + candidates + "}" + Fields.vectorLiteral(query));
    p.set("fl", "id,seq,score");
    p.set("rows", candidates);
    QueryResponse r = io.query(p);
    List<IntentHit> hits = new ArrayList<>(r.getResults().size());
    for (SolrDocument d : r.getResults()) {
      // Lucene scores cosine as (1 + cos) / 2
      double cos = 2.0 * ((Number) d.getFieldValue("score")).doubleValue() - 1.0;
      String id = Routing.shortId((String) d.getFieldValue("id"));
      hits.add(new IntentHit(id, ((Number) d.getFieldValue("seq")).longValue(), Math.max(-1, Math.min(1, cos))));
    }
    hits.sort((a, b) -> Recall.compare(a.similarity(), a.seq(), b.similarity(), b.seq())); // the recall order, stated in core
    return hits.size() > k ? List.copyOf(hits.subList(0, k)) : hits;
  }

  /** The nearest existing intent of each memory's embedding (null where the namespace has none), searched concurrently. */
  List<IntentHit> searchAll(String ns, List<NewMemory> batch) {
    List<Callable<IntentHit>> tasks = new ArrayList<>(batch.size());
    for (NewMemory m : batch) {
      tasks.add(() -> {
        List<IntentHit> hits = searchIntents(ns, m.intentEmbedding(), 1);
        return hits.isEmpty() ? null : hits.getFirst();
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(8, batch.size()));
    try {
      List<IntentHit> out = new ArrayList<>(batch.size());
      for (var f : pool.invokeAll(tasks)) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw SolrIo.unavailable("search", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : SolrIo.unavailable("search", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** The most similar intent of {@code ns} with cosine ≥ {@code threshold}, searched and just created, or null. */
  @Nullable String nearestIntent(String ns, float[] embedding, double threshold, Set<String> excluded) {
    if (threshold > 1) {
      return null; // no cosine reaches it: a new group, without searching
    }
    IntentHit searched = searchIntents(ns, embedding, 1 + excluded.size()).stream()
        .filter(h -> !excluded.contains(h.intentId)).findFirst().orElse(null);
    IntentHit best = best(embedding, searched, threshold, excluded, recent.recent(ns));
    return best == null ? null : best.intentId;
  }

  /**
   * The intent {@code embedding} joins: the most similar at cosine ≥ {@code threshold} among {@code searched} (the
   * search's nearest, or null) and the groups in {@code pools} (created here, maybe not searchable yet), ties to the
   * older; none of {@code excluded}. Null if none qualifies.
   */
  @SafeVarargs
  static @Nullable IntentHit best(float[] embedding, @Nullable IntentHit searched, double threshold,
      Set<String> excluded, List<RecentIntent>... pools) {
    IntentHit best = searched != null && Grouping.qualifies(searched.similarity, threshold) && !excluded.contains(searched.intentId)
        ? searched : null;
    for (List<RecentIntent> pool : pools) {
      for (RecentIntent r : pool) {
        double sim = Vectors.dot(embedding, r.embedding());
        if (!excluded.contains(r.intentId()) && Grouping.qualifies(sim, threshold)
            && (best == null || Grouping.prefers(sim, r.seq(), best.similarity, best.seq))) {
          best = new IntentHit(r.intentId(), r.seq(), sim);
        }
      }
    }
    return best;
  }

  /** Adds {@code delta} members to each existing group in one request; returns the groups that no longer exist. */
  Set<String> raiseMembers(String ns, Map<String, Integer> delta) {
    if (delta.isEmpty()) {
      return Set.of();
    }
    UpdateRequest req = new UpdateRequest();
    delta.forEach((id, n) -> req.add(membersDelta(ns, id, n)));
    req.setParam("update.chain", SolrIo.TOLERANT_CHAIN);
    Set<String> failed = new TreeSet<>();
    for (String id : SolrIo.tolerantErrors(io.write(req, false))) {
      failed.add(Routing.shortId(id));
    }
    return failed;
  }

  /** An in-place change of a group's member count; fails (version conflict) if the group no longer exists. */
  SolrInputDocument membersDelta(String ns, String intentId, int delta) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", routing.docId(ns, intentId));
    d.addField("members", Map.of("inc", delta));
    d.addField("_version_", 1L); // must exist: a deleted group is not brought back by this update
    return d;
  }

  SolrInputDocument intentDoc(String ns, String intentId, long seq, float[] embedding, int members) {
    SolrInputDocument d = routing.doc(ns, intentId, "i", seq);
    d.addField("vector", Fields.floats(embedding));
    d.addField("members", members);
    return d;
  }
}
