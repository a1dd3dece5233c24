package io.memloop.store.solr;

import io.memloop.MemLoopException;
import io.memloop.store.Annotations;
import io.memloop.store.MemoryStore;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.util.NamedList;

/**
 * Memories' annotations ({@link MemoryStore#annotate}): the stored field {@code ann} of each memory's document (the
 * base64 of {@link Annotations#toBytes()}, absent when it has none), so a delete takes them along. Read by real-time
 * get; written by one atomic update per memory under {@code _version_} 1 ("must exist": a deleted memory is not
 * brought back), all in one request through the tolerant chain, whose refusals of memories that do not exist are
 * skipped. A
 * collection of schema 1 or 2 has no {@code ann} field: it holds no annotations and refuses to store any. Thread-safe.
 */
final class MemoryAnnotations {
  private final SolrIo io;
  private final Routing routing;
  /** Whether the collection's schema has {@code ann} (schema 3). */
  private final boolean supported;

  MemoryAnnotations(SolrIo io, Routing routing, boolean supported) {
    this.io = io;
    this.routing = routing;
    this.supported = supported;
  }

  Map<String, Annotations> read(String namespace, Collection<String> memoryIds) {
    Map<String, Annotations> out = new HashMap<>();
    if (supported) {
      io.realTimeGet(memoryIds, id -> routing.memoryDocId(namespace, id), "id,ann", "annotations", (id, d) -> {
        Object ann = d.getFieldValue("ann");
        if (ann != null) {
          out.put(id, Payloads.annotations((String) ann));
        }
      });
    }
    return out;
  }

  void annotate(String namespace, Map<String, Annotations> byMemoryId) {
    UpdateRequest req = new UpdateRequest();
    for (Map.Entry<String, Annotations> e : byMemoryId.entrySet()) {
      Annotations a = Objects.requireNonNull(e.getValue(), () -> "annotations of '" + e.getKey() + "'");
      if (MemoryStore.sequenceOf(e.getKey()) < 0) {
        continue; // not a memory id: no such memory
      }
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", routing.docId(namespace, e.getKey()));
      // set to null removes the field
      d.addField("ann", Collections.singletonMap("set", a.isEmpty() ? null : Payloads.annotations(a)));
      d.addField("_version_", 1L); // must exist: a deleted memory is not brought back
      req.add(d);
    }
    if (req.getDocuments() == null || req.getDocuments().isEmpty()) {
      return;
    }
    if (!supported) {
      throw new MemLoopException(MemLoopException.Reason.CONFLICT, "annotations", "collection " + io.collection()
          + " was created by an older build (its schema has no 'ann' field), so it keeps no memory annotations; copy its"
          + " namespaces into a new collection (memloop migrate --from OLD --to NEW --all) to keep them");
    }
    req.setParam("update.chain", SolrIo.TOLERANT_CHAIN);
    skipMissing(io.write(req));
  }

  /** The tolerant chain's refusals: memories that do not exist are skipped; anything else fails. */
  private static void skipMissing(NamedList<Object> response) {
    Object header = response.get("responseHeader");
    if (!(header instanceof NamedList<?> h) || !(h.get("errors") instanceof List<?> errors)) {
      return;
    }
    for (Object e : errors) {
      Object message = SolrClusterAdmin.entry(e, "message");
      String m = message == null ? "" : message.toString();
      if (!m.contains("Document not found for update") && !m.contains("version conflict")) {
        throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "store",
            "Solr rejected an annotations update: " + e);
      }
    }
  }
}
