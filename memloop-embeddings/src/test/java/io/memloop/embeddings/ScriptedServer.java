package io.memloop.embeddings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.memloop.chat.ChatMessage;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A loopback HTTP server (127.0.0.1, ephemeral port) that records every request and answers with
 * whatever the test's {@link Responder} says. Handlers run on the server's single dispatcher thread,
 * so calls are numbered in arrival order.
 *
 * <p>Shipped in this module's test-jar, so other modules can script an OpenAI-compatible server
 * (embeddings with {@link #embeddingsFor}, chat with {@link #chatCompletion}).
 */
public final class ScriptedServer implements AutoCloseable {
  public static final ObjectMapper JSON = new ObjectMapper();

  /** One request as the server received it. */
  public record Recorded(String method, String path, Map<String, List<String>> headers, String body) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new AssertionError("request body is not JSON: " + body, e);
      }
    }

    /** The {@code input} texts of an embeddings request. */
    public List<String> inputs() {
      List<String> out = new ArrayList<>();
      json().get("input").forEach(n -> out.add(n.asText()));
      return out;
    }

    /** First value of a header, matched case-insensitively as HTTP requires; null if absent. */
    public String header(String name) {
      return headers.entrySet().stream()
          .filter(e -> e.getKey().equalsIgnoreCase(name))
          .map(e -> e.getValue().get(0))
          .findFirst()
          .orElse(null);
    }

    /** The {@code messages} of a chat-completions request, in order. */
    public List<ChatMessage> messages() {
      List<ChatMessage> out = new ArrayList<>();
      json().get("messages").forEach(n -> out.add(new ChatMessage(
          ChatMessage.Role.valueOf(n.get("role").asText().toUpperCase(Locale.ROOT)), n.get("content").asText())));
      return out;
    }
  }

  /**
   * What to answer. {@link #disconnect()} is not an HTTP answer: the server closes the connection
   * without a response, which the client sees as an I/O error.
   */
  public record Reply(int status, String body, Map<String, String> headers) {
    private static final int DISCONNECT = -1;

    public static Reply of(int status, String body) {
      return new Reply(status, body, Map.of());
    }

    /** Closes the connection without answering. */
    public static Reply disconnect() {
      return new Reply(DISCONNECT, "", Map.of());
    }

    /** This reply with one more header. */
    public Reply withHeader(String name, String value) {
      Map<String, String> more = new LinkedHashMap<>(headers);
      more.put(name, value);
      return new Reply(status, body, Collections.unmodifiableMap(more));
    }
  }

  @FunctionalInterface
  public interface Responder {
    /** @param call 1 for the first request this server receives */
    Reply reply(Recorded request, int call) throws InterruptedException;
  }

  private final HttpServer server;
  private final List<Recorded> requests = Collections.synchronizedList(new ArrayList<>());

  private ScriptedServer(Responder responder) throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> handle(exchange, responder));
    server.start();
  }

  public static ScriptedServer start(Responder responder) throws IOException {
    return new ScriptedServer(responder);
  }

  /** A server that always answers correctly with {@link #vectorOf} vectors, in reverse data order. */
  public static ScriptedServer healthy(int dimension) throws IOException {
    return start((request, call) -> Reply.of(200, embeddingsFor(request.inputs(), dimension)));
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  public List<Recorded> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /**
   * The vector the scripted server returns for {@code text}: small integers, so it survives the
   * float to JSON and back round trip exactly and tests can compare with {@code isEqualTo}.
   */
  public static float[] vectorOf(String text, int dimension) {
    float[] v = new float[dimension];
    int base = Math.floorMod(text.hashCode(), 10_000);
    for (int j = 0; j < dimension; j++) {
      v[j] = base + j;
    }
    return v;
  }

  /**
   * A well-formed response body for {@code inputs}, listing {@code data} in reverse order: a client
   * that ignores {@code index} gets every batch backwards.
   */
  public static String embeddingsFor(List<String> inputs, int dimension) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list");
    ArrayNode data = root.putArray("data");
    for (int i = inputs.size() - 1; i >= 0; i--) {
      ObjectNode item = data.addObject();
      item.put("object", "embedding");
      item.put("index", i);
      ArrayNode embedding = item.putArray("embedding");
      for (float x : vectorOf(inputs.get(i), dimension)) {
        embedding.add(x);
      }
    }
    root.put("model", "scripted");
    return root.toString();
  }

  /**
   * A well-formed chat-completions response body whose first choice says {@code content} and
   * stopped for {@code finishReason}, with the given usage.
   */
  public static String chatCompletion(String content, String finishReason, int promptTokens, int completionTokens) {
    ObjectNode root = JSON.createObjectNode();
    root.put("id", "chatcmpl-scripted");
    root.put("object", "chat.completion");
    root.put("model", "scripted");
    ObjectNode choice = root.putArray("choices").addObject();
    choice.put("index", 0);
    choice.putObject("message").put("role", "assistant").put("content", content);
    choice.put("finish_reason", finishReason);
    root.putObject("usage")
        .put("prompt_tokens", promptTokens)
        .put("completion_tokens", completionTokens)
        .put("total_tokens", promptTokens + completionTokens);
    return root.toString();
  }

  private void handle(HttpExchange exchange, Responder responder) throws IOException {
    try (exchange) {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Recorded request =
          new Recorded(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              Map.copyOf(exchange.getRequestHeaders()),
              body);
      int call;
      synchronized (requests) {
        requests.add(request);
        call = requests.size();
      }
      Reply reply;
      try {
        reply = responder.reply(request, call);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      if (reply.status() == Reply.DISCONNECT) {
        return; // closing the exchange before sending headers closes the connection
      }
      byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(reply.status(), bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
