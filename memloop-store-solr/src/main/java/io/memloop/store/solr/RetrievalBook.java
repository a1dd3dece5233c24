package io.memloop.store.solr;

import io.memloop.MemLoopException;
import io.memloop.store.MemoryStore;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * Saved retrievals: one document each ({@code r<seq>}), the record in {@code payload}, with its expiry and the reward
 * claim fields ({@code rewarded} 0 and {@code claim} 0 until a reward claims it). Thread-safe.
 */
final class RetrievalBook {
  private final SolrIo io;
  private final Routing routing;
  private final IdSequence sequence;

  /** Lucene's cap on a docValues value, which the payload field of schema 1 and 2 has. */
  static final int MAX_DOC_VALUE_BYTES = 32_766;

  private final boolean cappedPayload;

  /** @param cappedPayload whether the collection's payload field keeps docValues (schema 1 and 2) */
  RetrievalBook(SolrIo io, Routing routing, IdSequence sequence, boolean cappedPayload) {
    this.io = io;
    this.routing = routing;
    this.sequence = sequence;
    this.cappedPayload = cappedPayload;
  }

  RetrievalRecord save(RetrievalRecordDraft draft) {
    long seq = sequence.next();
    RetrievalRecord record = draft.withId("r" + seq);
    String payload = Payloads.retrieval(record);
    if (cappedPayload && payload.length() > MAX_DOC_VALUE_BYTES / 3) {
      int bytes = payload.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > MAX_DOC_VALUE_BYTES) {
        throw MemLoopException.invalid("annotations", "the retrieval record is " + bytes + " bytes stored ("
            + record.annotations().encodedBytes() + " of annotations); collection " + io.collection()
            + " was created by an older build and stores at most " + MAX_DOC_VALUE_BYTES + " (copy its namespaces into a"
            + " new collection with memloop migrate --from OLD --to NEW --all to lift that)");
      }
    }
    SolrInputDocument d = routing.doc(draft.namespace(), record.id(), "r", seq);
    d.addField("payload", payload);
    d.addField("expires", Fields.nanos(record.expiresAt()));
    d.addField("rewarded", 0L);
    d.addField("claim", 0L);
    UpdateRequest req = new UpdateRequest();
    req.add(d);
    io.writeIdempotent(req); // a new document nobody else knows yet: written twice, it is the same
    return record;
  }

  Optional<RetrievalRecord> get(String namespace, String retrievalId) {
    if (MemoryStore.sequenceOf(retrievalId, 'r') < 0) {
      return Optional.empty();
    }
    SolrDocument r = io.realTimeGet(routing.docId(namespace, retrievalId), "id,payload");
    if (r == null || r.getFieldValue("payload") == null) {
      return Optional.empty();
    }
    return Optional.of(Payloads.retrieval(retrievalId, namespace, (String) r.getFieldValue("payload")));
  }
}
