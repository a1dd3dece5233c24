package io.memloop.store.solr;

import io.memloop.store.MemoryStore;
import io.memloop.store.MemoryStoreContract;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The shared store contract on a real two-node SolrCloud. Every test starts from an empty collection (2 shards, one
 * replica each); searches see writes at once ({@code visibility=immediate}) because the contract reads its own writes
 * through recall and counts. The near-real-time default is covered by {@link SolrStoreTest}.
 */
@ExtendWith(SolrTestCluster.Shared.class)
class SolrStoreContractTest extends MemoryStoreContract {
  private static final String COLLECTION = "contract";

  private SolrStoreOptions options() {
    return SolrStoreOptions.parse(SolrTestCluster.Shared.get().location(COLLECTION, "visibility=immediate&shards=2&replicas=1"), "test");
  }

  @Override
  protected MemoryStore newStore(int dimension) throws Exception {
    SolrStore store = SolrStore.open(options(), OptionalInt.of(dimension));
    // empty the collection the previous test used; a new store reads the (empty) id sequence again
    var cluster = SolrTestCluster.Shared.get().cluster;
    new UpdateRequest().deleteByQuery("*:*").commit(cluster.getSolrClient(), COLLECTION);
    store.close();
    return SolrStore.open(options(), OptionalInt.of(dimension));
  }

  @Override
  protected Optional<MemoryStore> reopen(MemoryStore store) {
    store.close();
    return Optional.of(SolrStore.open(options(), OptionalInt.empty()));
  }
}
