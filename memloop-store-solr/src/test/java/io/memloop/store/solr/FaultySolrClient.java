package io.memloop.store.solr;

import java.io.IOException;
import java.util.function.Predicate;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.common.util.NamedList;

/**
 * A client that fails chosen update requests as the JDK's HTTP/1.1 client does when it closes a pooled connection a
 * request was taken onto: {@code IOException("connection closed locally")}, either before the request is sent (Solr
 * never sees it) or after Solr applied it (only the answer is lost). Everything else goes to the real client.
 */
final class FaultySolrClient extends SolrClient {
  /** When the chosen request fails. */
  enum When { BEFORE_SENDING, AFTER_APPLYING }

  private final SolrClient real;
  private Predicate<UpdateRequest> target = r -> false;
  private When when = When.BEFORE_SENDING;
  private int remaining;
  private Runnable afterApplying = () -> {};
  private int failed;

  FaultySolrClient(SolrClient real) {
    this.real = real;
  }

  /** Fails the next {@code times} update requests that {@code target} matches, {@code when}. */
  synchronized void fail(Predicate<UpdateRequest> target, When when, int times) {
    this.target = target;
    this.when = when;
    this.remaining = times;
  }

  /** Runs {@code r} after Solr applied a request failed {@link When#AFTER_APPLYING}, before the failure is thrown. */
  synchronized void afterApplying(Runnable r) {
    this.afterApplying = r;
  }

  /** How many requests were failed so far. */
  synchronized int failed() {
    return failed;
  }

  private synchronized boolean take(SolrRequest<?> request) {
    if (remaining > 0 && request instanceof UpdateRequest u && target.test(u)) {
      remaining--;
      failed++;
      return true;
    }
    return false;
  }

  @Override
  public NamedList<Object> request(SolrRequest<?> request, String collection) throws SolrServerException, IOException {
    if (!take(request)) {
      return real.request(request, collection);
    }
    if (when == When.AFTER_APPLYING) {
      real.request(request, collection);
      Runnable r;
      synchronized (this) {
        r = afterApplying;
        afterApplying = () -> {};
      }
      r.run();
    }
    throw new IOException("connection closed locally");
  }

  @Override
  public void close() throws IOException {
    real.close();
  }
}
