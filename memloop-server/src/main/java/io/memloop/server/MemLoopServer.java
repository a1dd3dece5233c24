package io.memloop.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.memloop.Checks;
import io.memloop.MemLoop;
import io.memloop.MemLoopException;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import jakarta.servlet.DispatcherType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code memloop serve}: the engine as an HTTP/JSON API ({@code /v1/...}, described by the OpenAPI
 * document at {@code /v1/openapi.json}) and an MCP server (streamable HTTP at {@code /mcp}), for many
 * agents at once, on Jetty with virtual threads.
 *
 * <p>Every {@code /v1/namespaces/...} route and {@code /mcp} needs an API key ({@code Authorization:
 * Bearer <key>}): none or an unknown one is 401; a namespace the key may not use is 404, exactly as a
 * namespace that does not exist, so keys cannot probe for other tenants. {@code /v1/health},
 * {@code /v1/ready}, {@code /v1/openapi.json}, {@code /metrics} (Prometheus) and the memory inspector's static
 * page at {@code /ui} ({@link UiAssets}; its data calls need a key like any client) are open: the server binds
 * to loopback unless told otherwise. Before any route, {@link RequestGuard} refuses browsers of other sites,
 * rebinding {@code Host}s, non-JSON bodies, undocumented methods and malformed paths, and counts every answer;
 * {@link McpGate} stands before the MCP SDK. Ids are shown to clients as opaque tokens ({@link IdCodec}).
 *
 * <p>Bad input is a 4xx with {@code {"error": {"code", "field", "message"}}} and changes nothing. {@link
 * #close()} stops accepting connections, lets in-flight requests finish (up to the drain timeout) and
 * closes the MCP sessions; the engine (and its store) belongs to the caller.
 */
public final class MemLoopServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MemLoopServer.class);
  static final String GRANT = "memloop.grant";
  private static final String ANSWERED = "memloop.answered";
  public static final String VERSION = "0.1.0";

  private final Javalin app;
  private final Service service;
  private final ApiKeys keys;
  private final Metrics metrics;
  private final ServerOptions options;
  private final @Nullable McpSyncServer mcp;
  private final byte[] openApi;
  private final UiAssets ui;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final GracefulHandler graceful = new GracefulHandler();

  private MemLoopServer(MemLoop loop, ApiKeys keys, ServerOptions options) {
    this.keys = keys;
    this.options = options;
    this.metrics = new Metrics(loop.store(), options.storeDirectory(), options.metricsNamespaces());
    this.service = new Service(loop, options, metrics, options.ids() == null ? IdCodec.random() : options.ids());
    this.openApi = resource("openapi.json");
    this.ui = UiAssets.load();
    HttpServletStreamableServerTransportProvider transport = null;
    if (options.mcp()) {
      transport = HttpServletStreamableServerTransportProvider.builder()
          .jsonMapper(McpTools.JSON)
          .mcpEndpoint("/mcp")
          .contextExtractor(req -> McpTransportContext.create(Map.of(GRANT, req.getAttribute(GRANT))))
          .build(); // Host and Origin are checked for every route by RequestGuard
      McpTools tools = new McpTools(service, metrics,
          exchange -> exchange.transportContext().get(GRANT) instanceof ApiKeys.Grant g ? g : null, null);
      this.mcp = McpServer.sync(transport)
          .serverInfo("memloop", VERSION)
          .instructions(MCP_INSTRUCTIONS)
          .capabilities(ServerCapabilities.builder().tools(false).build())
          .tools(tools.tools())
          .build();
    } else {
      this.mcp = null;
    }
    HttpServletStreamableServerTransportProvider mcpServlet = transport;
    this.app = Javalin.create(cfg -> {
      cfg.startup.showJavalinBanner = false;
      cfg.startup.showOldJavalinVersionWarning = false;
      // Jetty's own pool: platform threads select and accept, every request runs on a virtual thread.
      QueuedThreadPool pool = new QueuedThreadPool(64, 4);
      pool.setName("memloop-http");
      pool.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("memloop-request-"));
      cfg.jetty.threadPool = pool;
      cfg.http.prefer405over404 = true;
      // the routes enforce maxBodyBytes themselves and read an oversized body to its end before answering 413,
      // so that the connection stays usable; Javalin's own check (which does not) only past DRAIN_LIMIT
      cfg.http.maxRequestSize = DRAIN_LIMIT;
      cfg.jetty.host = options.host();
      cfg.jetty.port = options.port();
      cfg.jetty.modifyServer(server -> {
        server.setStopTimeout(options.drainTimeout().toMillis());
        // once stopping, Jetty gives connections only a "shutdown idle timeout" (1 s by default) to go quiet, and
        // cut a client still uploading its body ("Idle timeout expired") long before the drain timeout: align them
        graceful.setShutdownIdleTimeout(Math.max(1, options.drainTimeout().toMillis()));
        server.insertHandler(graceful);
        server.insertHandler(new RequestGuard(options, metrics)); // checks and counts every request
        // outermost: knows which connections have a request in progress, and closes the others when the stop
        // begins, so that an idle keep-alive connection does not hold the stop for the whole drain
        server.insertHandler(new IdleConnections());
        server.setErrorHandler(JsonErrorHandler.onServer(metrics));
      });
      cfg.jetty.modifyServletContextHandler(h -> h.setErrorHandler(JsonErrorHandler.onServletContext()));
      if (mcpServlet != null) {
        cfg.jetty.modifyServletContextHandler(h -> {
          ServletHolder holder = new ServletHolder("mcp", mcpServlet);
          holder.setAsyncSupported(true);
          h.addServlet(holder, "/mcp");
          h.addFilter(new FilterHolder(new McpGate(this::grantOf, options.maxBodyBytes())), "/mcp", EnumSet.of(DispatcherType.REQUEST));
        });
      }
      var r = cfg.routes;
      r.get("/v1/health", ctx -> route(ctx, "health", () -> {
        json(ctx, 200, Map.of("status", "ok"));
      }));
      r.get("/v1/ready", ctx -> route(ctx, "ready", () -> {
        if (closed.get()) {
          json(ctx, 503, Map.of("status", "stopping"));
        } else {
          loop.store().namespaces(); // throws if the store is unusable
          json(ctx, 200, Map.of("status", "ready"));
        }
      }));
      r.get("/v1/openapi.json", ctx -> route(ctx, "openapi", () -> {
        ctx.status(200).contentType("application/json").result(openApi);
        ctx.attribute(ANSWERED, true);
      }));
      r.get("/metrics", ctx -> route(ctx, "metrics", () -> {
        ctx.status(200).contentType("text/plain; version=0.0.4; charset=utf-8").result(metrics.scrape());
        ctx.attribute(ANSWERED, true);
      }));
      // The memory inspector (UiAssets): static and open like /v1/openapi.json; its data calls go to /v1 with a key.
      r.get("/ui", ctx -> route(ctx, "ui", () -> {
        UiAssets.answer(ctx, ui.index(), false);
        ctx.attribute(ANSWERED, true);
      }));
      r.get("/ui/", ctx -> route(ctx, "ui", () -> {
        UiAssets.answer(ctx, ui.index(), false);
        ctx.attribute(ANSWERED, true);
      }));
      r.get("/ui/assets/{name}", ctx -> route(ctx, "uiAsset", () -> {
        var asset = ui.asset(ctx.pathParam("name"));
        if (asset.isPresent()) {
          UiAssets.answer(ctx, asset.get(), true);
          ctx.attribute(ANSWERED, true);
        } else {
          UiAssets.securityHeaders(ctx);
          json(ctx, 404, HttpErrors.body("not_found", "path", "no such file of the inspector: " + Requests.abbreviate(ctx.path())));
        }
      }));
      r.get("/v1/namespaces", ctx -> route(ctx, "namespaces", () -> {
        ApiKeys.Grant g = authenticate(ctx);
        var visible = loop.store().namespaces().stream().filter(g::allows).sorted().toList();
        json(ctx, 200, Map.of("namespaces", visible));
      }));
      r.post("/v1/namespaces/{ns}/retrieve", ctx -> route(ctx, "retrieve", () ->
          json(ctx, 200, service.retrieve(namespace(ctx), body(ctx)))));
      r.post("/v1/namespaces/{ns}/rewards", ctx -> route(ctx, "reward", () ->
          json(ctx, 200, service.reward(namespace(ctx), body(ctx)))));
      r.post("/v1/namespaces/{ns}/memories", ctx -> route(ctx, "remember", () ->
          json(ctx, 201, service.remember(namespace(ctx), body(ctx)))));
      r.post("/v1/namespaces/{ns}/episodes", ctx -> route(ctx, "endEpisode", () ->
          json(ctx, 201, service.endEpisode(namespace(ctx), body(ctx)))));
      r.get("/v1/namespaces/{ns}/memories", ctx -> route(ctx, "list", () ->
          json(ctx, 200, service.list(namespace(ctx), ctx.queryParamMap()))));
      r.patch("/v1/namespaces/{ns}/memories/{id}", ctx -> route(ctx, "edit", () ->
          json(ctx, 200, service.edit(namespace(ctx), ctx.pathParam("id"), body(ctx)))));
      r.get("/v1/namespaces/{ns}/memories/{id}", ctx -> route(ctx, "get", () ->
          json(ctx, 200, service.get(namespace(ctx), ctx.pathParam("id")))));
      r.delete("/v1/namespaces/{ns}/memories/{id}", ctx -> route(ctx, "forget", () -> {
        service.forget(namespace(ctx), ctx.pathParam("id"));
        ctx.status(204);
        ctx.attribute(ANSWERED, true);
      }));
      r.get("/v1/namespaces/{ns}/stats", ctx -> route(ctx, "stats", () ->
          json(ctx, 200, service.stats(namespace(ctx)))));
      r.get("/v1/namespaces/{ns}/config", ctx -> route(ctx, "config", () ->
          json(ctx, 200, service.config(namespace(ctx)))));
      r.put("/v1/namespaces/{ns}/config", ctx -> route(ctx, "configure", () ->
          json(ctx, 200, service.configure(namespace(ctx), body(ctx)))));
      // the inspector (the page at /ui and any client): read-only views
      r.get("/v1/namespaces/{ns}/overview", ctx -> route(ctx, "overview", () ->
          json(ctx, 200, service.inspector().overview(namespace(ctx), ctx.queryParamMap()))));
      r.get("/v1/namespaces/{ns}/events", ctx -> route(ctx, "events", () ->
          json(ctx, 200, service.inspector().events(namespace(ctx), ctx.queryParamMap()))));
      r.get("/v1/namespaces/{ns}/memories/{id}/history", ctx -> route(ctx, "history", () ->
          json(ctx, 200, service.inspector().history(namespace(ctx), ctx.pathParam("id"), ctx.queryParamMap()))));
      r.get("/v1/namespaces/{ns}/memories/{id}/neighbours", ctx -> route(ctx, "neighbours", () ->
          json(ctx, 200, service.inspector().neighbours(namespace(ctx), ctx.pathParam("id"), ctx.queryParamMap()))));
      r.post("/v1/namespaces/{ns}/explain", ctx -> route(ctx, "explain", () ->
          json(ctx, 200, service.inspector().explain(namespace(ctx), body(ctx)))));
      r.get("/v1/namespaces/{ns}/report", ctx -> route(ctx, "report", () ->
          json(ctx, 200, service.inspector().report(namespace(ctx), ctx.queryParamMap()))));
      // Unmatched paths and methods, and errors Javalin raises itself (413, ...): the same JSON body.
      for (int status : new int[] {404, 405, 413, 400, 500}) {
        r.error(status, ctx -> {
          drainQuietly(ctx); // an unread body would make Jetty close the connection without saying so
          if (ctx.attribute(ANSWERED) == null) {
            String code = switch (status) {
              case 404 -> "not_found";
              case 405 -> "method_not_allowed";
              case 413 -> "too_large";
              case 400 -> "invalid_argument";
              default -> "internal";
            };
            String message = switch (status) {
              case 404 -> "no such route: " + ctx.method() + " " + Requests.abbreviate(ctx.path());
              case 405 -> "method " + ctx.method() + " is not allowed on " + Requests.abbreviate(ctx.path());
              case 413 -> "body: over the limit of " + options.maxBodyBytes() + " bytes";
              case 400 -> "bad request";
              default -> "internal error; the server log has the details";
            };
            ctx.contentType("application/json").result(Json.write(HttpErrors.body(code, status == 413 ? "body" : "", message)));
          }
        });
      }
    });
  }

  static final String MCP_INSTRUCTIONS = """
      MemLoop is an experience memory that learns which experiences help. Before a task, call \
      retrieve_experiences with your intent (the task, in a sentence); after it, call end_episode with the retrievalId, whether it \
      succeeded and what worked or what went wrong (or report_outcome, then remember_experience).""";

  /**
   * Starts serving {@code loop} with {@code keys}.
   *
   * @throws MemLoopException STORE_UNAVAILABLE if the address cannot be bound
   */
  public static MemLoopServer start(MemLoop loop, ApiKeys keys, ServerOptions options) {
    MemLoopServer s = new MemLoopServer(loop, keys, options);
    try {
      s.app.start();
    } catch (RuntimeException e) {
      s.metrics.close();
      throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "--port",
          "--port: cannot listen on " + options.host() + ":" + options.port() + ": " + rootMessage(e), e);
    }
    LOG.info("event=started host={} port={} mcp={} keys={}", options.host(), s.port(), options.mcp(), keys.grants().size());
    return s;
  }

  /** The port it listens on (the chosen one when started with port 0). */
  public int port() {
    return app.port();
  }

  /** Requests being handled now (for tests of the drain on close). */
  long requestsInFlight() {
    return graceful.getCurrentRequestCount();
  }

  /** {@code http://host:port} of this server. */
  public URI uri() {
    String h = options.host().contains(":") ? "[" + options.host() + "]" : options.host();
    return URI.create("http://" + h + ":" + port());
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (mcp != null) {
        mcp.closeGracefully(); // ends the MCP sessions and their open event streams, which never finish by themselves
      }
    } finally {
      try {
        app.stop(); // graceful: in-flight requests finish, up to the drain timeout
      } catch (RuntimeException e) {
        LOG.warn("event=stop_timeout drainTimeout={} message=\"requests still running were cut off\"", options.drainTimeout());
      } finally {
        metrics.close();
        LOG.info("event=stopped");
      }
    }
  }

  /** Runs a route: times it, and turns every failure into the JSON error answer. */
  private void route(Context ctx, String name, Runnable body) {
    long start = System.nanoTime();
    try {
      body.run();
    } catch (MemLoopException e) {
      int status = HttpErrors.status(e);
      if (status >= 500) {
        LOG.error("event=error route={} reason={} message=\"{}\"", name, e.reason(), e.getMessage(), e);
      }
      if (status == 401) {
        ctx.header("WWW-Authenticate", "Bearer");
      }
      json(ctx, status, HttpErrors.body(e));
    } catch (Unauthorized e) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"memloop\"");
      json(ctx, 401, HttpErrors.body("unauthorized", "authorization", e.getMessage()));
    } catch (TooLarge e) {
      json(ctx, 413, HttpErrors.body("too_large", "body", e.getMessage()));
    } catch (RuntimeException e) {
      LOG.error("event=error route={} unexpected", name, e);
      json(ctx, 500, HttpErrors.body("internal", "", "internal error; the server log has the details"));
    } finally {
      drainQuietly(ctx); // a request refused before its body was read (bad key, other tenant) keeps its connection usable
      long nanos = System.nanoTime() - start; // counted in memloop_requests_seconds by RequestGuard, as every answer
      int status = ctx.statusCode();
      if (LOG.isDebugEnabled()) {
        LOG.debug("event=request route={} method={} status={} micros={}", name, ctx.method(), status, nanos / 1000);
      }
    }
  }

  /**
   * Answers with {@code body} as JSON, written straight to the response (Javalin's result path would copy it
   * through a fresh buffer per response: the largest allocation of a request under load).
   */
  private static void json(Context ctx, int status, Object body) {
    byte[] bytes = Json.bytes(body);
    ctx.status(status).contentType("application/json");
    ctx.attribute(ANSWERED, true);
    ctx.res().setContentLength(bytes.length);
    try {
      ctx.res().getOutputStream().write(bytes);
    } catch (IOException e) {
      LOG.debug("event=client_gone message=\"{}\"", e.getMessage()); // nothing left to answer to
    }
  }

  private ApiKeys.Grant authenticate(Context ctx) {
    return grantOf(ctx.header("Authorization")).orElseThrow(() -> new Unauthorized(
        ctx.header("Authorization") == null
            ? "authorization: missing; send 'Authorization: Bearer <API key>'"
            : "authorization: not a valid API key"));
  }

  Optional<ApiKeys.Grant> grantOf(@Nullable String header) {
    if (header == null && options.openNamespace() != null) {
      return Optional.of(new ApiKeys.Grant("open", java.util.Set.of(options.openNamespace())));
    }
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return Optional.empty();
    }
    return keys.authenticate(header.substring(7).trim());
  }

  /** The {@code {ns}} path parameter, once the key is known to allow it. */
  private String namespace(Context ctx) {
    ApiKeys.Grant grant = authenticate(ctx);
    String ns = ctx.pathParam("ns");
    Checks.requireNamespace(ns);
    if (!grant.allows(ns)) {
      throw HttpErrors.namespaceNotFound(ns);
    }
    return ns;
  }

  /** Beyond this, an oversized body is not read to its end: the connection is closed instead. */
  static final long DRAIN_LIMIT = 16L << 20;

  /**
   * The request body, at most {@link ServerOptions#maxBodyBytes()}, as a JSON object (the operation checks its fields). An
   * oversized body (up to {@link #DRAIN_LIMIT}) is read to its end before the 413, so that the client,
   * still sending, reads the answer instead of a reset connection.
   */
  private ObjectNode body(Context ctx) {
    long declared = ctx.req().getContentLengthLong();
    int max = options.maxBodyBytes();
    try (InputStream in = ctx.req().getInputStream()) {
      if (declared > DRAIN_LIMIT) {
        throw new TooLarge("body: " + declared + " bytes, over the limit of " + max);
      }
      // a declared length is read into an array of that size; otherwise in chunks, up to one byte past the limit
      byte[] bytes = declared >= 0 && declared <= max ? readExactly(in, (int) declared) : in.readNBytes(max + 1);
      if (bytes.length > max) {
        long rest = drain(in);
        throw new TooLarge("body: " + (rest < 0 ? "over " + DRAIN_LIMIT : bytes.length + rest) + " bytes, over the limit of " + max);
      }
      return Requests.parse(bytes);
    } catch (IOException e) {
      throw MemLoopException.invalid("body", "could not be read: " + e.getMessage());
    }
  }

  /** {@code n} bytes, or fewer if the body ends first (Jetty then reports the short body itself). */
  private static byte[] readExactly(InputStream in, int n) throws IOException {
    byte[] bytes = new byte[n];
    int got = in.readNBytes(bytes, 0, n);
    return got == n ? bytes : java.util.Arrays.copyOf(bytes, got);
  }

  private static void drainQuietly(Context ctx) {
    try {
      drain(ctx.req().getInputStream());
    } catch (IOException | RuntimeException e) {
      // the client went away, or the body was refused: the connection closes, nothing else to do
    }
  }

  /** Reads and drops what is left of a body, up to {@link #DRAIN_LIMIT}; the bytes read, or -1 if it went past. */
  static long drain(InputStream in) throws IOException {
    if (in instanceof jakarta.servlet.ServletInputStream body && body.isFinished()) {
      return 0; // the usual case: the body was read; no buffer needed
    }
    long n = 0;
    byte[] buf = new byte[8 << 10];
    int r;
    while ((r = in.read(buf)) >= 0) {
      n += r;
      if (n > DRAIN_LIMIT) {
        return -1;
      }
    }
    return n;
  }

  private static byte[] resource(String name) {
    try (InputStream in = MemLoopServer.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the build");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
  }

  private static final class Unauthorized extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unauthorized(String message) {
      super(message, null, false, false);
    }
  }

  private static final class TooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLarge(String message) {
      super(message, null, false, false);
    }
  }
}
