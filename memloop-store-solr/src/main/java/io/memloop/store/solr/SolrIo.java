package io.memloop.store.solr;

import io.memloop.MemLoopException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.AbstractUpdateRequest;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.CursorMarkParams;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;
import org.jspecify.annotations.Nullable;

/**
 * The Solr plumbing every part of {@link SolrStore} shares: writes (a failed {@code _version_} check becomes a
 * {@link VersionConflict}, a failed connection a {@link WriteInDoubt} for the callers that can tell whether their
 * write landed, any other failure {@link MemLoopException.Reason#STORE_UNAVAILABLE}), real-time gets and
 * searches (retried when the connection failed), cursor paging, and the tolerant update chain's error list.
 *
 * <p>Thread-safe (the {@link SolrClient} is).
 */
final class SolrIo {
  static final int READ_ATTEMPTS = 3;
  /** Sends of one write when its connection fails, the first included. */
  static final int WRITE_ATTEMPTS = 3;
  /** The update chain that applies what it can and names the documents it could not. */
  static final String TOLERANT_CHAIN = "memloop-tolerant";
  private static final int PAGE = 500;

  private final SolrClient client;
  private final String collection;
  private final boolean immediate;

  SolrIo(SolrClient client, String collection, SolrStoreOptions.Visibility visibility) {
    this.client = client;
    this.collection = collection;
    this.immediate = visibility == SolrStoreOptions.Visibility.IMMEDIATE;
  }

  String collection() {
    return collection;
  }

  /** Whether searches see every write at once (each write commits). */
  boolean immediate() {
    return immediate;
  }

  NamedList<Object> write(UpdateRequest req) {
    return write(req, true);
  }

  /** Sends a write once; a connection failure is {@link MemLoopException.Reason#STORE_UNAVAILABLE}. */
  NamedList<Object> write(UpdateRequest req, boolean commitIfImmediate) {
    try {
      return send(req, commitIfImmediate);
    } catch (WriteInDoubt e) {
      throw unavailable("write", e.getCause());
    }
  }

  /**
   * Sends a write that may be applied twice with the same effect (whole documents or absolute values, no version
   * check), again up to {@value #WRITE_ATTEMPTS} times in all when the connection failed.
   */
  NamedList<Object> writeIdempotent(UpdateRequest req) {
    for (int attempt = 1; ; attempt++) {
      try {
        return send(req, true);
      } catch (WriteInDoubt e) {
        if (attempt >= WRITE_ATTEMPTS) {
          throw unavailable("write", e.getCause());
        }
      }
    }
  }

  /**
   * Sends a write once: a failed {@code _version_} check is a {@link VersionConflict}, a failed connection a
   * {@link WriteInDoubt} (the write may have been applied), any other failure {@link
   * MemLoopException.Reason#STORE_UNAVAILABLE}.
   */
  NamedList<Object> send(UpdateRequest req, boolean commitIfImmediate) {
    if (commitIfImmediate && immediate) {
      req.setAction(AbstractUpdateRequest.ACTION.COMMIT, false, true, true);
    }
    try {
      return client.request(req, collection);
    } catch (SolrException e) {
      if (e.code() == 409) {
        throw new VersionConflict(e);
      }
      throw unavailable("write", e);
    } catch (SolrServerException | IOException e) {
      Throwable c = e.getCause();
      if (c instanceof SolrException se && se.code() == 409) {
        throw new VersionConflict(se);
      }
      throw new WriteInDoubt(e);
    }
  }

  @Nullable SolrDocument realTimeGet(String docId, String fields) {
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("fl", fields);
    return read("read", () -> client.getById(collection, docId, p));
  }

  /**
   * Most ids one real-time get carries: they travel in the request's URL, which Jetty refuses past 8 KB ("414 URI Too
   * Long"); an id of a long namespace and key takes up to about 150 characters once encoded.
   */
  static final int IDS_PER_GET = 40;

  /**
   * The documents that exist among those {@code docIdOf} names for {@code keys}, by real-time get (one request per
   * {@value #IDS_PER_GET} ids), each handed to {@code found} with its key; a key it names no document for (null) is
   * skipped. {@code fields} must hold {@code id}.
   */
  <K> void realTimeGet(Collection<K> keys, Function<K, @Nullable String> docIdOf, String fields, String what,
      BiConsumer<K, SolrDocument> found) {
    Map<String, K> byDocId = new LinkedHashMap<>();
    for (K key : keys) {
      String docId = docIdOf.apply(key);
      if (docId != null) {
        byDocId.put(docId, key);
      }
    }
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("fl", fields);
    List<String> ids = List.copyOf(byDocId.keySet());
    for (int from = 0; from < ids.size(); from += IDS_PER_GET) {
      List<String> part = ids.subList(from, Math.min(ids.size(), from + IDS_PER_GET));
      for (SolrDocument d : read(what, () -> client.getById(collection, part, p))) {
        K key = byDocId.get((String) d.getFieldValue("id"));
        if (key != null) {
          found.accept(key, d);
        }
      }
    }
  }

  QueryResponse query(ModifiableSolrParams p) {
    return read("search", () -> new QueryRequest(p, SolrRequest.METHOD.POST).process(client, collection));
  }

  /** A read from Solr. */
  @FunctionalInterface
  interface SolrRead<T> {
    T run() throws SolrServerException, IOException;
  }

  /**
   * Runs a read, again up to {@value #READ_ATTEMPTS} times in all when the connection failed (the JDK's HTTP/1.1 client
   * now and then hands out a pooled connection the server side has just closed); reads have no effect to repeat.
   * A request Solr answered with an error is not retried.
   */
  <T> T read(String what, SolrRead<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.run();
      } catch (SolrServerException | IOException e) {
        if (attempt >= READ_ATTEMPTS) {
          throw unavailable(what, e);
        }
      } catch (SolrException e) {
        throw unavailable(what, e);
      }
    }
  }

  /** Every result of {@code p}, in its sort order (which must end with a unique field for the cursor). */
  void forEachResult(ModifiableSolrParams p, Consumer<SolrDocument> visitor) {
    String sort = p.get("sort");
    if (!sort.contains("id ")) {
      p.set("sort", sort + ",id asc");
    }
    p.set("rows", PAGE);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      p.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query(p);
      r.getResults().forEach(visitor);
      String next = r.getNextCursorMark();
      // a short page is the last: asking again would only confirm it with an empty one
      if (next == null || next.equals(cursor) || r.getResults().size() < PAGE) {
        return;
      }
      cursor = next;
    }
  }

  /** The ids of the documents the tolerant chain refused for a version conflict; any other refusal fails. */
  static List<String> tolerantErrors(NamedList<Object> response) {
    Object header = response.get("responseHeader");
    if (!(header instanceof NamedList<?> h) || !(h.get("errors") instanceof List<?> errors)) {
      return List.of();
    }
    List<String> ids = new ArrayList<>();
    for (Object e : errors) {
      Object id = SolrClusterAdmin.entry(e, "id");
      Object type = SolrClusterAdmin.entry(e, "type");
      Object message = SolrClusterAdmin.entry(e, "message");
      if (id == null || !"ADD".equals(String.valueOf(type)) || message == null || !message.toString().contains("version conflict")) {
        throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "store",
            "Solr rejected a utility update: " + e);
      }
      ids.add(id.toString());
    }
    return ids;
  }

  void close() {
    closeQuietly(client);
  }

  static MemLoopException unavailable(String what, Throwable e) {
    Throwable cause = e instanceof VersionConflict v ? v.getCause() : e;
    return new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "store",
        "store: Solr " + what + " failed: " + cause.getMessage(), cause);
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing: nothing useful to do
    }
  }
}
