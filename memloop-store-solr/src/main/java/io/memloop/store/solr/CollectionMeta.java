package io.memloop.store.solr;

import io.memloop.EmbeddingModel;
import io.memloop.MemLoopException;
import java.util.Optional;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.jspecify.annotations.Nullable;

/**
 * The collection's records of itself, each a document outside every namespace, created only if absent ({@code
 * _version_ = -1}) so that of two processes the first wins: the meta document (dimension and routing bits) and the
 * embedding model. Thread-safe.
 */
final class CollectionMeta {
  private static final String META_ID = "_memloop!meta";
  /** The document recording the embedding model: {@code payload} its id, {@code dimension} its dimension. */
  private static final String MODEL_ID = "_memloop!model";

  private final SolrIo io;
  /** The recorded model once read (a recorded model is never replaced, so it is read from Solr until found). */
  private volatile @Nullable EmbeddingModel model;

  CollectionMeta(SolrIo io) {
    this.io = io;
  }

  /**
   * Reads the collection's record of itself (writing it first for a new collection): checks the dimension and returns
   * the routing bits.
   */
  static int check(SolrIo io, SolrStoreOptions options, int expected) {
    SolrDocument meta = io.realTimeGet(META_ID, "id,dimension,tenant_bits");
    if (meta == null) {
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", META_ID);
      d.addField("kind", "meta");
      d.addField("dimension", expected);
      d.addField("tenant_bits", options.tenantBits());
      d.addField("_version_", -1L);
      UpdateRequest req = new UpdateRequest();
      req.add(d);
      try {
        createIfAbsent(io, req);
        return options.tenantBits();
      } catch (VersionConflict e) {
        meta = io.realTimeGet(META_ID, "id,dimension,tenant_bits"); // another process wrote it first
      }
    }
    int actual = meta == null ? expected : ((Number) meta.getFieldValue("dimension")).intValue();
    Object bits = meta == null ? null : meta.getFieldValue("tenant_bits");
    int tenantBits = bits == null ? 16 : ((Number) bits).intValue();
    if (actual != expected) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "--store",
          "--store: collection " + io.collection() + " records " + actual + "-d memories but its schema holds " + expected + "-d vectors");
    }
    return tenantBits;
  }

  /**
   * Writes a document created only if absent, sent again when the connection failed (up to {@value
   * SolrIo#WRITE_ATTEMPTS} times in all): if the first send landed, the next is a version conflict, and the caller reads
   * the document, as it does when another process wrote it first.
   */
  private static void createIfAbsent(SolrIo io, UpdateRequest req) {
    for (int attempt = 1; ; attempt++) {
      try {
        io.send(req, true);
        return;
      } catch (WriteInDoubt e) {
        if (attempt >= SolrIo.WRITE_ATTEMPTS) {
          throw SolrIo.unavailable("write", e.getCause());
        }
      }
    }
  }

  Optional<EmbeddingModel> model() {
    EmbeddingModel known = model;
    if (known != null) {
      return Optional.of(known);
    }
    SolrDocument d = io.realTimeGet(MODEL_ID, "id,payload,dimension");
    if (d == null) {
      return Optional.empty();
    }
    Object id = d.getFieldValue("payload");
    Object dim = d.getFieldValue("dimension");
    try {
      known = new EmbeddingModel(id instanceof String text ? text : "", dim instanceof Number n ? n.intValue() : 0);
    } catch (MemLoopException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "--store",
          "--store: collection " + io.collection() + " records an unreadable embedding model (" + e.getMessage() + ")", e);
    }
    model = known;
    return Optional.of(known);
  }

  /**
   * Records the model in a document of its own, created only if absent ({@code _version_ = -1}): of two processes
   * recording at once, the first wins and the other answers with its model.
   */
  EmbeddingModel recordModel(EmbeddingModel m) {
    Optional<EmbeddingModel> recorded = model();
    if (recorded.isPresent()) {
      return recorded.get();
    }
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", MODEL_ID);
    d.addField("kind", "model");
    d.addField("payload", m.id());
    d.addField("dimension", m.dimension());
    d.addField("_version_", -1L);
    UpdateRequest req = new UpdateRequest();
    req.add(d);
    try {
      createIfAbsent(io, req);
    } catch (VersionConflict e) {
      return model().orElseThrow(() -> SolrIo.unavailable("model", e)); // another process recorded one first
    }
    model = m;
    return m;
  }
}
