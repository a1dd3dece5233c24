package io.memloop.store.solr;

import io.memloop.MemLoopException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Where a {@link SolrStore} lives and how it behaves, parsed from a store location:
 *
 * <ul>
 *   <li>{@code solr://zk1:2181,zk2:2181[/chroot]/COLLECTION} — cluster state from ZooKeeper (production);
 *   <li>{@code solr+http://node1:8983,node2:8983/COLLECTION} (or {@code solr+https://}) — cluster state over HTTP
 *       from any of the listed Solr nodes ({@code http://node:8983/solr}).
 * </ul>
 *
 * <p>Query parameters: {@code shards} and {@code replicas} (used only when the collection does not exist yet and
 * MemLoop creates it; defaults 1 shard, min(2, live nodes) replicas), {@code visibility} ({@code nrt}, the default:
 * searches see writes after the collection's soft-commit interval; {@code immediate}: every write waits for a soft
 * commit, for tests and tiny deployments), {@code timeout} (request timeout in seconds, default 30), {@code tenantBits}
 * (0–16, default 16; recorded with a collection MemLoop creates: 16 keeps each namespace on one shard, fewer spread
 * each namespace over 2^(16 − B) times as much of the hash range, for namespaces too large for one shard).
 *
 * @param zkHosts ZooKeeper hosts (ZooKeeper form), empty for the HTTP form
 * @param chroot ZooKeeper chroot ({@code /solr} and the like), or null
 * @param solrUrls Solr node base URLs (HTTP form), empty for the ZooKeeper form
 * @param collection the collection holding every namespace
 */
public record SolrStoreOptions(
    List<String> zkHosts,
    @Nullable String chroot,
    List<String> solrUrls,
    String collection,
    int shards,
    int replicas,
    Visibility visibility,
    int timeoutSeconds,
    int tenantBits) {

  /** When searches see a write. */
  public enum Visibility {
    /** After the collection's next soft commit (its {@code memloop.autoSoftCommit.maxTime}). */
    NRT,
    /** Before the write returns: each write asks for a soft commit and waits for the new searcher. */
    IMMEDIATE
  }

  /** Replicas per shard when MemLoop creates the collection and {@code replicas} is not given. */
  static final int AUTO = 0;

  private static final Pattern HOST_PORT = Pattern.compile("[A-Za-z0-9.-]+:[0-9]{1,5}");
  private static final Pattern COLLECTION = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

  public SolrStoreOptions {
    zkHosts = List.copyOf(zkHosts);
    solrUrls = List.copyOf(solrUrls);
    if (zkHosts.isEmpty() == solrUrls.isEmpty()) {
      throw new IllegalArgumentException("give either ZooKeeper hosts or Solr node URLs");
    }
  }

  /** Whether {@code location} names a Solr store (rather than a directory). */
  public static boolean isSolrLocation(String location) {
    String l = location.toLowerCase(Locale.ROOT);
    return l.startsWith("solr://") || l.startsWith("solr+http://") || l.startsWith("solr+https://");
  }

  /**
   * Parses a store location; errors name {@code field} (the option the user gave it in, e.g. {@code --store}) and
   * say what is wrong, without echoing anything but the parts that failed.
   */
  public static SolrStoreOptions parse(String location, String field) {
    if (!isSolrLocation(location)) {
      throw MemLoopException.invalid(field, "a Solr store starts with solr://, solr+http:// or solr+https://");
    }
    URI uri;
    try {
      uri = new URI(location);
    } catch (URISyntaxException e) {
      throw MemLoopException.invalid(field, "not a valid Solr location: " + e.getReason()
          + " (expected solr://zkhost:2181[,zkhost2:2181][/chroot]/COLLECTION or solr+http://solrhost:8983/COLLECTION)");
    }
    String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
    String authority = uri.getRawAuthority();
    if (authority == null || authority.isEmpty()) {
      throw MemLoopException.invalid(field, "names no host: expected solr://zkhost:2181[/chroot]/COLLECTION");
    }
    if (authority.contains("@")) {
      throw MemLoopException.invalid(field, "must not carry credentials; put a proxy with authentication in front (README)");
    }
    List<String> hosts = new ArrayList<>();
    for (String h : authority.split(",", -1)) {
      if (!HOST_PORT.matcher(h).matches()) {
        throw MemLoopException.invalid(field, "host '" + printable(h) + "' is not HOST:PORT");
      }
      int port = Integer.parseInt(h.substring(h.lastIndexOf(':') + 1));
      if (port < 1 || port > 65_535) {
        throw MemLoopException.invalid(field, "port " + port + " is not in [1, 65535]");
      }
      hosts.add(h);
    }
    String path = Optional.ofNullable(uri.getPath()).orElse("");
    while (path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
    }
    int slash = path.lastIndexOf('/');
    String collection = slash < 0 ? "" : path.substring(slash + 1);
    if (!COLLECTION.matcher(collection).matches()) {
      throw MemLoopException.invalid(field, "collection '" + printable(collection) + "' is missing or not a Solr "
          + "collection name (letters, digits, '.', '_', '-'): expected .../COLLECTION at the end");
    }
    String chroot = slash > 0 ? path.substring(0, slash) : null;
    int shards = 1;
    int replicas = AUTO;
    Visibility visibility = Visibility.NRT;
    int timeout = 30;
    int tenantBits = 16;
    if (uri.getRawQuery() != null) {
      for (String pair : uri.getRawQuery().split("&")) {
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        switch (key) {
          case "shards" -> shards = intIn(field, key, value, 1, 1024);
          case "replicas" -> replicas = intIn(field, key, value, 1, 16);
          case "timeout" -> timeout = intIn(field, key, value, 1, 3600);
          case "tenantBits" -> tenantBits = intIn(field, key, value, 0, 16);
          case "visibility" -> visibility = switch (value.toLowerCase(Locale.ROOT)) {
            case "nrt" -> Visibility.NRT;
            case "immediate" -> Visibility.IMMEDIATE;
            default -> throw MemLoopException.invalid(field, "visibility must be nrt or immediate, got '" + printable(value) + "'");
          };
          default -> throw MemLoopException.invalid(field, "unknown parameter '" + printable(key)
              + "' (known: shards, replicas, visibility, timeout, tenantBits)");
        }
      }
    }
    if (scheme.equals("solr")) {
      return new SolrStoreOptions(hosts, chroot, List.of(), collection, shards, replicas, visibility, timeout, tenantBits);
    }
    if (chroot != null) {
      throw MemLoopException.invalid(field, "a solr+http location is NODE:PORT[,NODE:PORT]/COLLECTION; '" + printable(chroot)
          + "' before the collection is only for ZooKeeper (solr://)");
    }
    String http = scheme.equals("solr+https") ? "https://" : "http://";
    List<String> urls = hosts.stream().map(h -> http + h + "/solr").toList();
    return new SolrStoreOptions(List.of(), null, urls, collection, shards, replicas, visibility, timeout, tenantBits);
  }

  /** The same options with another visibility. */
  public SolrStoreOptions withVisibility(Visibility v) {
    return new SolrStoreOptions(zkHosts, chroot, solrUrls, collection, shards, replicas, v, timeoutSeconds, tenantBits);
  }

  /** The same options with the shards and replicas used if the collection must be created. */
  public SolrStoreOptions withLayout(int shards, int replicas) {
    return new SolrStoreOptions(zkHosts, chroot, solrUrls, collection, shards, replicas, visibility, timeoutSeconds, tenantBits);
  }

  /** The location these options were parsed from, in canonical form (for logs and messages). */
  public String location() {
    StringBuilder b = new StringBuilder();
    if (!zkHosts.isEmpty()) {
      b.append("solr://").append(String.join(",", zkHosts)).append(chroot == null ? "" : chroot);
    } else {
      boolean tls = solrUrls.getFirst().startsWith("https://");
      b.append(tls ? "solr+https://" : "solr+http://")
          .append(String.join(",", solrUrls.stream().map(u -> u.replaceFirst("^https?://", "").replaceFirst("/solr$", "")).toList()));
    }
    return b.append('/').append(collection).toString();
  }

  private static int intIn(String field, String key, String value, int min, int max) {
    try {
      int v = Integer.parseInt(value);
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw MemLoopException.invalid(field, key + " must be an integer in [" + min + ", " + max + "], got '" + printable(value) + "'");
  }

  private static String printable(String s) {
    String cut = s.length() > 64 ? s.substring(0, 64) + "..." : s;
    return cut.replaceAll("[^\\x20-\\x7E]", "?");
  }
}
