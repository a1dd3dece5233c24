package io.memloop.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoopException;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What stands between a client and the MCP SDK's transport at {@code /mcp}: the API key (401), the body size
 * (413), the body itself (strict UTF-8, one JSON-RPC 2.0 object: otherwise a JSON-RPC error with HTTP 400,
 * code -32700 or -32600, before the SDK sees it), the session's owner (a session belongs to the key that
 * opened it: with another key it is 404, as a session that does not exist), and the SDK's own error answers,
 * which serialise a Java exception with its stack: replaced by a short JSON error.
 */
final class McpGate implements Filter {
  private static final Logger LOG = LoggerFactory.getLogger(McpGate.class);
  static final String SESSION_HEADER = "Mcp-Session-Id";
  private static final String NO_SESSION = "mcp-session-id: no such session (it ended, or was opened with another API key)";

  private final Function<@Nullable String, Optional<ApiKeys.Grant>> grants;
  private final int maxBodyBytes;
  private final ConcurrentHashMap<String, ApiKeys.Grant> owners = new ConcurrentHashMap<>();

  McpGate(Function<@Nullable String, Optional<ApiKeys.Grant>> grants, int maxBodyBytes) {
    this.grants = grants;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
    HttpServletRequest req = (HttpServletRequest) request;
    HttpServletResponse res = (HttpServletResponse) response;
    Optional<ApiKeys.Grant> grant = grants.apply(req.getHeader("Authorization"));
    if (grant.isEmpty()) {
      MemLoopServer.drain(req.getInputStream());
      res.setHeader("WWW-Authenticate", "Bearer realm=\"memloop\"");
      write(res, 401, HttpErrors.body("unauthorized", "authorization", "authorization: send 'Authorization: Bearer <API key>'"));
      return;
    }
    long declared = req.getContentLengthLong();
    if (declared > maxBodyBytes) {
      if (declared <= MemLoopServer.DRAIN_LIMIT) {
        MemLoopServer.drain(req.getInputStream()); // read to its end, so the client, still sending, gets the answer
      }
      write(res, 413, HttpErrors.body("too_large", "body", "body: " + declared + " bytes, over the limit of " + maxBodyBytes));
      return;
    }
    String session = req.getHeader(SESSION_HEADER);
    if (session != null) {
      ApiKeys.Grant owner = owners.get(session);
      if (owner != null && !owner.equals(grant.get())) {
        MemLoopServer.drain(req.getInputStream());
        write(res, 404, HttpErrors.body("not_found", "mcp-session-id", NO_SESSION));
        return;
      }
    }
    HttpServletRequest forwarded = req;
    if (req.getMethod().equals("POST")) {
      byte[] body = req.getInputStream().readNBytes(maxBodyBytes + 1);
      if (body.length > maxBodyBytes) {
        MemLoopServer.drain(req.getInputStream());
        write(res, 413, HttpErrors.body("too_large", "body", "body: over the limit of " + maxBodyBytes + " bytes"));
        return;
      }
      JsonRpcProblem problem = jsonRpcProblem(body);
      if (problem != null) {
        write(res, 400, jsonRpcError(problem.code(), problem.message()));
        return;
      }
      forwarded = new BufferedBody(req, body);
    }
    req.setAttribute(MemLoopServer.GRANT, grant.get());
    ErrorCapture wrapped = new ErrorCapture(res, grant.get());
    chain.doFilter(forwarded, wrapped);
    wrapped.finish();
    if (session != null && req.getMethod().equals("DELETE") && wrapped.getStatus() < 300) {
      owners.remove(session);
    }
  }

  record JsonRpcProblem(int code, String message) {}

  /** Null if {@code body} is one JSON-RPC 2.0 request, notification or response (MCP sends no batches). */
  static @Nullable JsonRpcProblem jsonRpcProblem(byte[] body) {
    JsonNode node;
    try {
      node = Json.MAPPER.readTree(Requests.utf8(body));
    } catch (MemLoopException e) {
      return new JsonRpcProblem(-32700, "parse error: " + e.getMessage());
    } catch (IOException e) {
      return new JsonRpcProblem(-32700, "parse error: body is not valid JSON");
    }
    if (node == null || node.isMissingNode()) {
      return new JsonRpcProblem(-32600, "invalid request: the body is empty; send one JSON-RPC 2.0 message");
    }
    if (!node.isObject()) {
      return new JsonRpcProblem(-32600, "invalid request: the body must be one JSON-RPC 2.0 message (an object), got " + Requests.kind(node));
    }
    JsonNode version = node.get("jsonrpc");
    if (version == null || !version.isTextual() || !version.textValue().equals("2.0")) {
      return new JsonRpcProblem(-32600, "invalid request: 'jsonrpc' must be \"2.0\"");
    }
    JsonNode id = node.get("id");
    if (id != null && !(id.isTextual() || id.isIntegralNumber())) {
      return new JsonRpcProblem(-32600, "invalid request: 'id' must be a string or an integer");
    }
    JsonNode method = node.get("method");
    if (method != null) {
      if (!method.isTextual() || method.textValue().isEmpty() || method.textValue().length() > 256) {
        return new JsonRpcProblem(-32600, "invalid request: 'method' must be a non-empty string");
      }
      JsonNode params = node.get("params");
      if (params != null && !params.isObject()) {
        return new JsonRpcProblem(-32600, "invalid request: 'params' must be an object");
      }
      return null;
    }
    boolean result = node.has("result");
    boolean error = node.has("error");
    if (id == null || result == error || (error && !node.get("error").isObject())) {
      return new JsonRpcProblem(-32600, "invalid request: neither a request ('method'), nor a response ('id' with 'result' or 'error')");
    }
    return null;
  }

  static Map<String, Object> jsonRpcError(int code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("jsonrpc", "2.0");
    out.put("id", null);
    out.put("error", error);
    return out;
  }

  private static void write(HttpServletResponse res, int status, Object body) throws IOException {
    byte[] bytes = Json.bytes(body);
    res.setStatus(status);
    res.setContentType("application/json");
    res.setContentLength(bytes.length);
    res.getOutputStream().write(bytes);
  }

  /** The request with its body already read (and checked). */
  private static final class BufferedBody extends HttpServletRequestWrapper {
    private final byte[] body;

    BufferedBody(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      InputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() throws IOException {
          return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
          return in.read(b, off, len);
        }

        @Override
        public boolean isFinished() {
          try {
            return in.available() == 0;
          } catch (IOException e) {
            return true;
          }
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new IllegalStateException("the body was read already");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(new StringReader(new String(body, StandardCharsets.UTF_8)));
    }

    @Override
    public int getContentLength() {
      return body.length;
    }

    @Override
    public long getContentLengthLong() {
      return body.length;
    }
  }

  /**
   * The SDK's answer, with its error answers held back and replaced: it writes them as a serialised Java
   * exception (class names, a stack trace), or through {@code sendError}. It also records the owner of a
   * session when the SDK opens one.
   */
  private final class ErrorCapture extends HttpServletResponseWrapper {
    private final ApiKeys.Grant grant;
    private int errorStatus;
    private final ByteArrayOutputStream held = new ByteArrayOutputStream();
    private @Nullable PrintWriter heldWriter;

    ErrorCapture(HttpServletResponse response, ApiKeys.Grant grant) {
      super(response);
      this.grant = grant;
    }

    @Override
    public void setStatus(int sc) {
      if (sc >= 400) {
        errorStatus = sc;
      }
      super.setStatus(sc);
    }

    @Override
    public void sendError(int sc, String msg) {
      errorStatus = sc;
    }

    @Override
    public void sendError(int sc) {
      errorStatus = sc;
    }

    @Override
    public void setHeader(String name, String value) {
      if (name.equalsIgnoreCase(SESSION_HEADER) && value != null) {
        owners.putIfAbsent(value, grant); // before the client can learn the id
      }
      super.setHeader(name, value);
    }

    @Override
    public void addHeader(String name, String value) {
      if (name.equalsIgnoreCase(SESSION_HEADER) && value != null) {
        owners.putIfAbsent(value, grant);
      }
      super.addHeader(name, value);
    }

    @Override
    public ServletOutputStream getOutputStream() throws IOException {
      if (errorStatus == 0) {
        return super.getOutputStream();
      }
      return new ServletOutputStream() {
        @Override
        public void write(int b) {
          if (held.size() < 16 << 10) {
            held.write(b);
          }
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setWriteListener(WriteListener listener) {
          throw new IllegalStateException("not asynchronous");
        }
      };
    }

    @Override
    public PrintWriter getWriter() throws IOException {
      if (errorStatus == 0) {
        return super.getWriter();
      }
      if (heldWriter == null) {
        heldWriter = new PrintWriter(new OutputStreamWriter(getOutputStream(), StandardCharsets.UTF_8), true);
      }
      return heldWriter;
    }

    @Override
    public void flushBuffer() throws IOException {
      if (errorStatus == 0) {
        super.flushBuffer();
      }
    }

    /** Writes the short error answer in place of the SDK's, if it gave one. */
    void finish() throws IOException {
      if (errorStatus == 0) {
        return;
      }
      HttpServletResponse res = (HttpServletResponse) getResponse();
      if (res.isCommitted()) {
        return;
      }
      if (heldWriter != null) {
        heldWriter.flush();
      }
      String sdkMessage = sdkMessage(held.toByteArray());
      res.resetBuffer();
      Object body = switch (errorStatus) {
        case 400 -> jsonRpcError(-32600, sdkMessage != null ? "invalid request: " + sdkMessage
            : "invalid request: not a valid MCP message for this endpoint");
        case 404 -> HttpErrors.body("not_found", "mcp-session-id", NO_SESSION);
        case 405 -> HttpErrors.body("method_not_allowed", "method", "method: not allowed on /mcp");
        case 406 -> HttpErrors.body("not_acceptable", "accept", "accept: " + (sdkMessage == null ? "not acceptable" : sdkMessage));
        case 503 -> HttpErrors.body("store_unavailable", "", "the server is shutting down");
        default -> {
          if (errorStatus >= 500) {
            LOG.warn("event=mcp_error status={} message=\"{}\"", errorStatus, Requests.abbreviate(String.valueOf(sdkMessage)));
            yield HttpErrors.body("internal", "", "internal error; the server log has the details");
          }
          yield HttpErrors.body("invalid_argument", "", sdkMessage == null ? "the request was refused" : sdkMessage);
        }
      };
      write(res, errorStatus, body);
    }
  }

  /** The SDK's error message when it is one a client may read (no class names, no exception text). */
  private static @Nullable String sdkMessage(byte[] held) {
    if (held.length == 0) {
      return null;
    }
    try {
      JsonNode n = Json.MAPPER.readTree(held);
      JsonNode m = n == null ? null : n.get("message");
      if (m == null || !m.isTextual()) {
        return null;
      }
      String s = m.textValue();
      return s.length() > 200 || Leaks.find(s) != null || s.startsWith("Invalid message format") || s.startsWith("Error processing")
          ? null : s;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}
