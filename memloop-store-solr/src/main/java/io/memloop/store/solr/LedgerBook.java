package io.memloop.store.solr;

import io.memloop.store.MemoryStore;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.ModifiableSolrParams;

/**
 * A namespace's settings (one document, {@code s}) and its ledger (one document per key, {@code l<encoded key>}, kind
 * {@code l}), each value in {@code payload}; written as absolute values, read by real-time get. The ledger's keys are
 * listed by a search over the namespace's {@code l} documents (near-real-time, as every search of the store), each
 * key decoded from its document's id. Thread-safe.
 */
final class LedgerBook {
  private final SolrIo io;
  private final Routing routing;

  LedgerBook(SolrIo io, Routing routing) {
    this.io = io;
    this.routing = routing;
  }

  Optional<Map<String, String>> settings(String namespace) {
    SolrDocument d = io.realTimeGet(routing.docId(namespace, "s"), "id,payload");
    return d == null ? Optional.empty() : Optional.of(Payloads.settings((String) d.getFieldValue("payload")));
  }

  void saveSettings(String namespace, Map<String, String> settings) {
    SolrInputDocument d = routing.doc(namespace, "s", "s", 0);
    d.addField("payload", Payloads.settings(settings));
    UpdateRequest req = new UpdateRequest();
    req.add(d);
    io.writeIdempotent(req); // absolute values
  }

  Map<String, double[]> ledger(String namespace, Collection<String> keys) {
    Map<String, double[]> out = new HashMap<>();
    io.realTimeGet(keys, k -> ledgerId(namespace, k), "id,payload", "ledger",
        (k, d) -> out.put(k, Payloads.numbers((String) d.getFieldValue("payload"))));
    return out;
  }

  void putLedger(String namespace, Map<String, double[]> values) {
    if (values.isEmpty()) {
      return;
    }
    values.forEach(MemoryStore::requireLedgerValue); // checked before anything is sent: all or nothing
    UpdateRequest req = new UpdateRequest();
    for (var e : values.entrySet()) {
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", ledgerId(namespace, e.getKey()));
      d.addField("kind", "l");
      d.addField("tenant", namespace);
      d.addField("payload", Payloads.numbers(e.getValue()));
      req.add(d);
    }
    io.writeIdempotent(req); // absolute values
  }

  /**
   * Every key of the namespace's ledger: its {@code l} documents, paged by cursor in id order, each key decoded from
   * the document's id. A search: it sees a write once the collection's searcher does (at once with {@code
   * visibility=immediate}, whose writes commit).
   */
  Set<String> ledgerKeys(String namespace) {
    ModifiableSolrParams p = routing.namespaceQuery(namespace, "l");
    p.set("fl", "id");
    p.set("sort", "id asc");
    String prefix = routing.docId(namespace, "l");
    Set<String> out = new HashSet<>();
    io.forEachResult(p, d -> {
      String id = (String) d.getFieldValue("id");
      if (id.startsWith(prefix)) {
        out.add(URLDecoder.decode(id.substring(prefix.length()), StandardCharsets.UTF_8));
      }
    });
    return out;
  }

  /**
   * Deletes the keys' documents by id in one request, sent as {@link #putLedger} sends its writes (again when the
   * connection failed: deleting twice is deleting once; committed with {@code visibility=immediate}). Deleting a
   * document that does not exist does nothing.
   */
  void deleteLedger(String namespace, Collection<String> keys) {
    Set<String> ids = new LinkedHashSet<>();
    for (String k : keys) {
      ids.add(ledgerId(namespace, k));
    }
    if (ids.isEmpty()) {
      return;
    }
    UpdateRequest req = new UpdateRequest();
    req.deleteById(new ArrayList<>(ids));
    io.writeIdempotent(req);
  }

  private String ledgerId(String ns, String key) {
    // '!' would make the key a routing prefix: encode it (and everything else unusual); ledgerKeys decodes it
    return routing.docId(ns, "l" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("!", "%21"));
  }
}
