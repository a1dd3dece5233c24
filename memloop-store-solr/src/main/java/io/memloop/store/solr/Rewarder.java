package io.memloop.store.solr;

import io.memloop.Utility;
import io.memloop.UtilityChange;
import io.memloop.store.MemoryStore;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RewardOutcome;
import io.memloop.store.UtilityUpdate;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * Rewards, in two steps: the retrieval is claimed (exactly once across all processes, by its version), then its
 * memories' utilities are written in one request, each under its own version; those that lost a race with another
 * process's update are read again, recomputed and retried. Claims and utility writes of concurrent rewards share
 * requests through an {@link UpdateBatcher}. Thread-safe.
 */
final class Rewarder {
  private static final int MAX_CONFLICT_RETRIES = 1_000;

  private final SolrIo io;
  private final Routing routing;
  private final UpdateBatcher updates = new UpdateBatcher(this::sendBatch);

  Rewarder(SolrIo io, Routing routing) {
    this.io = io;
    this.routing = routing;
  }

  RewardOutcome applyReward(String namespace, String retrievalId, Instant now, UtilityUpdate update) {
    if (MemoryStore.sequenceOf(retrievalId, 'r') < 0) {
      return new RewardOutcome.Unknown();
    }
    String rid = routing.docId(namespace, retrievalId);
    SolrDocument r = io.realTimeGet(rid, "id,payload,rewarded,_version_");
    if (r == null || r.getFieldValue("payload") == null) {
      return new RewardOutcome.Unknown();
    }
    long rewarded = ((Number) r.getFieldValue("rewarded")).longValue();
    if (rewarded != 0) {
      return new RewardOutcome.AlreadyRewarded(Fields.instant(rewarded));
    }
    RetrievalRecord record = Payloads.retrieval(retrievalId, namespace, (String) r.getFieldValue("payload"));
    if (now.isAfter(record.expiresAt())) {
      return new RewardOutcome.Expired(record.expiresAt());
    }
    update.check(record);
    List<String> selected = new ArrayList<>(new LinkedHashSet<>(record.selectedIds()));
    // compute every new utility before anything changes: a rule that throws leaves all as it was
    Map<String, SolrDocument> current = memoriesById(namespace, selected);
    Map<String, Utility> after = new LinkedHashMap<>();
    List<UtilityChange> changes = new ArrayList<>();
    for (String id : selected) {
      SolrDocument d = current.get(id);
      if (d != null) {
        Utility before = Fields.utility(d);
        Utility next = update.apply(id, before);
        after.put(id, next);
        changes.add(new UtilityChange(id, before.q(), next.q(), next.visits()));
      }
    }
    // claim: exactly once across every process sharing the collection
    long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    SolrInputDocument claim = new SolrInputDocument();
    claim.addField("id", rid);
    long at = Fields.nanos(now);
    claim.addField("rewarded", Map.of("set", at == 0 ? 1L : at)); // 0 means "not rewarded"
    claim.addField("claim", Map.of("set", token));
    claim.addField("_version_", Fields.version(r));
    if (!updates.write(List.of(claim)).isEmpty()) { // another process or thread claimed it first
      SolrDocument again = io.realTimeGet(rid, "id,rewarded");
      long first = again == null ? 0 : ((Number) again.getFieldValue("rewarded")).longValue();
      return first != 0 ? new RewardOutcome.AlreadyRewarded(Fields.instant(first)) : new RewardOutcome.Unknown();
    }
    List<UtilityChange> applied = writeUtilities(namespace, current, after, changes, update, now);
    return new RewardOutcome.Applied(record, applied);
  }

  /**
   * Writes the new utilities in one request, each under the version it was computed from; a memory another
   * process updated in between is read again, recomputed and written again until it goes through.
   */
  private List<UtilityChange> writeUtilities(String ns, Map<String, SolrDocument> read, Map<String, Utility> after,
      List<UtilityChange> changes, UtilityUpdate update, Instant now) {
    if (after.isEmpty()) {
      return changes;
    }
    List<SolrInputDocument> docs = new ArrayList<>();
    for (var e : after.entrySet()) {
      docs.add(utilityDoc(ns, e.getKey(), e.getValue(), now, Fields.version(read.get(e.getKey()))));
    }
    Set<String> failed = new TreeSet<>();
    for (String docId : updates.write(docs)) {
      failed.add(Routing.shortId(docId));
    }
    if (failed.isEmpty()) {
      return changes;
    }
    Map<String, UtilityChange> byId = new LinkedHashMap<>();
    changes.forEach(c -> byId.put(c.memoryId(), c));
    for (String id : failed) {
      byId.remove(id);
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = io.realTimeGet(routing.docId(ns, id), "id,q,visits,_version_");
        if (d == null) {
          break; // deleted in between: nothing to update
        }
        Utility before = Fields.utility(d);
        Utility next = update.apply(id, before);
        UpdateRequest one = new UpdateRequest();
        one.add(utilityDoc(ns, id, next, now, Fields.version(d)));
        try {
          io.write(one);
          byId.put(id, new UtilityChange(id, before.q(), next.q(), next.visits()));
          break;
        } catch (VersionConflict e) {
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw SolrIo.unavailable("reward", e);
          }
        }
      }
    }
    List<UtilityChange> out = new ArrayList<>();
    for (UtilityChange c : changes) { // in selection order
      UtilityChange applied = byId.get(c.memoryId());
      if (applied != null) {
        out.add(applied);
      }
    }
    return out;
  }

  private SolrInputDocument utilityDoc(String ns, String memoryId, Utility u, Instant now, long version) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", routing.docId(ns, memoryId));
    d.addField("q", Map.of("set", u.q()));
    d.addField("visits", Map.of("set", u.visits()));
    d.addField("updated", Map.of("set", Fields.nanos(now)));
    d.addField("_version_", version);
    return d;
  }

  /** One request carrying version-checked updates of many callers ({@link UpdateBatcher}); returns the conflicts. */
  private Set<String> sendBatch(List<SolrInputDocument> docs) {
    UpdateRequest req = new UpdateRequest();
    req.add(docs);
    req.setParam("update.chain", SolrIo.TOLERANT_CHAIN);
    return new HashSet<>(SolrIo.tolerantErrors(io.write(req, true)));
  }

  private Map<String, SolrDocument> memoriesById(String ns, List<String> ids) {
    Map<String, SolrDocument> out = new HashMap<>();
    if (ids.isEmpty()) {
      return out;
    }
    List<String> docIds = new ArrayList<>(ids.size());
    for (String id : ids) {
      if (MemoryStore.sequenceOf(id) >= 0) {
        docIds.add(routing.docId(ns, id));
      }
    }
    if (docIds.isEmpty()) {
      return out;
    }
    for (SolrDocument d : io.realTimeGet(docIds, "id,q,visits,_version_", "read")) {
      out.put(Routing.shortId((String) d.getFieldValue("id")), d);
    }
    return out;
  }
}
