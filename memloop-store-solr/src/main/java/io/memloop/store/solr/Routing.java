package io.memloop.store.solr;

import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.jspecify.annotations.Nullable;

/**
 * Where a namespace's documents live: their compositeId ({@code namespace!id}), so that a namespace's documents share
 * a shard and its searches are routed there and filtered by tenant. Immutable.
 */
final class Routing {
  /** Bits of a document's hash taken from its namespace (16: one shard per namespace), as the collection records. */
  private final int tenantBits;

  Routing(int tenantBits) {
    this.tenantBits = tenantBits;
  }

  /** A document's compositeId: the namespace's routing prefix, then the store's own id. */
  String docId(String ns, String shortId) {
    return route(ns) + shortId;
  }

  /** The document of memory {@code memoryId} of {@code ns}; null when the id names no memory (not one a store makes). */
  @Nullable String memoryDocId(String ns, String memoryId) {
    return io.memloop.store.MemoryStore.sequenceOf(memoryId) >= 0 ? docId(ns, memoryId) : null;
  }

  /**
   * The routing prefix of a namespace's documents: {@code ns!} keeps all of them on one shard; {@code ns/B!} (a
   * collection created with {@code tenantBits=B} below 16) spreads a large namespace over 2^(16 − B) times as much of
   * the hash range, and its searches go to every shard it covers.
   */
  String route(String ns) {
    return tenantBits >= 16 ? ns + "!" : ns + "/" + tenantBits + "!";
  }

  /** A new document of {@code ns} with its id, kind, tenant and (when positive) sequence. */
  SolrInputDocument doc(String ns, String shortId, String kind, long seq) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", docId(ns, shortId));
    d.addField("kind", kind);
    d.addField("tenant", ns);
    if (seq > 0) {
      d.addField("seq", seq);
    }
    return d;
  }

  /** A query over one namespace's documents (of {@code kind}, or all), routed to the namespace's shard. */
  ModifiableSolrParams namespaceQuery(String ns, @Nullable String kind) {
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("q", "*:*");
    p.add("fq", "{!term f=tenant}" + ns);
    if (kind != null) {
      p.add("fq", "{!term f=kind}" + kind);
    }
    p.set("_route_", route(ns));
    return p;
  }

  static String shortId(String docId) {
    return docId.substring(docId.lastIndexOf('!') + 1);
  }

  static long seqOf(String shortId) {
    return Long.parseLong(shortId.substring(1));
  }
}
