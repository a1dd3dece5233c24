package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import java.util.List;
import org.junit.jupiter.api.Test;

class SolrStoreOptionsTest {
  @Test
  void zooKeeperLocation_withHostsChrootCollectionAndParameters() {
    SolrStoreOptions o = SolrStoreOptions.parse("solr://zk1:2181,zk2.example.com:2182/solr/prod/memories?shards=4&replicas=3&visibility=immediate&timeout=5", "--store");
    assertThat(o.zkHosts()).containsExactly("zk1:2181", "zk2.example.com:2182");
    assertThat(o.chroot()).isEqualTo("/solr/prod");
    assertThat(o.collection()).isEqualTo("memories");
    assertThat(o.solrUrls()).isEmpty();
    assertThat(o.shards()).isEqualTo(4);
    assertThat(o.replicas()).isEqualTo(3);
    assertThat(o.visibility()).isEqualTo(SolrStoreOptions.Visibility.IMMEDIATE);
    assertThat(o.timeoutSeconds()).isEqualTo(5);
    assertThat(o.location()).isEqualTo("solr://zk1:2181,zk2.example.com:2182/solr/prod/memories");
  }

  @Test
  void httpLocation_namesNodes_defaultsAreOneShardAutomaticReplicasNearRealTime() {
    SolrStoreOptions o = SolrStoreOptions.parse("solr+http://node1:8983,node2:8983/memloop", "--store");
    assertThat(o.solrUrls()).containsExactly("http://node1:8983/solr", "http://node2:8983/solr");
    assertThat(o.zkHosts()).isEmpty();
    assertThat(o.chroot()).isNull();
    assertThat(o.shards()).isEqualTo(1);
    assertThat(o.replicas()).isEqualTo(SolrStoreOptions.AUTO);
    assertThat(o.visibility()).isEqualTo(SolrStoreOptions.Visibility.NRT);
    assertThat(o.location()).isEqualTo("solr+http://node1:8983,node2:8983/memloop");
    assertThat(SolrStoreOptions.parse("solr+https://node1:8983/memloop/", "--store").solrUrls()).containsExactly("https://node1:8983/solr");
    assertThat(SolrStoreOptions.isSolrLocation("SOLR://zk:1/c")).isTrue();
    assertThat(SolrStoreOptions.isSolrLocation("./memloop-data")).isFalse();
    assertThat(SolrStoreOptions.isSolrLocation("solr-data")).isFalse();
  }

  @Test
  void badLocations_areRejectedNamingTheFieldAndTheProblem() {
    for (var bad : List.of(
        List.of("solr://zk1/memloop", "'zk1' is not HOST:PORT"),
        List.of("solr://zk1:99999/memloop", "port 99999"),
        List.of("solr://zk1:2181", "collection '' is missing"),
        List.of("solr://zk1:2181/bad$name", "collection 'bad$name'"),
        List.of("solr://user:pw@zk1:2181/memloop", "must not carry credentials"),
        List.of("solr://zk1:2181/memloop?shards=0", "shards must be an integer in [1, 1024], got '0'"),
        List.of("solr://zk1:2181/memloop?visibility=eventually", "visibility must be nrt or immediate"),
        List.of("solr://zk1:2181/memloop?dir=/etc", "unknown parameter 'dir'"),
        List.of("solr+http://node:8983/solr/memloop", "only for ZooKeeper"),
        List.of("solr://zk 1:2181/memloop", "not a valid Solr location"),
        List.of("http://node:8983/memloop", "starts with solr://"))) {
      assertThatThrownBy(() -> SolrStoreOptions.parse(bad.get(0), "--store"))
          .as(bad.get(0))
          .isInstanceOf(MemLoopException.class)
          .hasMessageStartingWith("--store: ")
          .hasMessageContaining(bad.get(1))
          .satisfies(e -> assertThat(((MemLoopException) e).field()).isEqualTo("--store"));
    }
  }
}
