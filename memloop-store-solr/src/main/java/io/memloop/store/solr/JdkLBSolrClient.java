package io.memloop.store.solr;

import java.io.IOException;
import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.LBSolrClient;
import org.apache.solr.common.util.NamedList;

/** LBSolrClient (retry over replicas, zombie tracking) on top of HttpJdkSolrClient. */
final class JdkLBSolrClient extends LBSolrClient {
  private final JdkNodeClients clients;

  JdkLBSolrClient(JdkNodeClients clients) {
    super(List.of());
    this.clients = clients;
  }

  @Override
  protected NamedList<Object> doRequest(String url, SolrRequest<?> request, String collection)
      throws SolrServerException, IOException {
    return clients.request(url, request, collection);
  }

  @Override
  @SuppressWarnings("deprecation")
  protected SolrClient getClient(String baseUrl) {
    return clients.node(baseUrl); // only used for zombie pings etc.; doRequest above is the main path
  }

  @Override
  protected SolrClient getClient(Endpoint endpoint) {
    return clients.node(endpoint.getBaseUrl());
  }

  @Override
  public void close() {
    super.close();
  }
}
