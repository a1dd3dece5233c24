package io.memloop.store.solr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Candidate;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.policy.TaskNote;
import io.memloop.store.Annotations;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.common.util.ContentStreamBase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Listing and annotations on collections of the shipped schema (indexed fields, {@code ann}) and of the first one
 * (neither).
 */
@ExtendWith(SolrTestCluster.Shared.class)
class SolrListingTest {
  private static final int DIM = 4;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static NewMemory memory(int i, String experience, Outcome outcome) {
    float[] v = new float[DIM];
    v[i % DIM] = 1;
    return new NewMemory("ns", "task " + i, Vectors.normalized(v, "test"), experience, outcome, i / 10.0, T0.plusSeconds(i));
  }

  private static SolrStoreOptions options(String collection) {
    return SolrStoreOptions.parse(SolrTestCluster.Shared.get().location(collection, "visibility=immediate&shards=1&replicas=1"),
        "test");
  }

  @Test
  void aNewCollectionHasTheListingFields_andACollectionOfTheBuildBefore_isEditedAndListedByScanning() throws Exception {
    try (SolrStore fresh = SolrStore.open(options("listing-new"), OptionalInt.of(DIM))) {
      try (JdkCloudSolrClient client = SolrClusterAdmin.connect(options("listing-new"))) {
        assertThat(SolrClusterAdmin.hasListingFields(client, "listing-new")).isTrue();
        assertThat(SolrClusterAdmin.hasAnnotations(client, "listing-new")).isTrue();
      }
      fresh.insert(memory(1, "alpha beta", Outcome.SUCCESS), 1.01);
      assertThat(fresh.search("ns", MemoryQuery.builder().text("beta").build()).total()).isEqualTo(1);
    }
    // schema 1: the shipped schema without the listing fields (nor schema 3's ann), uploaded under the old config set name
    var cluster = SolrTestCluster.Shared.get().cluster;
    String schema = SolrClusterAdmin.configFile("managed-schema.xml", DIM)
        .replaceAll("(?m)^\\s*<field name=\"(words|oc|created_at|ann)\".*$", "");
    assertThat(schema).doesNotContain("name=\"words\"").doesNotContain("name=\"ann\"");
    ByteArrayOutputStream zip = new ByteArrayOutputStream();
    try (ZipOutputStream z = new ZipOutputStream(zip)) {
      z.putNextEntry(new ZipEntry("managed-schema.xml"));
      z.write(schema.getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
      z.putNextEntry(new ZipEntry("solrconfig.xml"));
      z.write(SolrClusterAdmin.configFile("solrconfig.xml", DIM).getBytes(StandardCharsets.UTF_8));
      z.closeEntry();
    }
    new ConfigSetAdminRequest.Upload().setConfigSetName("memloop-d" + DIM)
        .setUploadStream(new ContentStreamBase.ByteArrayStream(zip.toByteArray(), "old.zip", "application/octet-stream"))
        .process(cluster.getSolrClient());
    var create = CollectionAdminRequest.createCollection("listing-old", "memloop-d" + DIM, 1, 1).setRouterName("compositeId");
    create.setWaitForFinalState(true);
    create.process(cluster.getSolrClient());
    try (JdkCloudSolrClient client = SolrClusterAdmin.connect(options("listing-old"))) {
      assertThat(SolrClusterAdmin.hasListingFields(client, "listing-old")).isFalse();
      assertThat(SolrClusterAdmin.hasAnnotations(client, "listing-old")).isFalse();
    }
    try (SolrStore old = SolrStore.open(options("listing-old"), OptionalInt.of(DIM))) {
      Memory a = old.insert(memory(1, "alpha beta", Outcome.SUCCESS), 1.01);
      Memory b = old.insert(memory(2, "gamma", Outcome.FAILURE), 1.01);
      Memory edited = old.updateExperience("ns", b.id(), "gamma beta", T0.plusSeconds(50)).orElseThrow();
      assertThat(edited.experience()).isEqualTo("gamma beta");
      assertThat(edited.q()).isEqualTo(b.q());
      var page = old.search("ns", MemoryQuery.builder().text("BETA").sort(MemoryQuery.Sort.Q).descending(true).build());
      assertThat(page.memories()).extracting(Memory::id).containsExactly(b.id(), a.id());
      assertThat(old.search("ns", MemoryQuery.builder().outcomes(Outcome.FAILURE).build()).memories())
          .extracting(Memory::experience).containsExactly("gamma beta");
      // no field for memories' annotations: none are held, storing some is refused, saying how to get them
      assertThat(old.annotations("ns", List.of(a.id(), b.id()))).isEmpty();
      old.annotate("ns", Map.of()); // nothing to store: fine
      assertThatThrownBy(() -> old.annotate("ns", Map.of(a.id(), Annotations.of("seen", 1, new byte[] {1}))))
          .isInstanceOf(MemLoopException.class).hasMessageContaining("has no 'ann' field").hasMessageContaining("migrate");
      assertThat(old.get("ns", a.id())).contains(a);
      // a retrieval's annotations live in its payload: kept on every schema
      Annotations note = new TaskNote("t", a.id(), true).into(Annotations.EMPTY);
      RetrievalRecord r = old.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(60),
          List.of(new Candidate(a.id(), 0.9, 0, 1, true, 1)), note));
      assertThat(old.retrieval("ns", r.id()).orElseThrow().annotations()).isEqualTo(note);
      // its payload field keeps docValues, capped at 32,766 bytes: a larger record is refused, saying why
      Annotations big = Annotations.of("big", 1, new byte[30_000]);
      assertThatThrownBy(() -> old.saveRetrieval(new RetrievalRecordDraft("ns", T0, T0.plusSeconds(60),
          List.of(new Candidate(a.id(), 0.9, 0, 1, true, 1)), big)))
          .isInstanceOf(MemLoopException.class).hasMessageContaining("stores at most 32766");
    }
  }
}
