package io.memloop.server;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handler (inside {@link IdleConnections}) that checks what a request must be before any route sees it, for every route alike
 * ({@code /v1}, {@code /mcp}, health, metrics, the inspector at {@code /ui}), and the one place every answer is counted in
 * {@code memloop_requests_seconds} (refusals here, Jetty's and Javalin's own errors, 5xx included).
 *
 * <p>In this order, each refusal a JSON error: a path whose percent-escapes are malformed, decode to invalid
 * UTF-8, or hide a {@code /}, {@code \} or control character, or that is over {@link #MAX_PATH_CHARS} (400);
 * a {@code Host} that is not this machine while listening on loopback, or not on {@code --allow-host}
 * (421: DNS rebinding); an {@code Origin} not on {@code --allow-origin} and not this server's own loopback
 * origin (403: a browser page of another site; non-browser clients send none); a method the API does not document for the path (405 with
 * {@code Allow}: TRACE, PROPFIND, OPTIONS, ... are never answered, so nothing is echoed); a body
 * whose {@code Content-Type} is not {@code application/json} (415: {@code text/plain}, forms and multipart
 * are what a browser may send cross-site without asking first).
 */
final class RequestGuard extends Handler.Wrapper {
  private static final Logger LOG = LoggerFactory.getLogger(RequestGuard.class);
  static final int MAX_PATH_CHARS = 2048;
  private static final String SEGMENT = "[^/]+";
  private static final Set<String> DOCUMENTED = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");
  private static final String ANY_ROUTE_ALLOWS = "GET, POST, PUT, PATCH, DELETE";

  /** A documented path: its pattern over the raw path, and each method's route name (the metrics label). */
  private record Route(Pattern path, Map<String, String> methods) {
    String allow() {
      return String.join(", ", DOCUMENTED.stream().filter(methods::containsKey).sorted(RequestGuard::methodOrder).toList());
    }
  }

  private static int methodOrder(String a, String b) {
    List<String> order = List.of("GET", "POST", "PUT", "PATCH", "DELETE");
    return Integer.compare(order.indexOf(a), order.indexOf(b));
  }

  private final List<Route> routes;
  private final boolean loopback;
  private final Set<String> allowedHosts;
  private final Set<String> allowedOrigins;
  private final Metrics metrics;

  RequestGuard(ServerOptions options, Metrics metrics) {
    this.loopback = ServerOptions.isLoopback(options.host());
    this.allowedHosts = options.allowedHosts();
    this.allowedOrigins = options.allowedOrigins();
    this.metrics = metrics;
    String ns = "/v1/namespaces/" + SEGMENT;
    var list = new java.util.ArrayList<>(List.of(
        route("/v1/health", Map.of("GET", "health")),
        route("/v1/ready", Map.of("GET", "ready")),
        route("/v1/openapi\\.json", Map.of("GET", "openapi")),
        route("/metrics", Map.of("GET", "metrics")),
        route("/ui", Map.of("GET", "ui")),
        route("/ui/assets/" + SEGMENT, Map.of("GET", "uiAsset")),
        route("/v1/namespaces", Map.of("GET", "namespaces")),
        route(ns + "/retrieve", Map.of("POST", "retrieve")),
        route(ns + "/rewards", Map.of("POST", "reward")),
        route(ns + "/episodes", Map.of("POST", "endEpisode")),
        route(ns + "/memories", Map.of("GET", "list", "POST", "remember")),
        route(ns + "/memories/" + SEGMENT, Map.of("GET", "get", "PATCH", "edit", "DELETE", "forget")),
        route(ns + "/stats", Map.of("GET", "stats")),
        route(ns + "/config", Map.of("GET", "config", "PUT", "configure")),
        route(ns + "/overview", Map.of("GET", "overview")),
        route(ns + "/events", Map.of("GET", "events")),
        route(ns + "/memories/" + SEGMENT + "/history", Map.of("GET", "history")),
        route(ns + "/memories/" + SEGMENT + "/neighbours", Map.of("GET", "neighbours")),
        route(ns + "/explain", Map.of("POST", "explain")),
        route(ns + "/report", Map.of("GET", "report"))));
    if (options.mcp()) {
      list.add(route("/mcp", Map.of("GET", "mcp", "POST", "mcp", "DELETE", "mcp")));
    }
    this.routes = List.copyOf(list);
  }

  private static Route route(String regex, Map<String, String> methods) {
    return new Route(Pattern.compile(regex + "/?"), methods);
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    long start = System.nanoTime();
    String method = request.getMethod();
    String rawPath = request.getHttpURI().getPath();
    Route route = rawPath == null ? null : match(rawPath);
    String label = route == null ? "unmatched" : route.methods().getOrDefault(method, "unmatched");
    String methodLabel = DOCUMENTED.contains(method) ? method : "OTHER"; // a client's token never becomes a series
    Callback counted = new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        metrics.request("http", label, methodLabel, response.getStatus(), System.nanoTime() - start);
        super.succeeded();
      }

      @Override
      public void failed(Throwable x) {
        metrics.request("http", label, methodLabel, response.getStatus() < 400 ? 500 : response.getStatus(), System.nanoTime() - start);
        super.failed(x);
      }
    };
    Refusal refusal = check(request, rawPath, method, route);
    if (refusal != null) {
      if (refusal.allow() != null) {
        response.getHeaders().put(HttpHeader.ALLOW, refusal.allow());
      }
      LOG.info("event=refused status={} field={} message=\"{}\"", refusal.status(), refusal.field(), refusal.message());
      write(response, counted, refusal.status(), refusal.code(), refusal.field(), refusal.message());
      return true;
    }
    boolean handled = super.handle(request, response, counted);
    if (!handled) {
      write(response, counted, 404, "not_found", "", "no such route: " + method + " " + Requests.abbreviate(rawPath == null ? "" : rawPath));
    }
    return true;
  }

  private @Nullable Route match(String rawPath) {
    for (Route r : routes) {
      if (r.path().matcher(rawPath).matches()) {
        return r;
      }
    }
    return null;
  }

  private record Refusal(int status, String code, String field, String message, @Nullable String allow) {}

  private @Nullable Refusal check(Request request, @Nullable String rawPath, String method, @Nullable Route route) {
    String pathProblem = pathProblem(rawPath);
    if (pathProblem != null) {
      return new Refusal(400, "invalid_argument", "path", "path: " + pathProblem, null);
    }
    String query = request.getHttpURI().getQuery();
    String queryProblem = query == null ? null : escapesProblem(query, false);
    if (queryProblem != null) {
      return new Refusal(400, "invalid_argument", "query", "query: " + queryProblem, null);
    }
    String host = request.getHeaders().get(HttpHeader.HOST);
    String uriHost = request.getHttpURI().getHost();
    if (!hostAllowed(host) || (uriHost != null && !hostAllowed(uriHost))) {
      return new Refusal(421, "misdirected_request", "host", "host: '" + Requests.abbreviate(String.valueOf(host))
          + "' is not a name of this server" + (loopback ? " (it listens on loopback: use localhost, 127.0.0.1 or [::1])" : "")
          + "; add it with --allow-host if a proxy forwards it", null);
    }
    List<String> origins = request.getHeaders().getValuesList(HttpHeader.ORIGIN);
    for (String origin : origins) {
      if (!allowedOrigins.contains(normalizeOrigin(origin)) && !isOwnLoopbackOrigin(origin, Request.getLocalPort(request))) {
        return new Refusal(403, "forbidden", "origin", "origin: requests from browser pages of '" + Requests.abbreviate(origin)
            + "' are refused; only origins given with --allow-origin may call this server", null);
      }
    }
    if (route == null ? !DOCUMENTED.contains(method) : !route.methods().containsKey(method)) {
      String allow = route == null ? ANY_ROUTE_ALLOWS : route.allow();
      return new Refusal(405, "method_not_allowed", "method", "method " + Requests.abbreviate(method) + " is not allowed on "
          + Requests.abbreviate(rawPath) + " (allowed: " + allow + ")", allow);
    }
    if (hasBody(request)) {
      String type = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
      String problem = contentTypeProblem(type);
      if (problem != null) {
        return new Refusal(415, "unsupported_media_type", "content-type", "content-type: " + problem, null);
      }
    }
    return null;
  }

  private static boolean hasBody(Request request) {
    long length = request.getLength(); // -1 when chunked
    return length > 0 || (length < 0 && request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING));
  }

  /** Null if {@code type} is JSON in UTF-8 ({@code application/json}, optionally {@code ; charset=utf-8}). */
  static @Nullable String contentTypeProblem(@Nullable String type) {
    if (type == null || type.isBlank()) {
      return "missing; a request with a body must send 'Content-Type: application/json'";
    }
    String[] parts = type.split(";");
    String media = parts[0].strip().toLowerCase(Locale.ROOT);
    if (!media.equals("application/json")) {
      return "'" + Requests.abbreviate(type) + "' is not accepted; send 'Content-Type: application/json'";
    }
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip().toLowerCase(Locale.ROOT);
      if (p.startsWith("charset=") && !p.substring(8).replace("\"", "").equals("utf-8")) {
        return "'" + Requests.abbreviate(type) + "': the body must be UTF-8";
      }
    }
    return null;
  }

  /** Null if the raw (still encoded) path is well formed; otherwise what is wrong with it. */
  static @Nullable String pathProblem(@Nullable String raw) {
    if (raw == null || raw.isEmpty()) {
      return "missing";
    }
    if (raw.length() > MAX_PATH_CHARS) {
      return "is " + raw.length() + " characters, over the limit of " + MAX_PATH_CHARS;
    }
    return escapesProblem(raw, true);
  }

  /** Null if every percent-escape of {@code raw} is two hex digits and they decode to UTF-8 (in a path: no '/', '\', control). */
  private static @Nullable String escapesProblem(String raw, boolean path) {
    if (raw.length() > MAX_PATH_CHARS) {
      return "is " + raw.length() + " characters, over the limit of " + MAX_PATH_CHARS;
    }
    java.io.ByteArrayOutputStream segment = new java.io.ByteArrayOutputStream();
    for (int i = 0; i < raw.length(); i++) {
      char c = raw.charAt(i);
      if (c != '%') {
        if (c < 0x21 || c >= 0x7f) {
          return "holds a raw control, space or non-ASCII character at index " + i;
        }
        segment.write(c);
        continue;
      }
      if (i + 2 >= raw.length() || hex(raw.charAt(i + 1)) < 0 || hex(raw.charAt(i + 2)) < 0) {
        return "malformed percent-escape at index " + i + " ('%' must be followed by two hex digits)";
      }
      int b = hex(raw.charAt(i + 1)) * 16 + hex(raw.charAt(i + 2));
      if (path && (b == '/' || b == '\\' || b < 0x20 || b == 0x7f)) {
        return "percent-escape at index " + i + " encodes '/', '\\' or a control character, which no route accepts";
      }
      segment.write(b);
      i += 2;
    }
    try {
      StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(segment.toByteArray()));
    } catch (CharacterCodingException e) {
      return "percent-escapes do not decode to valid UTF-8";
    }
    return null;
  }

  private static int hex(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
  }

  private boolean hostAllowed(@Nullable String hostHeader) {
    if (hostHeader == null) {
      return !loopback; // HTTP/1.0 without Host: nothing to rebind, but on loopback we insist, as browsers always send one
    }
    String name = hostName(hostHeader);
    if (allowedHosts.contains(name)) {
      return true;
    }
    return loopback ? ServerOptions.isLoopback(name) : allowedHosts.isEmpty();
  }

  /** {@code host[:port]} or {@code [v6][:port]} without the port, lower case. */
  static String hostName(String hostHeader) {
    String h = hostHeader.strip().toLowerCase(Locale.ROOT);
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return end > 0 ? h.substring(1, end) : h;
    }
    int colon = h.indexOf(':');
    return colon >= 0 ? h.substring(0, colon) : h;
  }

  /**
   * Whether {@code origin} is this very server reached on loopback ({@code http://localhost:<its port>}): the
   * only page it serves is its own inspector ({@code /ui}), and no other site can have that origin, so a client that
   * sends it (the inspector, or the MCP conformance suite) is not a cross-site page.
   */
  private static boolean isOwnLoopbackOrigin(String origin, int localPort) {
    try {
      java.net.URI u = java.net.URI.create(origin.strip());
      int port = u.getPort() >= 0 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
      return u.getHost() != null && ServerOptions.isLoopback(u.getHost().toLowerCase(Locale.ROOT)) && port == localPort
          && ("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()));
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  /** {@code scheme://host[:port]}, lower case, without a trailing slash: how origins are compared. */
  static String normalizeOrigin(String origin) {
    String o = origin.strip().toLowerCase(Locale.ROOT);
    return o.endsWith("/") ? o.substring(0, o.length() - 1) : o;
  }

  private static void write(Response response, Callback callback, int status, String code, String field, String message) {
    byte[] body = Json.bytes(HttpErrors.body(code, field, message));
    response.setStatus(status);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
  }
}
