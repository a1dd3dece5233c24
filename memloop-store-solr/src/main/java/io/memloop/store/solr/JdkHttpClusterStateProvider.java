package io.memloop.store.solr;

import java.util.List;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.impl.BaseHttpClusterStateProvider;

/** Cluster state fetched over HTTP (CLUSTERSTATUS / LISTALIASES) using the JDK client. */
final class JdkHttpClusterStateProvider extends BaseHttpClusterStateProvider {
  private final JdkNodeClients clients;

  JdkHttpClusterStateProvider(List<String> solrUrls, JdkNodeClients clients) throws Exception {
    this.clients = clients;
    initConfiguredNodes(solrUrls);
  }

  @Override
  protected SolrClient getSolrClient(String baseUrl) {
    return clients.nonClosing(baseUrl);
  }
}
