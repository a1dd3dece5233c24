package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link MemLoopServer#close()} lets in-flight requests finish for the drain timeout (10 s), also one whose
 * client is still sending its body: Jetty's own shutdown idle timeout (1 s) used to cut it ("Idle timeout
 * expired") while the README promised the drain. A connection that is only kept alive between requests does not
 * hold the stop: it is closed when the stop begins.
 */
class DrainOnCloseTest {
  @TempDir Path dir;

  @Test
  void aBodyStillUploadingAfterCloseStarts_completes() throws Exception {
    TestServer s = new TestServer(dir);
    String body = "{\"intent\":\"restart nginx\",\"experience\":\"systemctl restart nginx\",\"outcome\":\"success\"}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    int half = bytes.length / 2;
    Thread closer = null;
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", s.server.port()), 5_000);
      OutputStream out = socket.getOutputStream();
      out.write(("POST /v1/namespaces/team-a/memories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + s.keys.get("a")
          + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.ISO_8859_1));
      out.write(bytes, 0, half);
      out.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (s.server.requestsInFlight() == 0) { // the route is reading the body: the request is in flight
        assertThat(System.nanoTime()).as("the request reached the server").isLessThan(deadline);
        Thread.onSpinWait();
      }
      CountDownLatch closing = new CountDownLatch(1);
      closer = new Thread(() -> {
        closing.countDown();
        s.close();
      }, "closer");
      closer.start();
      closing.await();
      // 2.5 s into the close, well past Jetty's 1 s: the connection must still be open (the read times out)
      socket.setSoTimeout(2_500);
      InputStream in = socket.getInputStream();
      boolean stillOpen;
      try {
        int r = in.read();
        stillOpen = false;
        assertThat(r).as("the server answered or closed the connection before the body was complete").isEqualTo(-2);
      } catch (SocketTimeoutException e) {
        stillOpen = true;
      }
      assertThat(stillOpen).isTrue();
      out.write(bytes, half, bytes.length - half);
      out.flush();
      socket.setSoTimeout(10_000);
      String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 201");
    } finally {
      if (closer != null) {
        closer.join(15_000);
      }
      s.close();
    }
    assertThat(closer.isAlive()).isFalse();
  }

  @Test
  void anIdleKeepAliveConnection_isClosedWhenTheStopBegins_whileABusyOneIsDrained() throws Exception {
    TestServer s = new TestServer(dir);
    String body = "{\"intent\":\"restart nginx\",\"experience\":\"systemctl restart nginx\",\"outcome\":\"success\"}";
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    Thread closer = null;
    try (Socket idle = new Socket(); Socket busy = new Socket()) {
      idle.connect(new InetSocketAddress("127.0.0.1", s.server.port()), 5_000);
      // one whole request on a persistent connection, its answer read to the end: the connection is now idle
      idle.getOutputStream().write(("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      idle.getOutputStream().flush();
      InputStream idleIn = idle.getInputStream();
      String head = readHead(idleIn);
      assertThat(head).startsWith("HTTP/1.1 200").doesNotContainIgnoringCase("connection: close");
      int length = Integer.parseInt(head.replaceAll("(?is).*content-length: *(\\d+).*", "$1"));
      assertThat(idleIn.readNBytes(length)).hasSize(length);
      // a second connection with a request in flight (half its body sent)
      busy.connect(new InetSocketAddress("127.0.0.1", s.server.port()), 5_000);
      OutputStream out = busy.getOutputStream();
      out.write(("POST /v1/namespaces/team-a/memories HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + s.keys.get("a")
          + "\r\nContent-Type: application/json\r\nContent-Length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
      out.write(bytes, 0, bytes.length / 2);
      out.flush();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (s.server.requestsInFlight() == 0) {
        assertThat(System.nanoTime()).as("the request reached the server").isLessThan(deadline);
        Thread.onSpinWait();
      }
      closer = new Thread(s::close, "closer");
      closer.start();
      // the idle connection is closed by the server well inside the 10 s drain (a read that waits 5 s fails)
      idle.setSoTimeout(5_000);
      assertThat(idleIn.read()).as("the idle connection ends").isEqualTo(-1);
      // the busy one still completes, and is then closed
      out.write(bytes, bytes.length / 2, bytes.length - bytes.length / 2);
      out.flush();
      busy.setSoTimeout(10_000);
      String answer = new String(busy.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(answer).startsWith("HTTP/1.1 201").containsIgnoringCase("connection: close");
    } finally {
      if (closer != null) {
        closer.join(15_000);
      }
      s.close();
    }
    assertThat(closer.isAlive()).isFalse();
  }

  /** The status line and headers of an answer, up to the empty line. */
  private static String readHead(InputStream in) throws java.io.IOException {
    StringBuilder head = new StringBuilder();
    while (!head.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      assertThat(b).as("the answer's head ends").isNotNegative();
      head.append((char) b);
    }
    return head.toString();
  }
}
