package io.memloop.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself, before any route runs (an illegal character in the path, a malformed
 * request line, headers too large): the same JSON error body as every other answer, never an HTML page.
 * {@link #onServer()} goes on the server (bad requests found while parsing, which also close the
 * connection: said so in a {@code Connection: close} header), {@link #onServletContext()} on the servlet
 * context.
 */
final class JsonErrorHandler {
  private JsonErrorHandler() {}

  /** @param metrics counts these answers too: no handler (so no {@link RequestGuard}) saw their request */
  static ErrorHandler onServer(Metrics metrics) {
    return new ErrorHandler() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        // the server answers here only for requests it could not parse; it closes the connection after them
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        long start = System.nanoTime();
        return JsonErrorHandler.write(request, response, Callback.from(callback, () ->
            metrics.request("http", "malformed", "OTHER", response.getStatus(), System.nanoTime() - start)));
      }
    };
  }

  static org.eclipse.jetty.ee10.servlet.ErrorHandler onServletContext() {
    return new org.eclipse.jetty.ee10.servlet.ErrorHandler() {
      @Override
      public boolean handle(Request request, Response response, Callback callback) {
        return JsonErrorHandler.write(request, response, callback);
      }
    };
  }

  private static boolean write(Request request, Response response, Callback callback) {
    int code = request.getAttribute(ErrorHandler.ERROR_STATUS) instanceof Integer i ? i : response.getStatus();
    if (code < 400) {
      code = 500;
    }
    Object m = request.getAttribute(ErrorHandler.ERROR_MESSAGE);
    String text = m == null || m.toString().isBlank() || Leaks.find(m.toString()) != null
        ? "the request is malformed" : Requests.abbreviate(m.toString());
    String name = code == 413 || code == 431 ? "too_large" : code >= 500 ? "internal" : code == 404 ? "not_found" : "invalid_argument";
    byte[] body = Json.write(HttpErrors.body(name, code == 431 ? "headers" : "", "request: " + text)).getBytes(StandardCharsets.UTF_8);
    response.setStatus(code);
    response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
    response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
    response.write(true, ByteBuffer.wrap(body), callback);
    return true;
  }
}
