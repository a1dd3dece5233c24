package io.memloop.store.solr;

import io.memloop.MemLoopException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.CollectionAdminRequest;
import org.apache.solr.client.solrj.request.ConfigSetAdminRequest;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.util.ContentStreamBase;
import org.apache.solr.common.util.NamedList;
import org.jspecify.annotations.Nullable;

/** Connecting to the cluster, and creating MemLoop's collection and config set when they are missing. */
final class SolrClusterAdmin {
  static final String CONFIG_RESOURCES = "/io/memloop/store/solr/configset/";
  static final List<String> CONFIG_FILES = List.of("managed-schema.xml", "solrconfig.xml");
  private static final long DEFAULT_SOFT_COMMIT_MILLIS = 1_000;
  /**
   * The config set's name, before its dimension: each schema is a new name (schema 2 added the listing fields, schema
   * 3 the memories' annotations), so a cluster that holds an older set ({@code memloop-d<dimension>}, {@code
   * memloop-v2-d<dimension>}) creates new collections with the new one.
   */
  static final String CONFIG_PREFIX = "memloop-v3-d";

  private SolrClusterAdmin() {}

  static JdkCloudSolrClient connect(SolrStoreOptions o) {
    try {
      if (!o.zkHosts().isEmpty()) {
        return JdkCloudSolrClient.viaZk(o.zkHosts(), Optional.ofNullable(o.chroot()), o.collection(),
            b -> b.withConnectionTimeout(10, TimeUnit.SECONDS).withRequestTimeout(o.timeoutSeconds(), TimeUnit.SECONDS));
      }
      return JdkCloudSolrClient.viaHttp(o.solrUrls(), o.collection(),
          b -> b.withConnectionTimeout(10, TimeUnit.SECONDS).withRequestTimeout(o.timeoutSeconds(), TimeUnit.SECONDS));
    } catch (Exception e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "--store",
          "--store: cannot reach the Solr cluster at " + o.location() + ": " + rootMessage(e), e);
    }
  }

  /**
   * The dimension of the collection's vectors: an existing collection's (from its schema; {@code dimensionForNew} is
   * then ignored), or {@code dimensionForNew} for one created now.
   */
  static int ensureCollection(JdkCloudSolrClient client, SolrStoreOptions o, OptionalInt dimensionForNew) {
    try {
      if (!CollectionAdminRequest.listCollections(client).contains(o.collection())) {
        if (dimensionForNew.isEmpty()) {
          throw new MemLoopException(MemLoopException.Reason.NOT_FOUND, "--store", "--store: the cluster has no collection "
              + o.collection() + " (remember something first, or point --store at an existing MemLoop collection)");
        }
        create(client, o, dimensionForNew.getAsInt());
      }
      return schemaDimension(client, o.collection());
    } catch (SolrServerException | IOException | SolrException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "--store",
          "--store: cannot open collection " + o.collection() + " at " + o.location() + ": " + rootMessage(e), e);
    }
  }

  private static void create(JdkCloudSolrClient client, SolrStoreOptions o, int dimension)
      throws SolrServerException, IOException {
    String configName = CONFIG_PREFIX + dimension;
    List<String> configs = new ConfigSetAdminRequest.List().process(client).getConfigSets();
    if (!configs.contains(configName)) {
      try {
        new ConfigSetAdminRequest.Upload().setConfigSetName(configName)
            .setUploadStream(new ContentStreamBase.ByteArrayStream(configSetZip(dimension), configName + ".zip", "application/octet-stream"))
            .process(client);
      } catch (SolrException e) {
        if (!new ConfigSetAdminRequest.List().process(client).getConfigSets().contains(configName)) {
          throw e; // not a race with another process uploading it
        }
      }
    }
    int live = client.getClusterStateProvider().getLiveNodes().size();
    int replicas = o.replicas() == SolrStoreOptions.AUTO ? Math.max(1, Math.min(2, live)) : o.replicas();
    var create = CollectionAdminRequest.createCollection(o.collection(), configName, o.shards(), replicas)
        .setRouterName("compositeId");
    create.setWaitForFinalState(true);
    try {
      create.process(client);
    } catch (SolrException e) {
      if (!CollectionAdminRequest.listCollections(client).contains(o.collection())) {
        throw e; // not a race with another process creating it
      }
    }
  }

  /** The config set MemLoop ships, for vectors of {@code dimension} components, as the zip Solr's API takes. */
  static byte[] configSetZip(int dimension) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
      for (String name : CONFIG_FILES) {
        zip.putNextEntry(new ZipEntry(name));
        zip.write(configFile(name, dimension).getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return bytes.toByteArray();
  }

  /** One file of the shipped config set, for {@code dimension}-d vectors. */
  static String configFile(String name, int dimension) {
    try (InputStream in = SolrClusterAdmin.class.getResourceAsStream(CONFIG_RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("@DIMENSION@", Integer.toString(dimension));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The vector field's dimension in the collection's schema; fails for a collection that is not MemLoop's. */
  private static int schemaDimension(JdkCloudSolrClient client, String collection) throws SolrServerException, IOException {
    NamedList<Object> r = client.request(
        new GenericSolrRequest(SolrRequest.METHOD.GET, "/schema/fieldtypes/intent_vector").setRequiresCollection(true),
        collection);
    Object dim = entry(r.get("fieldType"), "vectorDimension");
    if (dim == null) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "--store",
          "--store: collection " + collection + " is not a MemLoop collection (its schema has no intent_vector field type)");
    }
    return Integer.parseInt(dim.toString());
  }

  /**
   * Whether the collection's schema has the listing fields (schema 2: {@code words}, {@code oc}, {@code created_at});
   * a collection created by an older build has not, and is listed by scanning.
   */
  static boolean hasListingFields(JdkCloudSolrClient client, String collection) {
    return hasField(client, collection, "created_at");
  }

  /**
   * Whether the collection's schema has the memories' annotations field (schema 3: {@code ann}); a collection created
   * by an older build has not, and keeps no memory annotations.
   */
  static boolean hasAnnotations(JdkCloudSolrClient client, String collection) {
    return hasField(client, collection, "ann");
  }

  private static boolean hasField(JdkCloudSolrClient client, String collection, String field) {
    try {
      NamedList<Object> r = client.request(
          new GenericSolrRequest(SolrRequest.METHOD.GET, "/schema/fields/" + field).setRequiresCollection(true), collection);
      return entry(r.get("field"), "name") != null;
    } catch (SolrServerException | IOException | SolrException e) {
      return false;
    }
  }

  /** How long a write may take to become searchable: the collection's auto soft commit interval. */
  static long softCommitMillis(JdkCloudSolrClient client, String collection) {
    try {
      NamedList<Object> r = client.request(
          new GenericSolrRequest(SolrRequest.METHOD.GET, "/config/updateHandler").setRequiresCollection(true), collection);
      Object max = entry(entry(entry(r.get("config"), "updateHandler"), "autoSoftCommit"), "maxTime");
      long ms = max == null ? -1 : Long.parseLong(max.toString());
      return ms > 0 ? ms : DEFAULT_SOFT_COMMIT_MILLIS;
    } catch (SolrServerException | IOException | SolrException | NumberFormatException e) {
      return DEFAULT_SOFT_COMMIT_MILLIS;
    }
  }

  /** {@code key}'s value in a response section, which SolrJ hands over as a Map or a NamedList; null otherwise. */
  static @Nullable Object entry(@Nullable Object section, String key) {
    return section instanceof Map<?, ?> m ? m.get(key) : section instanceof NamedList<?> n ? n.get(key) : null;
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    String m = t.getMessage();
    return m == null ? t.getClass().getSimpleName() : m;
  }
}
