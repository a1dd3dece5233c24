package io.memloop.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain loopback socket, for what {@code java.net.http} will not send: any method token, a
 * {@code Host} of our choosing, raw bytes in the path, a malformed request line. Each exchange has a timeout
 * (a hang is a failure, reported as status -1).
 */
final class RawHttp {
  private RawHttp() {}

  record Answer(int status, Map<String, String> headers, String body, String raw) {}

  static Answer send(int port, String method, String target, Map<String, String> headers, byte[] body, Duration timeout) {
    StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
    Map<String, String> h = new LinkedHashMap<>();
    h.put("Host", "127.0.0.1:" + port);
    h.putAll(headers);
    h.put("Connection", "close");
    if (body.length > 0 || !h.containsKey("Content-Length") && (method.equals("POST") || method.equals("PUT"))) {
      h.putIfAbsent("Content-Length", Integer.toString(body.length));
    }
    h.forEach((k, v) -> {
      if (v != null) {
        head.append(k).append(": ").append(v).append("\r\n");
      }
    });
    head.append("\r\n");
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    bytes.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    bytes.writeBytes(body);
    return exchange(port, bytes.toByteArray(), timeout);
  }

  static Answer exchange(int port, byte[] request, Duration timeout) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), (int) timeout.toMillis());
      socket.setSoTimeout((int) timeout.toMillis());
      OutputStream out = socket.getOutputStream();
      try {
        out.write(request);
        out.flush();
      } catch (IOException e) {
        // the server may answer and close before reading everything: read what it said
      }
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream got = new ByteArrayOutputStream();
      byte[] buf = new byte[8192];
      long deadline = System.nanoTime() + timeout.toNanos();
      try {
        int r;
        while ((r = in.read(buf)) >= 0) {
          got.write(buf, 0, r);
          if (System.nanoTime() > deadline) {
            return new Answer(-1, Map.of(), "", got.toString(StandardCharsets.UTF_8));
          }
        }
      } catch (SocketTimeoutException e) {
        return new Answer(-1, Map.of(), "", got.toString(StandardCharsets.UTF_8));
      } catch (IOException e) {
        // a reset after the answer: parse what arrived
      }
      return parse(got.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Answer parse(byte[] raw) {
    String text = new String(raw, StandardCharsets.UTF_8);
    int end = text.indexOf("\r\n\r\n");
    if (!text.startsWith("HTTP/1.1 ") || end < 0) {
      return new Answer(0, Map.of(), "", text);
    }
    String[] lines = text.substring(0, end).split("\r\n");
    int status = Integer.parseInt(lines[0].substring(9, 12));
    Map<String, String> headers = new LinkedHashMap<>();
    for (int i = 1; i < lines.length; i++) {
      int c = lines[i].indexOf(':');
      headers.putIfAbsent(lines[i].substring(0, c).trim().toLowerCase(Locale.ROOT), lines[i].substring(c + 1).trim());
    }
    String body = text.substring(end + 4);
    if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
      StringBuilder b = new StringBuilder();
      String rest = body;
      while (true) {
        int nl = rest.indexOf("\r\n");
        if (nl < 0) {
          break;
        }
        int n = Integer.parseInt(rest.substring(0, nl).trim(), 16);
        if (n == 0) {
          break;
        }
        b.append(rest, nl + 2, Math.min(rest.length(), nl + 2 + n));
        rest = rest.substring(Math.min(rest.length(), nl + 2 + n + 2));
      }
      body = b.toString();
    }
    return new Answer(status, headers, body, text);
  }
}
