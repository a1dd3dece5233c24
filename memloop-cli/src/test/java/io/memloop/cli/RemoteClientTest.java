package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import io.memloop.Intent;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.server.Json;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The requests {@link RemoteClient} sends for the routes issue 25 adds (PATCH a memory, GET memories with filters, POST
 * an episode), checked on a loopback recorder: method, path, query, key and body as openapi.json will describe them.
 */
class RemoteClientTest {
  record Seen(String method, String uri, String authorization, String body) {}

  HttpServer recorder;
  final List<Seen> seen = new ArrayList<>();
  int status = 200;
  String answer = "{}";

  @BeforeEach
  void start() throws IOException {
    recorder = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    recorder.createContext("/", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      synchronized (seen) {
        seen.add(new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
            exchange.getRequestHeaders().getFirst("Authorization"), new String(body, StandardCharsets.UTF_8)));
      }
      byte[] out = answer.getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, out.length);
      exchange.getResponseBody().write(out);
      exchange.close();
    });
    recorder.start();
  }

  @AfterEach
  void stop() {
    recorder.stop(0);
  }

  private RemoteClient client() {
    return new RemoteClient(URI.create("http://127.0.0.1:" + recorder.getAddress().getPort()), "mlk_test");
  }

  @Test
  void edit_patchesTheMemoryWithOnlyItsExperience() {
    answer = "{\"id\":\"m_1\"}";
    JsonNode m = client().edit("team-a", "m_1", "new text");
    assertThat(m.get("id").asText()).isEqualTo("m_1");
    assertThat(seen).containsExactly(new Seen("PATCH", "/v1/namespaces/team-a/memories/m_1", "Bearer mlk_test", "{\"experience\":\"new text\"}"));
  }

  @Test
  void list_sendsTheFiltersAsQueryParameters_encoded() {
    Map<String, String> q = new LinkedHashMap<>();
    q.put("text", "restart nginx & co");
    q.put("outcome", "success,failure");
    q.put("minQ", "0.5");
    q.put("sort", "q");
    q.put("order", "desc");
    q.put("limit", "10");
    client().list("team-a", q);
    client().list("team-a", Map.of());
    assertThat(seen).extracting(Seen::method, Seen::uri).containsExactly(
        org.assertj.core.groups.Tuple.tuple("GET", "/v1/namespaces/team-a/memories?text=restart+nginx+%26+co&outcome=success%2Cfailure&minQ=0.5&sort=q&order=desc&limit=10"),
        org.assertj.core.groups.Tuple.tuple("GET", "/v1/namespaces/team-a/memories"));
  }

  @Test
  void endEpisode_postsTheRewardAndTheMemoryInOneBody() throws IOException {
    status = 201;
    client().endEpisode("team-a", "r_1", 1, List.of("m_1"), null, Intent.ofText("restart nginx"), "systemctl restart nginx", Outcome.SUCCESS);
    assertThat(seen).hasSize(1);
    assertThat(seen.getFirst().method()).isEqualTo("POST");
    assertThat(seen.getFirst().uri()).isEqualTo("/v1/namespaces/team-a/episodes");
    assertThat(Json.MAPPER.readTree(seen.getFirst().body())).isEqualTo(Json.MAPPER.readTree(
        "{\"retrievalId\":\"r_1\",\"reward\":1.0,\"usedMemoryIds\":[\"m_1\"],\"intent\":\"restart nginx\","
            + "\"experience\":\"systemctl restart nginx\",\"outcome\":\"success\"}"));
  }

  @Test
  void anErrorAnswer_isTheServersExceptionWithItsField() {
    status = 400;
    answer = "{\"error\":{\"code\":\"invalid_argument\",\"field\":\"minQ\",\"message\":\"minQ: must be a number\"}}";
    assertThatThrownBy(() -> client().list("team-a", Map.of("minQ", "x"))).isInstanceOfSatisfying(MemLoopException.class, e -> {
      assertThat(e.reason()).isEqualTo(MemLoopException.Reason.INVALID_ARGUMENT);
      assertThat(e.field()).isEqualTo("minQ");
      assertThat(e.getMessage()).isEqualTo("minQ: must be a number");
    });
    status = 502;
    answer = "<html>bad gateway</html>";
    assertThatThrownBy(() -> client().stats("team-a")).isInstanceOfSatisfying(MemLoopException.class, e -> {
      assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_UNAVAILABLE);
      assertThat(e.getMessage()).contains("HTTP 502");
    });
  }
}
