package io.memloop.server;

import io.memloop.MemLoopException;
import java.nio.file.Path;
import java.time.Duration;
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
    @Nullable String openNamespace) {

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
    if (drainTimeout == null || drainTimeout.isNegative() || drainTimeout.compareTo(Duration.ofMinutes(10)) > 0) {
      throw MemLoopException.invalid("drainTimeout", "must be in [0, 10] minutes, got " + drainTimeout);
    }
  }

  /** Loopback, port 7070, 1 MiB bodies, 8 KiB intents, 64 KiB experiences, 8,192-d embeddings, 10 s drain, MCP on. */
  public static ServerOptions defaults() {
    return new ServerOptions(LOOPBACK, DEFAULT_PORT, 1 << 20, 8_192, 65_536, 8_192, Duration.ofSeconds(10), true, null, null);
  }

  public ServerOptions withHost(String h) {
    return new ServerOptions(h, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace);
  }

  public ServerOptions withPort(int p) {
    return new ServerOptions(host, p, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace);
  }

  public ServerOptions withMaxBodyBytes(int b) {
    return new ServerOptions(host, port, b, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, openNamespace);
  }

  public ServerOptions withDrainTimeout(Duration d) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, d, mcp, storeDirectory, openNamespace);
  }

  public ServerOptions withMcp(boolean on) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, on, storeDirectory, openNamespace);
  }

  public ServerOptions withOpenNamespace(@Nullable String ns) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, storeDirectory, ns);
  }

  /** Whether {@code host} names this machine's loopback interface only. */
  public static boolean isLoopback(String host) {
    String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    return h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1") || h.startsWith("127.");
  }

  public ServerOptions withStoreDirectory(@Nullable Path dir) {
    return new ServerOptions(host, port, maxBodyBytes, maxIntentChars, maxExperienceChars, maxEmbeddingLength, drainTimeout, mcp, dir, openNamespace);
  }
}
