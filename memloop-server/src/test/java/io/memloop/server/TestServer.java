package io.memloop.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.memloop.MemLoop;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.store.lucene.LuceneStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A real server on a loopback port over a Lucene store with the hashing embedder (no model download), and
 * three keys: {@code a} (team-a), {@code b} (team-b) and {@code ops} (every namespace).
 */
final class TestServer implements AutoCloseable {
  final MemLoop loop;
  final MemLoopServer server;
  final Map<String, String> keys;
  final Path storeDir;
  /** How the server shows ids: {@code ids.encode(ns, storeId)} is the id a client sees. */
  final IdCodec ids;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  record Reply(int status, @Nullable JsonNode json, String text, HttpResponse<String> raw) {}

  TestServer(Path dir) {
    this(dir, ServerOptions.defaults().withPort(0));
  }

  TestServer(Path dir, ServerOptions options) {
    this.storeDir = dir.resolve("store");
    this.loop = MemLoop.builder().store(LuceneStore.open(storeDir, HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).seed(7)
        .events(options.activity() != null ? options.activity() : io.memloop.events.EventSink.NONE).build();
    String a = ApiKeys.newKey();
    String b = ApiKeys.newKey();
    String ops = ApiKeys.newKey();
    ApiKeys k = ApiKeys.empty().with("a", Set.of("team-a"), a).with("b", Set.of("team-b"), b).with("ops", Set.of(ApiKeys.ALL), ops);
    this.keys = Map.of("a", a, "b", b, "ops", ops);
    this.ids = options.ids() != null ? options.ids() : IdCodec.random();
    this.server = MemLoopServer.start(loop, k, options.withStoreDirectory(storeDir).withIds(ids));
  }

  URI uri(String path) {
    return URI.create(server.uri() + path);
  }

  Reply send(String method, String path, @Nullable String keyName, @Nullable String body) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
    if (keyName != null) {
      b.header("Authorization", "Bearer " + keys.getOrDefault(keyName, keyName));
    }
    if (body != null) {
      b.header("Content-Type", "application/json");
    }
    return send(b.build());
  }

  Reply send(HttpRequest request) {
    try {
      HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
      JsonNode json = null;
      String ct = r.headers().firstValue("Content-Type").orElse("");
      if (ct.startsWith("application/json") && !r.body().isEmpty()) {
        json = Json.MAPPER.readTree(r.body());
      }
      return new Reply(r.statusCode(), json, r.body(), r);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  Reply post(String path, String keyName, String body) {
    return send("POST", path, keyName, body);
  }

  Reply get(String path, String keyName) {
    return send("GET", path, keyName, null);
  }

  @Override
  public void close() {
    try {
      server.close();
    } finally {
      loop.close();
    }
  }
}
