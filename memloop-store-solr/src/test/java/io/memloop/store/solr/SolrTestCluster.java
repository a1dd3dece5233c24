package io.memloop.store.solr;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.apache.solr.cloud.MiniSolrCloudCluster;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real SolrCloud in the test JVM: an embedded ZooKeeper and {@code nodes} Solr nodes on loopback
 * ({@link MiniSolrCloudCluster}). {@link Shared} starts one two-node cluster for every test class that asks for it
 * and stops it when the test run ends; a test that stops nodes starts its own with {@link #start}.
 */
final class SolrTestCluster implements AutoCloseable {
  final MiniSolrCloudCluster cluster;
  private final Path dir;

  private SolrTestCluster(MiniSolrCloudCluster cluster, Path dir) {
    this.cluster = cluster;
    this.dir = dir;
  }

  static SolrTestCluster start(int nodes) throws Exception {
    Path dir = Files.createTempDirectory("memloop-solr-");
    MiniSolrCloudCluster c = new MiniSolrCloudCluster.Builder(nodes, dir).withTraceIdGenerationDisabled().build();
    return new SolrTestCluster(c, dir);
  }

  /** ZooKeeper's address with the cluster's chroot, as a {@code solr://} location's host part takes it. */
  String zkAddress() {
    return cluster.getZkServer().getZkAddress();
  }

  /** A {@code solr://} location for {@code collection} with {@code params} (e.g. {@code visibility=immediate}). */
  String location(String collection, String params) {
    return "solr://" + zkAddress() + "/" + collection + (params.isEmpty() ? "" : "?" + params);
  }

  /** A {@code solr+http://} location naming every node. */
  String httpLocation(String collection, String params) {
    StringBuilder hosts = new StringBuilder();
    for (var j : cluster.getJettySolrRunners()) {
      if (j.isRunning()) {
        hosts.append(hosts.isEmpty() ? "" : ",").append(j.getBaseUrl().getHost()).append(':').append(j.getLocalPort());
      }
    }
    return "solr+http://" + hosts + "/" + collection + (params.isEmpty() ? "" : "?" + params);
  }

  @Override
  public void close() throws Exception {
    try {
      cluster.shutdown();
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** One two-node cluster shared by the test classes that extend with it, stopped at the end of the run. */
  static final class Shared implements BeforeAllCallback {
    private static SolrTestCluster cluster;

    static synchronized SolrTestCluster get() {
      return cluster;
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
      synchronized (Shared.class) {
        if (cluster == null) {
          cluster = start(2);
          SolrTestCluster started = cluster;
          context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
              .put("memloop-solr-cluster", (ExtensionContext.Store.CloseableResource) () -> {
                synchronized (Shared.class) {
                  cluster = null;
                }
                started.close();
              });
        }
      }
    }
  }
}
