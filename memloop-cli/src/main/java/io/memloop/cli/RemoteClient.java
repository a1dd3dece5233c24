package io.memloop.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.memloop.Intent;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.server.Json;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * The HTTP API of a running {@code memloop serve} ({@code /v1}, openapi.json), as the CLI's {@code --url} mode calls
 * it: one method per route, each answer the server's JSON (the shapes of {@link Json}), each error answer turned back
 * into the {@link MemLoopException} the server made of it ({@code {"error": {"code", "field", "message"}}}), so the
 * CLI prints it as it prints a local failure: one line, the flag named, the exit code of its kind.
 *
 * <p>Not thread-safe: one command, one client. Nothing is retried: a POST or PATCH that may have reached the server is
 * never sent twice.
 */
final class RemoteClient {
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(120);

  private final URI base;
  private final @Nullable String apiKey;
  private final HttpClient http;

  /**
   * @param base the server, {@code http://HOST:PORT} (a path prefix of a reverse proxy allowed), without a trailing
   *     slash
   * @param apiKey the key to send as {@code Authorization: Bearer}; null sends none (a server's open namespace)
   */
  RemoteClient(URI base, @Nullable String apiKey) {
    this.base = base;
    this.apiKey = apiKey;
    this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /** The server as messages and {@code stats} show it. */
  String label() {
    return base.toString();
  }

  JsonNode retrieve(String ns, Intent intent) {
    return send("POST", ns, "/retrieve", intentBody(intent));
  }

  JsonNode reward(String ns, String retrievalId, double reward, @Nullable List<String> used, @Nullable String next) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("retrievalId", retrievalId);
    body.put("reward", reward);
    if (used != null) {
      used.forEach(body.putArray("usedMemoryIds")::add);
    }
    if (next != null) {
      body.put("nextRetrievalId", next);
    }
    return send("POST", ns, "/rewards", body);
  }

  JsonNode remember(String ns, Intent intent, String experience, Outcome outcome, @Nullable String retrievalId) {
    ObjectNode body = intentBody(intent);
    body.put("experience", experience);
    body.put("outcome", outcome.name().toLowerCase(Locale.ROOT));
    if (retrievalId != null) {
      body.put("retrievalId", retrievalId);
    }
    return send("POST", ns, "/memories", body);
  }

  JsonNode get(String ns, String memoryId) {
    return send("GET", ns, "/memories/" + segment(memoryId), null);
  }

  void forget(String ns, String memoryId) {
    send("DELETE", ns, "/memories/" + segment(memoryId), null);
  }

  /** {@code PATCH /memories/{id}}: the memory with its experience replaced (issue 25's {@code edit}). */
  JsonNode edit(String ns, String memoryId, String experience) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("experience", experience);
    return send("PATCH", ns, "/memories/" + segment(memoryId), body);
  }

  /**
   * {@code GET /memories} with the query's parameters ({@code limit}, {@code after}, {@code text}, {@code outcome},
   * {@code minQ} ... {@code sort}, {@code order}; openapi.json), in the given order: {@code {"namespace", "memories",
   * "next", "total"}}.
   */
  JsonNode list(String ns, Map<String, String> parameters) {
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    parameters.forEach((k, v) -> query.add(URLEncoder.encode(k, StandardCharsets.UTF_8) + "=" + URLEncoder.encode(v, StandardCharsets.UTF_8)));
    return send("GET", ns, "/memories" + query, null);
  }

  /**
   * {@code POST /episodes}: a reward and the episode's memory as one write, {@code {"reward": ..., "memory": ...}}.
   * {@code usedMemoryIds} and {@code nextRetrievalId} may be null.
   */
  JsonNode endEpisode(String ns, String retrievalId, double reward, @Nullable List<String> usedMemoryIds,
      @Nullable String nextRetrievalId, Intent intent, String experience, Outcome outcome) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    body.put("retrievalId", retrievalId);
    body.put("reward", reward);
    if (usedMemoryIds != null) {
      usedMemoryIds.forEach(body.putArray("usedMemoryIds")::add);
    }
    if (nextRetrievalId != null) {
      body.put("nextRetrievalId", nextRetrievalId);
    }
    body.setAll(intentBody(intent));
    body.put("experience", experience);
    body.put("outcome", outcome.name().toLowerCase(Locale.ROOT));
    return send("POST", ns, "/episodes", body);
  }

  JsonNode stats(String ns) {
    return send("GET", ns, "/stats", null);
  }

  /** {@code {"namespace", "recorded", "knobs"}}: the namespace's configuration. */
  JsonNode config(String ns) {
    return send("GET", ns, "/config", null);
  }

  /** The namespaces this key may use that hold data, sorted. */
  List<String> namespaces() {
    JsonNode answer = call("GET", "/v1/namespaces", null);
    return java.util.stream.StreamSupport.stream(answer.path("namespaces").spliterator(), false).map(JsonNode::asText).toList();
  }

  private static ObjectNode intentBody(Intent intent) {
    ObjectNode body = Json.MAPPER.createObjectNode();
    if (intent.text() != null) {
      body.put("intent", intent.text());
    }
    float[] embedding = intent.embedding();
    if (embedding != null) {
      var array = body.putArray("embedding");
      for (float f : embedding) {
        array.add(f);
      }
    }
    return body;
  }

  private static String segment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private JsonNode send(String method, String ns, String path, @Nullable JsonNode body) {
    return call(method, "/v1/namespaces/" + segment(ns) + path, body);
  }

  /** One request; the answer's JSON ({@code null} node for 204), or the server's error as a MemLoopException. */
  private JsonNode call(String method, String path, @Nullable JsonNode body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(REQUEST_TIMEOUT)
        .header("Accept", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(Json.bytes(body)));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (apiKey != null) {
      request.header("Authorization", "Bearer " + apiKey);
    }
    HttpResponse<byte[]> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (ConnectException e) {
      throw unreachable("nothing answers there (is 'memloop serve' running?)", e);
    } catch (HttpTimeoutException e) {
      throw unreachable("no answer within " + REQUEST_TIMEOUT.toSeconds() + " s", e);
    } catch (IOException e) {
      throw unreachable(e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unreachable("interrupted", e);
    }
    int status = response.statusCode();
    JsonNode json = parse(response.body());
    if (status >= 200 && status < 300) {
      return json == null ? Json.MAPPER.nullNode() : json;
    }
    throw error(status, json, method + " " + path);
  }

  private static @Nullable JsonNode parse(byte[] body) {
    if (body.length == 0) {
      return null;
    }
    try {
      return Json.MAPPER.readTree(body);
    } catch (IOException e) {
      return null; // not JSON (a proxy's error page): the status speaks
    }
  }

  private MemLoopException unreachable(String why, Exception cause) {
    return new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "--url",
        "--url: cannot reach the server at " + label() + ": " + why, cause);
  }

  /** The server's error answer as the exception it came from: its reason (from the code, else the status) and field. */
  private MemLoopException error(int status, @Nullable JsonNode json, String what) {
    JsonNode e = json == null ? null : json.get("error");
    String code = e == null ? "" : e.path("code").asText("");
    String field = e == null ? "" : e.path("field").asText("");
    String message = e == null || !e.path("message").isTextual()
        ? "the server at " + label() + " answered " + what + " with HTTP " + status
        : e.path("message").asText();
    MemLoopException.Reason reason = reason(code, status);
    if (status == 401) {
      field = "authorization";
      message += " (the CLI sends the key in MEMLOOP_API_KEY or in the file --key-file names)";
    }
    return new MemLoopException(reason, field, message);
  }

  /** The reason a server's error code names; without one (a proxy's page), the status's: a 5xx is the server unavailable. */
  static MemLoopException.Reason reason(String code, int status) {
    for (MemLoopException.Reason r : MemLoopException.Reason.values()) {
      if (r.name().equalsIgnoreCase(code)) {
        return r;
      }
    }
    return switch (status) {
      case 400, 401, 403, 413, 415, 422 -> MemLoopException.Reason.INVALID_ARGUMENT;
      case 404 -> MemLoopException.Reason.NOT_FOUND;
      case 409 -> MemLoopException.Reason.CONFLICT;
      default -> MemLoopException.Reason.STORE_UNAVAILABLE;
    };
  }
}
