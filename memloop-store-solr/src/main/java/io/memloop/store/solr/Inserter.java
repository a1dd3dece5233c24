package io.memloop.store.solr;

import io.memloop.Memory;
import io.memloop.store.NewMemory;
import io.memloop.store.solr.IntentIndex.IntentHit;
import io.memloop.store.solr.RecentIntents.RecentIntent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrInputDocument;
import org.jspecify.annotations.Nullable;

/**
 * Memory writes: a memory joins the nearest intent group (or starts one) and is written with the group's new member
 * count, one memory at a time or a batch in three round trips per namespace. A group deleted between the decision and
 * the write is a version conflict, and the memory decides again without it. Thread-safe (per-namespace lock).
 */
final class Inserter {
  private final SolrIo io;
  private final Routing routing;
  private final IdSequence sequence;
  private final IntentIndex intents;
  private final RecentIntents recent;
  private final NamespaceLocks locks;
  /** Whether the schema has the listing fields (schema 2); a collection of an older build is listed by scanning. */
  private final boolean listingFields;

  Inserter(SolrIo io, Routing routing, IdSequence sequence, IntentIndex intents, RecentIntents recent,
      NamespaceLocks locks, boolean listingFields) {
    this.io = io;
    this.routing = routing;
    this.sequence = sequence;
    this.intents = intents;
    this.recent = recent;
    this.locks = locks;
    this.listingFields = listingFields;
  }

  Memory insert(NewMemory m, double mergeThreshold, @Nullable String hint, boolean hinted) {
    String ns = m.namespace();
    synchronized (locks.of(ns)) {
      Set<String> gone = new TreeSet<>();
      String intentId = hinted ? hint : intents.nearestIntent(ns, m.intentEmbedding(), mergeThreshold, gone);
      for (int attempt = 0; ; attempt++) {
        long seq = sequence.next();
        String memoryId = "m" + seq;
        UpdateRequest req = new UpdateRequest();
        String joined = intentId;
        if (joined == null) {
          long intentSeq = sequence.next();
          joined = "i" + intentSeq;
          SolrInputDocument intent = intents.intentDoc(ns, joined, intentSeq, m.intentEmbedding(), 1);
          intent.addField("_version_", -1L); // must not exist
          req.add(intent);
        } else {
          req.add(intents.membersDelta(ns, joined, 1));
        }
        req.add(memoryDoc(ns, seq, joined, m));
        try {
          writeInsert(req, routing.docId(ns, memoryId));
        } catch (VersionConflict e) {
          if (attempt >= 3 || joined == null) {
            throw SolrIo.unavailable("insert", e);
          }
          // the group was deleted after it was found: decide again without it
          gone.add(joined);
          recent.forget(ns, joined);
          intentId = intents.nearestIntent(ns, m.intentEmbedding(), mergeThreshold, gone);
          continue;
        }
        if (intentId == null) {
          recent.remember(ns, new RecentIntent(joined, Routing.seqOf(joined), m.intentEmbedding().clone(), System.nanoTime()));
        }
        return stored(ns, memoryId, joined, m);
      }
    }
  }

  /**
   * Stores {@code memories} in order as {@link #insert} would one by one, in three round trips per
   * namespace instead of two per memory: the nearest existing intent of every memory is searched concurrently, the
   * batch's own new groups are matched in memory, the member counts of the existing groups joined are raised in one
   * request (a group deleted meanwhile is reported and its memories decide again), and every new group and memory
   * is written in one more request.
   */
  List<Memory> insertAll(List<NewMemory> memories, double mergeThreshold) {
    Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
    for (int i = 0; i < memories.size(); i++) {
      byNamespace.computeIfAbsent(memories.get(i).namespace(), x -> new ArrayList<>()).add(i);
    }
    Memory[] out = new Memory[memories.size()];
    for (var e : byNamespace.entrySet()) {
      List<NewMemory> batch = e.getValue().stream().map(memories::get).toList();
      List<Memory> stored = insertBatch(e.getKey(), batch, mergeThreshold);
      for (int j = 0; j < stored.size(); j++) {
        out[e.getValue().get(j)] = stored.get(j);
      }
    }
    return List.of(out);
  }

  private List<Memory> insertBatch(String ns, List<NewMemory> batch, double threshold) {
    synchronized (locks.of(ns)) {
      // above 1 no cosine reaches the threshold: every memory starts its own group, without searching
      List<IntentHit> searched = threshold > 1 ? Collections.nCopies(batch.size(), null) : intents.searchAll(ns, batch);
      List<RecentIntent> known = recent.recent(ns);
      String[] groupOf = new String[batch.size()];
      List<RecentIntent> created = new ArrayList<>();
      Set<String> createdIds = new HashSet<>();
      Map<String, Integer> joinedExisting = new LinkedHashMap<>();
      Set<String> gone = new TreeSet<>();
      for (int round = 0; ; round++) {
        created.clear();
        createdIds.clear();
        joinedExisting.clear();
        for (int j = 0; j < batch.size(); j++) {
          float[] v = batch.get(j).intentEmbedding();
          IntentHit best = IntentIndex.best(v, searched.get(j), threshold, gone, known, created);
          if (best == null) {
            long seq = sequence.next();
            created.add(new RecentIntent("i" + seq, seq, v.clone(), System.nanoTime()));
            createdIds.add("i" + seq);
            groupOf[j] = "i" + seq;
          } else {
            if (!createdIds.contains(best.intentId())) {
              joinedExisting.merge(best.intentId(), 1, Integer::sum);
            }
            groupOf[j] = best.intentId();
          }
        }
        Set<String> failed = intents.raiseMembers(ns, joinedExisting);
        if (failed.isEmpty()) {
          break;
        }
        if (round >= 3) {
          throw SolrIo.unavailable("insert", new IllegalStateException("intent groups kept disappearing: " + failed));
        }
        // groups deleted since they were found: undo the other raises, and decide again without them
        Map<String, Integer> undo = new LinkedHashMap<>();
        joinedExisting.forEach((id, n) -> {
          if (!failed.contains(id)) {
            undo.put(id, -n);
          }
        });
        intents.raiseMembers(ns, undo);
        gone.addAll(failed);
      }
      UpdateRequest req = new UpdateRequest();
      Map<String, Integer> newMembers = new HashMap<>();
      for (String g : groupOf) {
        newMembers.merge(g, 1, Integer::sum);
      }
      for (RecentIntent r : created) {
        req.add(intents.intentDoc(ns, r.intentId(), r.seq(), r.embedding(), newMembers.get(r.intentId())));
      }
      List<Memory> out = new ArrayList<>(batch.size());
      for (int j = 0; j < batch.size(); j++) {
        NewMemory m = batch.get(j);
        long seq = sequence.next();
        out.add(stored(ns, "m" + seq, groupOf[j], m));
        req.add(memoryDoc(ns, seq, groupOf[j], m));
      }
      io.writeIdempotent(req); // whole new documents (the member counts were raised before)
      created.forEach(r -> recent.remember(ns, r));
      return out;
    }
  }

  /**
   * Sends an insert's request (its group's creation or member count, then the memory). When the connection fails the
   * memory's own document, written last, tells whether the request landed; if not it is sent again (up to {@value
   * SolrIo#WRITE_ATTEMPTS} times in all). A version conflict after a failed connection may be the request's own first
   * landing: the memory's document decides that too.
   */
  private void writeInsert(UpdateRequest req, String memoryDocId) {
    for (int attempt = 1; ; attempt++) {
      try {
        io.send(req, true);
        return;
      } catch (WriteInDoubt e) {
        if (io.realTimeGet(memoryDocId, "id") != null) {
          return;
        }
        if (attempt >= SolrIo.WRITE_ATTEMPTS) {
          throw SolrIo.unavailable("write", e.getCause());
        }
      } catch (VersionConflict e) {
        if (attempt > 1 && io.realTimeGet(memoryDocId, "id") != null) {
          return;
        }
        throw e;
      }
    }
  }

  /** The memory {@link #memoryDoc} stores, as the caller gets it back. */
  private static Memory stored(String ns, String memoryId, String intentId, NewMemory m) {
    return new Memory(memoryId, ns, intentId, m.intentText(), m.intentEmbedding().clone(), m.experience(), m.outcome(),
        m.initialQ(), 0, m.createdAt(), m.createdAt());
  }

  private SolrInputDocument memoryDoc(String ns, long seq, String intentId, NewMemory m) {
    SolrInputDocument doc = routing.doc(ns, "m" + seq, "m", seq);
    doc.addField("intent", intentId);
    doc.addField("intent_text", m.intentText());
    doc.addField("embedding", Fields.bytes(m.intentEmbedding()));
    doc.addField("experience", m.experience());
    doc.addField("outcome", m.outcome().name());
    doc.addField("created", m.createdAt().toString());
    doc.addField("q", m.initialQ());
    doc.addField("visits", 0L);
    doc.addField("updated", Fields.nanos(m.createdAt()));
    if (listingFields) {
      doc.addField("oc", m.outcome().name());
      doc.addField("created_at", Fields.nanos(m.createdAt()));
      doc.addField("words", Fields.words(m.intentText(), m.experience()));
    }
    return doc;
  }
}
