package io.memloop.server;

import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityValidator;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * DNS-rebinding and cross-site protection for {@code /mcp} (the MCP specification asks servers to check
 * {@code Origin}): a browser page on another site must not drive a local server. When the server listens on
 * loopback, the {@code Host} header must name loopback (a rebinding attack sends its own host name);
 * an {@code Origin}, when a browser sends one, must be loopback or the very host the request was sent to.
 */
final class OriginCheck implements ServerTransportSecurityValidator {
  private final boolean loopbackOnly;

  OriginCheck(String bindHost) {
    this.loopbackOnly = ServerOptions.isLoopback(bindHost);
  }

  @Override
  public void validateHeaders(Map<String, List<String>> headers) throws ServerTransportSecurityException {
    String host = first(headers, "Host");
    String origin = first(headers, "Origin");
    if (loopbackOnly && (host == null || !ServerOptions.isLoopback(hostName(host)))) {
      throw new ServerTransportSecurityException(421, "Host header must name this machine (localhost) for a server on loopback");
    }
    if (origin != null && !origin.equals("null")) {
      String originHost;
      try {
        originHost = URI.create(origin).getHost();
      } catch (IllegalArgumentException e) {
        throw new ServerTransportSecurityException(403, "Origin header is malformed");
      }
      boolean sameHost = host != null && originHost != null && originHost.equalsIgnoreCase(hostName(host));
      if (originHost == null || !(ServerOptions.isLoopback(originHost) || sameHost)) {
        throw new ServerTransportSecurityException(403, "cross-origin requests are refused");
      }
    } else if (origin != null) {
      throw new ServerTransportSecurityException(403, "cross-origin requests are refused");
    }
  }

  private static @Nullable String first(Map<String, List<String>> headers, String name) {
    for (var e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name)) {
        return e.getValue() == null || e.getValue().isEmpty() ? null : e.getValue().getFirst();
      }
    }
    return null;
  }

  /** {@code host[:port]} or {@code [v6][:port]} without the port. */
  private static String hostName(String hostHeader) {
    String h = hostHeader.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end > 0 ? h.substring(1, end) : h;
    }
    int colon = h.indexOf(':');
    return colon >= 0 ? h.substring(0, colon) : h;
  }
}
