package io.memloop.server;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;

/**
 * Closes the connections that have no request in progress as soon as the server starts its graceful stop.
 *
 * <p>The drain ({@link ServerOptions#drainTimeout()}) is also every connection's idle timeout once stopping, so
 * that a client still sending a body is not cut after Jetty's one second. An HTTP/1.1 client that merely keeps
 * its connection alive between requests would then hold the stop for the whole drain (10 s by default) with
 * nothing to finish. This handler knows which connections have a request being handled; when the stop begins it
 * closes every other one. A connection busy at that moment answers its request and then closes (Jetty marks
 * answers {@code Connection: close} while stopping).
 */
final class IdleConnections extends Handler.Wrapper implements Graceful {
  /** Connection → how many of its requests are being handled (HTTP/1.1: at most one). */
  private final Map<EndPoint, Integer> busy = new ConcurrentHashMap<>();
  private volatile boolean shutdown;

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    EndPoint endPoint = request.getConnectionMetaData().getConnection().getEndPoint();
    busy.merge(endPoint, 1, Integer::sum);
    Callback released = new Callback.Nested(callback) {
      @Override
      public void succeeded() {
        try {
          super.succeeded();
        } finally {
          release(endPoint);
        }
      }

      @Override
      public void failed(Throwable x) {
        try {
          super.failed(x);
        } finally {
          release(endPoint);
        }
      }
    };
    boolean handled;
    try {
      handled = super.handle(request, response, released);
    } catch (Throwable t) {
      release(endPoint);
      throw t;
    }
    if (!handled) {
      release(endPoint);
    }
    return handled;
  }

  private void release(EndPoint endPoint) {
    busy.computeIfPresent(endPoint, (e, n) -> n == 1 ? null : n - 1);
  }

  @Override
  public CompletableFuture<Void> shutdown() {
    shutdown = true;
    Server server = getServer();
    if (server != null) {
      for (Connector connector : server.getConnectors()) {
        if (connector instanceof AbstractConnector c) {
          for (EndPoint endPoint : c.getConnectedEndPoints()) {
            if (!busy.containsKey(endPoint)) {
              endPoint.close();
            }
          }
        }
      }
    }
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }
}
