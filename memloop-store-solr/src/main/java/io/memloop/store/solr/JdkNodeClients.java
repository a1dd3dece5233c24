package io.memloop.store.solr;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.HttpJdkSolrClient;
import org.apache.solr.common.util.ExecutorUtil;
import org.apache.solr.common.util.NamedList;

/**
 * One {@link HttpJdkSolrClient} (one java.net.http.HttpClient) per Solr node base URL
 * ("http://host:port/solr"), all sharing one executor. No Jetty anywhere.
 */
public final class JdkNodeClients implements AutoCloseable {
  private final ConcurrentHashMap<String, HttpJdkSolrClient> clients = new ConcurrentHashMap<>();
  private final Consumer<HttpJdkSolrClient.Builder> customizer;
  private final ExecutorService executor;

  public JdkNodeClients(Consumer<HttpJdkSolrClient.Builder> customizer) {
    this.customizer = customizer;
    // Unbounded: for a POST, HttpJdkSolrClient writes the body from one executor task into a pipe that another
    // executor task reads; a pool that queues instead of starting a thread deadlocks under concurrent requests.
    AtomicInteger n = new AtomicInteger();
    this.executor = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "memloop-solr-http-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
  }

  /** Client for a node base URL (no core / collection in it). */
  public HttpJdkSolrClient node(String nodeBaseUrl) {
    return clients.computeIfAbsent(
        stripSlash(nodeBaseUrl),
        u -> {
          // HTTP/1.1 by default: over plain http the JDK client would otherwise send one h2c-probing HEAD
          // per node, which Solr logs as ERROR "missing content stream". Customizer may override.
          var b = new HttpJdkSolrClient.Builder(u).withExecutor(executor).useHttp1_1(true);
          customizer.accept(b);
          return b.build();
        });
  }

  /**
   * Executes against a URL as handed out by LBSolrClient: either a node base URL or
   * "nodeBaseUrl/coreOrCollection".
   */
  public NamedList<Object> request(String url, SolrRequest<?> req, String collection)
      throws SolrServerException, IOException {
    url = stripSlash(url);
    if (collection == null) {
      String path = URI.create(url).getPath(); // "/solr" or "/solr/core"
      int firstSeg = path.indexOf('/', 1);
      if (firstSeg > 0) { // has a core/collection segment after the context
        int cut = url.lastIndexOf('/');
        return node(url.substring(0, cut)).request(req, url.substring(cut + 1));
      }
    }
    return node(url).request(req, collection);
  }

  /** A SolrClient view of one node whose close() does nothing (BaseHttpClusterStateProvider closes what it gets). */
  public SolrClient nonClosing(String nodeBaseUrl) {
    var delegate = node(nodeBaseUrl);
    return new SolrClient() {
      @Override
      public NamedList<Object> request(SolrRequest<?> request, String collection)
          throws SolrServerException, IOException {
        return delegate.request(request, collection);
      }

      @Override
      public void close() {}
    };
  }

  private static String stripSlash(String u) {
    return u.endsWith("/") ? u.substring(0, u.length() - 1) : u;
  }

  @Override
  public void close() throws IOException {
    for (var c : clients.values()) c.close();
    clients.clear();
    ExecutorUtil.shutdownAndAwaitTermination(executor);
  }
}
