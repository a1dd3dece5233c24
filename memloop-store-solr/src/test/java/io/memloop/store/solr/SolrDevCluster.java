package io.memloop.store.solr;

import java.util.concurrent.CountDownLatch;

/**
 * A SolrCloud to try MemLoop's Solr store on without installing Solr: an embedded ZooKeeper and {@code nodes} Solr
 * nodes on loopback in this one JVM (the same cluster the tests use), until Ctrl-C. Prints the {@code --store}
 * locations to use. Run with {@code scripts/solr-dev-cluster [NODES]}. Data lives in a temporary directory and goes
 * with the process: this is for trying and testing, not for keeping memories.
 */
public final class SolrDevCluster {
  private SolrDevCluster() {}

  public static void main(String[] args) throws Exception {
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 2;
    SolrTestCluster cluster = SolrTestCluster.start(nodes);
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        cluster.close();
      } catch (Exception e) {
        System.err.println("solr-dev-cluster: stopping failed: " + e);
      }
      stopped.countDown();
    }));
    System.out.println("solr-dev-cluster: " + nodes + " Solr node(s) and ZooKeeper running. Use:");
    System.out.println("  --store " + cluster.location("memloop", ""));
    System.out.println("  --store " + cluster.httpLocation("memloop", ""));
    System.out.println("Ctrl-C stops the cluster (its data goes with it).");
    System.out.flush();
    stopped.await();
  }
}
