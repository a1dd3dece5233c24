package io.memloop.server;

import io.memloop.MemLoopException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * How {@link MemLoopServer} listens and what it accepts.
 *
 * @param host address to bind; loopback by default: put a TLS-terminating proxy in front to serve a network
 * @param port TCP port; 0 picks a free one ({@link MemLoopServer#port()} tells which)
 * @param maxBodyBytes largest request body; larger ones get 413
 * @param maxIntentChars longest intent text
 * @param maxExperienceChars longest experience text
 * @param maxEmbeddingLength longest embedding array accepted before the store's dimension is checked
 * @param drainTimeout how long {@link MemLoopServer#close()} lets in-flight requests finish
 * @param mcp whether to serve MCP (streamable HTTP) at {@code /mcp}
 * @param storeDirectory the store's directory, for the store-size metric; null to leave it out
 * @param openNamespace for a single user on this machine: requests with no API key act in this namespace
 *     (only); null (the default) requires a key on every request. Only with a loopback {@code host}.
 * @param allowedHosts host names (without port) a request's {@code Host} may name besides loopback ones on a
 *     loopback {@code host}; on another address, when not empty, the only ones accepted (DNS-rebinding protection)
 * @param allowedOrigins browser origins ({@code scheme://host[:port]}) whose pages may call the server; empty
 *     (the default): a request carrying any {@code Origin} is refused
 * @param metricsNamespaces whether {@code /metrics} (served without a key) labels series with namespace names;
 *     off by default, so tenants' names and volumes stay private
 * @param ids how ids handed to clients are made opaque; null: a random key per start (ids do not survive a
 *     restart; {@code memloop serve} passes one kept in a file)
 * @param activity what the engine reported since the server started (the engine must report to it: {@code memloop
 *     serve} builds it so); null: the inspector's activity, events and histories are empty (histories show the
 *     store's current utility only), since a server cannot see the events of an engine built before it
 * @param reports the decision reports of the server's event log ({@code GET .../report}); null: not available
 */
public record ServerOptions(
    String host,
    int port,
    int maxBodyBytes,
    int maxIntentChars,
    int maxExperienceChars,
    int maxEmbeddingLength,
    Duration drainTimeout,
    boolean mcp,
    @Nullable Path storeDirectory,
    @Nullable String openNamespace,
    Set<String> allowedHosts,
    Set<String> allowedOrigins,
    boolean metricsNamespaces,
    @Nullable IdCodec ids,
    @Nullable ServerActivity activity,
    @Nullable DecisionReports reports) {

  public static final String LOOPBACK = "127.0.0.1";
  public static final int DEFAULT_PORT = 7070;

  public ServerOptions {
    if (host == null || host.isBlank()) {
      throw MemLoopException.invalid("host", "must not be empty");
    }
    if (port < 0 || port > 65_535) {
      throw MemLoopException.invalid("port", "must be in [0, 65535], got " + port);
    }
    if (maxBodyBytes < 1024 || maxBodyBytes > (64 << 20)) {
      throw MemLoopException.invalid("maxBodyBytes", "must be in [1024, " + (64 << 20) + "], got " + maxBodyBytes);
    }
    if (maxIntentChars < 1 || maxExperienceChars < 1 || maxEmbeddingLength < 1) {
      throw MemLoopException.invalid("maxIntentChars", "text and embedding limits must be positive");
    }
    if (openNamespace != null) {
      io.memloop.Checks.requireNamespace(openNamespace);
      if (!isLoopback(host)) {
        throw MemLoopException.invalid("openNamespace",
            "serves requests without a key, so only on a loopback address (127.0.0.1, ::1, localhost), not " + host);
      }
    }
    allowedHosts = allowedHosts.stream().map(h -> RequestGuard.hostName(h)).collect(java.util.stream.Collectors.toUnmodifiableSet());
    for (String o : allowedOrigins) {
      java.net.URI u;
      try {
        u = java.net.URI.create(o.strip());
      } catch (IllegalArgumentException e) {
        throw MemLoopException.invalid("allowOrigin", "'" + o + "' is not an origin such as https://app.example.com");
      }
      if (u.getScheme() == null || u.getHost() == null || (u.getPath() != null && !u.getPath().isEmpty() && !u.getPath().equals("/"))
          || u.getQuery() != null) {
        throw MemLoopException.invalid("allowOrigin", "'" + o + "' is not an origin such as https://app.example.com (scheme://host[:port])");
      }
    }
    allowedOrigins = allowedOrigins.stream().map(RequestGuard::normalizeOrigin).collect(java.util.stream.Collectors.toUnmodifiableSet());
    if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
      throw MemLoopException.invalid("drainTimeout", "must be in [0, 10] minutes, got " + drainTimeout);
    }
  }

  /**
   * Loopback, port 7070, 1 MiB bodies, intents up to the engine's own bound ({@link io.memloop.Checks#MAX_INTENT_CHARS}
   * characters), 64 KiB experiences, 8,192-d embeddings, 10 s drain, MCP on.
   */
  public static ServerOptions defaults() {
    return new ServerOptions(LOOPBACK, DEFAULT_PORT, 1 << 20, io.memloop.Checks.MAX_INTENT_CHARS, 65_536, 8_192, Duration.ofSeconds(10), true, null, null, Set.of(), Set.of(), false, null, null, null);
  }

  public ServerOptions withHost(String v) {
    return new ServerOptions(v, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withPort(int v) {
    return new ServerOptions(host, v, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withMaxBodyBytes(int v) {
    return new ServerOptions(host, port, v, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withDrainTimeout(Duration v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, v, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withMcp(boolean v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, v, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withOpenNamespace(@Nullable String v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, v, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withStoreDirectory(@Nullable Path v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, v, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withAllowedHosts(Set<String> v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, v, allowedOrigins, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withAllowedOrigins(Set<String> v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, v, metricsNamespaces, ids, activity, reports);
  }

  public ServerOptions withMetricsNamespaces(boolean v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, v, ids, activity, reports);
  }

  public ServerOptions withIds(@Nullable IdCodec v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, v, activity, reports);
  }

  public ServerOptions withActivity(@Nullable ServerActivity v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, v, reports);
  }

  public ServerOptions withReports(@Nullable DecisionReports v) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace, allowedHosts, allowedOrigins, metricsNamespaces, ids, activity, v);
  }

  /** Whether {@code host} names this machine's loopback interface only. */
  public static boolean isLoopback(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    // an address literal 127.x.y.z, not any name that starts with "127." (127.0.0.1.evil.example is a DNS name)
    return h.equals("127.0.0.1") || h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")
        || LOOPBACK_V4.matcher(h).matches();
  }

  private static final java.util.regex.Pattern LOOPBACK_V4 =
      java.util.regex.Pattern.compile("127\\.(25[0-5]|2[0-4][0-9]|1?[0-9]{1,2})(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]{1,2})){2}");

}
