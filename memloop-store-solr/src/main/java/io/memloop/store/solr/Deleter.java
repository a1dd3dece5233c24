package io.memloop.store.solr;

import io.memloop.store.MemoryStore;
import java.util.Optional;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * Deletes and eviction: a memory is deleted under its version, then its group loses a member and goes with its last
 * one; the eviction candidate is the namespace's memory of lowest Q, then fewest visits, then oldest. Thread-safe
 * (deletes take the namespace's lock).
 */
final class Deleter {
  private static final int MAX_CONFLICT_RETRIES = 1_000;

  private final SolrIo io;
  private final Routing routing;
  private final IntentIndex intents;
  private final RecentIntents recent;
  private final NamespaceLocks locks;

  Deleter(SolrIo io, Routing routing, IntentIndex intents, RecentIntents recent, NamespaceLocks locks) {
    this.io = io;
    this.routing = routing;
    this.intents = intents;
    this.recent = recent;
    this.locks = locks;
  }

  boolean delete(String namespace, String memoryId) {
    if (MemoryStore.sequenceOf(memoryId) < 0) {
      return false;
    }
    synchronized (locks.of(namespace)) {
      String id = routing.docId(namespace, memoryId);
      String intentId;
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = io.realTimeGet(id, "id,intent,_version_");
        if (d == null) {
          return false;
        }
        intentId = (String) d.getFieldValue("intent");
        UpdateRequest req = new UpdateRequest();
        req.deleteById(id, Fields.version(d));
        try {
          io.write(req);
          break;
        } catch (VersionConflict e) { // rewarded in between: read it again
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw SolrIo.unavailable("delete", e);
          }
        }
      }
      // one member fewer; the group goes with its last memory, unless a memory joins it in between
      String groupId = routing.docId(namespace, intentId);
      UpdateRequest dec = new UpdateRequest();
      dec.add(intents.membersDelta(namespace, intentId, -1));
      try {
        io.write(dec);
        SolrDocument group = io.realTimeGet(groupId, "id,members,_version_");
        if (group != null && ((Number) group.getFieldValue("members")).longValue() <= 0) {
          UpdateRequest drop = new UpdateRequest();
          drop.deleteById(groupId, Fields.version(group));
          io.write(drop);
          recent.forget(namespace, intentId);
        }
      } catch (VersionConflict e) {
        // the group is already gone, or a memory joined it after the count was read: it stays
      }
      return true;
    }
  }

  /** The memory of {@code namespace} to evict first, other than {@code keepId}: lowest Q, then fewest visits, then oldest. */
  Optional<String> evictionCandidate(String namespace, String keepId) {
    ModifiableSolrParams p = routing.namespaceQuery(namespace, "m");
    p.add("fq", "-{!term f=id}" + routing.docId(namespace, keepId));
    p.set("fl", "id");
    p.set("sort", "q asc,visits asc,seq asc"); // io.memloop.policy.Eviction, as a Solr sort (it runs on the server)
    p.set("rows", 1);
    SolrDocumentList r = io.query(p).getResults();
    return r.isEmpty() ? Optional.empty() : Optional.of(Routing.shortId((String) r.getFirst().getFieldValue("id")));
  }
}
