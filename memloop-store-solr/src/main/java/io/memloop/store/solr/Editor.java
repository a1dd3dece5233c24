package io.memloop.store.solr;

import io.memloop.Memory;
import io.memloop.store.MemoryStore;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/** Edits of a memory's experience, as atomic updates under the document's version. Thread-safe. */
final class Editor {
  private static final int MAX_CONFLICT_RETRIES = 1_000;

  private final SolrIo io;
  private final Routing routing;
  private final MemoryReader reader;
  /** Whether the schema has the listing fields (schema 2), whose words follow the experience. */
  private final boolean listingFields;

  Editor(SolrIo io, Routing routing, MemoryReader reader, boolean listingFields) {
    this.io = io;
    this.routing = routing;
    this.reader = reader;
    this.listingFields = listingFields;
  }

  /**
   * An atomic update of the memory's document under its version (the experience, its words and updated-at; Q,
   * visits and the rest are kept from the document); a reward in between is a version conflict, read again.
   */
  Optional<Memory> updateExperience(String namespace, String memoryId, String experience, Instant now) {
    if (MemoryStore.sequenceOf(memoryId) < 0) {
      return Optional.empty();
    }
    String id = routing.docId(namespace, memoryId);
    int doubts = 0;
    for (int attempt = 0; ; attempt++) {
      SolrDocument d = io.realTimeGet(id, "id,intent_text,_version_");
      if (d == null) {
        return Optional.empty();
      }
      SolrInputDocument u = new SolrInputDocument();
      u.addField("id", id);
      u.addField("experience", Map.of("set", experience));
      u.addField("updated", Map.of("set", Fields.nanos(now)));
      if (listingFields) {
        u.addField("words", Map.of("set", Fields.words((String) d.getFieldValue("intent_text"), experience)));
      }
      u.addField("_version_", Fields.version(d));
      UpdateRequest req = new UpdateRequest();
      req.add(u);
      try {
        io.send(req, true);
        break;
      } catch (VersionConflict e) { // rewarded or deleted in between: read it again
        if (attempt >= MAX_CONFLICT_RETRIES) {
          throw SolrIo.unavailable("edit", e);
        }
      } catch (WriteInDoubt e) { // landed or not, writing the same values again under the version read is safe
        if (++doubts >= SolrIo.WRITE_ATTEMPTS) {
          throw SolrIo.unavailable("write", e.getCause());
        }
      }
    }
    return reader.get(namespace, memoryId);
  }
}
