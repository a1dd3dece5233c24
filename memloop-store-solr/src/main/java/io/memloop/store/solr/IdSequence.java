package io.memloop.store.solr;

import java.util.Map;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;

/**
 * Ids come from one counter per collection, taken in blocks: unique across processes, never reused. The counter is a
 * document outside every namespace, raised under its {@code _version_}. Thread-safe.
 */
final class IdSequence {
  private static final String SEQUENCE_ID = "_memloop!sequence";
  private static final int SEQUENCE_BLOCK = 64;
  private static final int MAX_CONFLICT_RETRIES = 1_000;

  private final SolrIo io;
  private long sequenceNext;
  private long sequenceEnd;

  IdSequence(SolrIo io) {
    this.io = io;
  }

  synchronized long next() {
    if (sequenceNext >= sequenceEnd) {
      int doubts = 0;
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = io.realTimeGet(SEQUENCE_ID, "id,next,_version_");
        long start = d == null ? 1 : ((Number) d.getFieldValue("next")).longValue();
        SolrInputDocument next = new SolrInputDocument();
        next.addField("id", SEQUENCE_ID);
        if (d == null) {
          next.addField("kind", "sequence");
          next.addField("next", start + SEQUENCE_BLOCK);
          next.addField("_version_", -1L);
        } else {
          next.addField("next", Map.of("set", start + SEQUENCE_BLOCK));
          next.addField("_version_", Fields.version(d));
        }
        UpdateRequest req = new UpdateRequest();
        req.add(next);
        try {
          io.send(req, false);
          sequenceNext = start;
          sequenceEnd = start + SEQUENCE_BLOCK;
          break;
        } catch (VersionConflict e) {
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw SolrIo.unavailable("id sequence", e);
          }
        } catch (WriteInDoubt e) {
          // landed or not, the block is not taken: the counter is read again, so a block may be skipped, never reused
          if (++doubts >= SolrIo.WRITE_ATTEMPTS) {
            throw SolrIo.unavailable("write", e.getCause());
          }
        }
      }
    }
    return sequenceNext++;
  }
}
