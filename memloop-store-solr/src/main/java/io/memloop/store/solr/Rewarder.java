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
import org.jspecify.annotations.Nullable;

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
    RewardOutcome lost = claim(rid, claim, token);
    if (lost != null) {
      return lost;
    }
    long mark = ThreadLocalRandom.current().nextLong(1, 1L << 32);
    List<UtilityChange> applied = writeUtilities(namespace, current, after, changes, update, now, mark);
    return new RewardOutcome.Applied(record, applied);
  }

  /**
   * Claims the retrieval with {@code claim} (carrying {@code token}); null once this call holds the claim, else what
   * the reward answers. After a failed connection the retrieval is read again: our token means the claim landed, a
   * claim without it that another reward was first, an unclaimed retrieval that it did not land (sent again).
   */
  private @Nullable RewardOutcome claim(String rid, SolrInputDocument claim, long token) {
    for (int attempt = 1; ; attempt++) {
      try {
        if (updates.write(List.of(claim)).isEmpty()) {
          return null;
        }
      } catch (WriteInDoubt e) {
        SolrDocument again = io.realTimeGet(rid, "id,rewarded,claim");
        if (again != null && longField(again, "claim") == token) {
          return null; // it landed
        }
        if (again != null && longField(again, "rewarded") == 0) {
          if (attempt >= SolrIo.WRITE_ATTEMPTS) {
            throw SolrIo.unavailable("write", e.getCause());
          }
          continue; // it did not land: the same claim, under the same version, again
        }
        return lost(again);
      }
      // another process or thread claimed it first, or this call's own claim landed before a failed connection
      SolrDocument again = io.realTimeGet(rid, "id,rewarded,claim");
      return again != null && longField(again, "claim") == token ? null : lost(again);
    }
  }

  private static RewardOutcome lost(@Nullable SolrDocument again) {
    long first = again == null ? 0 : longField(again, "rewarded");
    return first != 0 ? new RewardOutcome.AlreadyRewarded(Fields.instant(first)) : new RewardOutcome.Unknown();
  }

  /**
   * Writes the new utilities in one request, each under the version it was computed from; a memory another
   * process updated in between is read again, recomputed and written again until it goes through.
   *
   * <p>Every write also shifts {@code mark} (this reward's, random, 32 bits) into the memory's {@code claim} field,
   * which keeps the marks of the memory's last two utility writes. When a connection fails the write may have landed
   * or not: the memory read again says which (its version unchanged: not landed, sent again; our mark among the last
   * two: landed; neither: another write came first, recomputed from it). The marks are consulted only after a failed
   * connection, so an ordinary version conflict is decided as before. The one guess left: more than one other write
   * landing on the same memory between the failure and the read again (or a 1 in 2^31 mark clash) and the write is
   * taken as not landed.
   */
  private List<UtilityChange> writeUtilities(String ns, Map<String, SolrDocument> read, Map<String, Utility> after,
      List<UtilityChange> changes, UtilityUpdate update, Instant now, long mark) {
    if (after.isEmpty()) {
      return changes;
    }
    Map<String, SolrInputDocument> docs = new LinkedHashMap<>();
    for (var e : after.entrySet()) {
      SolrDocument d = read.get(e.getKey());
      docs.put(e.getKey(), utilityDoc(ns, e.getKey(), e.getValue(), now, Fields.version(d), marks(d, mark)));
    }
    Set<String> failed = new TreeSet<>();
    boolean inDoubt = false;
    try {
      for (String docId : updates.write(List.copyOf(docs.values()))) {
        failed.add(Routing.shortId(docId));
      }
    } catch (WriteInDoubt e) {
      failed.addAll(docs.keySet());
      inDoubt = true;
    }
    if (failed.isEmpty()) {
      return changes;
    }
    Map<String, UtilityChange> byId = new LinkedHashMap<>();
    changes.forEach(c -> byId.put(c.memoryId(), c));
    for (String id : failed) {
      UtilityChange sent = byId.remove(id);
      SolrInputDocument doc = docs.get(id);
      long sentVersion = Fields.version(read.get(id));
      boolean doubt = inDoubt;
      boolean everInDoubt = inDoubt;
      int doubts = inDoubt ? 1 : 0;
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = io.realTimeGet(routing.docId(ns, id), "id,q,visits,claim,_version_");
        if (d == null) {
          break; // deleted in between: nothing to update
        }
        if (everInDoubt && carries(d, mark)) {
          byId.put(id, sent); // a write that failed its connection had landed
          break;
        }
        if (!doubt || Fields.version(d) != sentVersion) { // another write came first: recompute from it
          Utility before = Fields.utility(d);
          Utility next = update.apply(id, before);
          sent = new UtilityChange(id, before.q(), next.q(), next.visits());
          sentVersion = Fields.version(d);
          doc = utilityDoc(ns, id, next, now, sentVersion, marks(d, mark));
        } // else the failed write did not land: the same write, under the same version, again
        UpdateRequest one = new UpdateRequest();
        one.add(doc);
        try {
          io.send(one, true);
          byId.put(id, sent);
          break;
        } catch (VersionConflict e) {
          doubt = false;
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw SolrIo.unavailable("reward", e);
          }
        } catch (WriteInDoubt e) {
          doubt = true;
          everInDoubt = true;
          if (++doubts >= SolrIo.WRITE_ATTEMPTS) {
            throw SolrIo.unavailable("write", e.getCause());
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

  /** The {@code claim} value a utility write by {@code mark} leaves: its mark, after the previous write's. */
  static long marks(SolrDocument d, long mark) {
    return (longField(d, "claim") << 32) | mark;
  }

  /** Whether one of the memory's last two utility writes was {@code mark}'s. */
  static boolean carries(SolrDocument d, long mark) {
    long marks = longField(d, "claim");
    return (marks & 0xFFFF_FFFFL) == mark || (marks >>> 32) == mark;
  }

  private static long longField(SolrDocument d, String field) {
    return d.getFieldValue(field) instanceof Number n ? n.longValue() : 0;
  }

  private SolrInputDocument utilityDoc(String ns, String memoryId, Utility u, Instant now, long version, long marks) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", routing.docId(ns, memoryId));
    d.addField("q", Map.of("set", u.q()));
    d.addField("visits", Map.of("set", u.visits()));
    d.addField("updated", Map.of("set", Fields.nanos(now)));
    d.addField("claim", Map.of("set", marks));
    d.addField("_version_", version);
    return d;
  }

  /** One request carrying version-checked updates of many callers ({@link UpdateBatcher}); returns the conflicts. */
  private Set<String> sendBatch(List<SolrInputDocument> docs) {
    UpdateRequest req = new UpdateRequest();
    req.add(docs);
    req.setParam("update.chain", SolrIo.TOLERANT_CHAIN);
    return new HashSet<>(SolrIo.tolerantErrors(io.send(req, true)));
  }

  private Map<String, SolrDocument> memoriesById(String ns, List<String> ids) {
    Map<String, SolrDocument> out = new HashMap<>();
    io.realTimeGet(ids, id -> routing.memoryDocId(ns, id), "id,q,visits,claim,_version_", "read", out::put);
    return out;
  }

}
