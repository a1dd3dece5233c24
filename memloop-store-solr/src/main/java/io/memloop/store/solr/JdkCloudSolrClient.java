package io.memloop.store.solr;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.impl.CloudSolrClient;
import org.apache.solr.client.solrj.impl.ClusterStateProvider;
import org.apache.solr.client.solrj.impl.HttpJdkSolrClient;
import org.apache.solr.client.solrj.impl.LBSolrClient;

/**
 * A Jetty-free CloudSolrClient for SolrJ 9.x: cluster-state aware routing (compositeId, leaders
 * for updates, retry on stale state) over java.net.http via HttpJdkSolrClient. SolrJ 9.10 only
 * ships CloudHttp2SolrClient (Jetty 10) and CloudLegacySolrClient (Apache HttpClient 4).
 */
public final class JdkCloudSolrClient extends CloudSolrClient {
  private final JdkNodeClients clients;
  private final LBSolrClient lbClient;
  private final ClusterStateProvider stateProvider;

  private JdkCloudSolrClient(JdkNodeClients clients, ClusterStateProvider provider, String defaultCollection) {
    // updatesToLeaders, parallelUpdates, directUpdatesToLeadersOnly
    super(true, false, false);
    this.clients = clients;
    this.stateProvider = provider;
    this.lbClient = new JdkLBSolrClient(clients);
    this.defaultCollection = defaultCollection;
  }

  /** Cluster state over HTTP from any of the given node URLs ("http://host:port/solr"). */
  public static JdkCloudSolrClient viaHttp(
      List<String> solrUrls, String defaultCollection, Consumer<HttpJdkSolrClient.Builder> customizer)
      throws Exception {
    var clients = new JdkNodeClients(customizer);
    try {
      return new JdkCloudSolrClient(clients, new JdkHttpClusterStateProvider(solrUrls, clients), defaultCollection);
    } catch (Exception e) {
      clients.close();
      throw e;
    }
  }

  /** Cluster state watched in ZooKeeper (needs solr-solrj-zookeeper + zookeeper jars). */
  public static JdkCloudSolrClient viaZk(
      List<String> zkHosts, Optional<String> chroot, String defaultCollection,
      Consumer<HttpJdkSolrClient.Builder> customizer) throws Exception {
    var clients = new JdkNodeClients(customizer);
    var provider = ClusterStateProvider.newZkClusterStateProvider(zkHosts, chroot.orElse(null), true);
    return new JdkCloudSolrClient(clients, provider, defaultCollection);
  }

  @Override
  protected LBSolrClient getLbClient() {
    return lbClient;
  }

  @Override
  public ClusterStateProvider getClusterStateProvider() {
    return stateProvider;
  }

  @Override
  public void close() throws IOException {
    try {
      stateProvider.close();
      lbClient.close();
      clients.close();
    } finally {
      super.close();
    }
  }
}
