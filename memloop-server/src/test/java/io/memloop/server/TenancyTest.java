package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A key never reads or changes another namespace, on any route, and cannot tell whether it exists. */
class TenancyTest {
  @TempDir Path dir;
  TestServer s;
  String memoryB;
  String retrievalB;

  @BeforeEach
  void start() {
    s = new TestServer(dir);
    memoryB = s.post("/v1/namespaces/team-b/memories", "b", "{\"intent\":\"rotate keys\",\"experience\":\"vault rotate\",\"outcome\":\"success\"}")
        .json().get("id").asText();
    retrievalB = s.post("/v1/namespaces/team-b/retrieve", "b", "{\"intent\":\"rotate keys\"}").json().get("retrievalId").asText();
  }

  @AfterEach
  void stop() {
    s.close();
  }

  /** Every namespaced route: method, path under the namespace, body. */
  private List<String[]> routes() {
    return List.of(
        new String[] {"POST", "/retrieve", "{\"intent\":\"rotate keys\"}"},
        new String[] {"POST", "/rewards", "{\"retrievalId\":\"" + retrievalB + "\",\"reward\":1}"},
        new String[] {"POST", "/memories", "{\"intent\":\"x\",\"experience\":\"y\",\"outcome\":\"success\"}"},
        new String[] {"GET", "/memories", null},
        new String[] {"GET", "/memories/" + memoryB, null},
        new String[] {"DELETE", "/memories/" + memoryB, null},
        new String[] {"GET", "/stats", null},
        new String[] {"GET", "/config", null},
        new String[] {"PUT", "/config", "{\"preset\":\"memrl\"}"},
        new String[] {"GET", "/overview", null},
        new String[] {"GET", "/events", null},
        new String[] {"GET", "/memories/" + memoryB + "/history", null},
        new String[] {"GET", "/memories/" + memoryB + "/neighbours", null},
        new String[] {"POST", "/explain", "{\"intent\":\"rotate keys\"}"},
        new String[] {"GET", "/report", null});
  }

  @Test
  void anotherTenantsNamespaceIsNotFoundLikeOneThatDoesNotExist() {
    for (String[] r : routes()) {
      var existing = s.send(r[0], "/v1/namespaces/team-b" + r[1], "a", r[2]);
      var missing = s.send(r[0], "/v1/namespaces/team-zz" + r[1], "a", r[2]);
      assertThat(existing.status()).as(r[0] + " " + r[1]).isEqualTo(404);
      assertThat(missing.status()).as(r[0] + " " + r[1]).isEqualTo(404);
      assertThat(existing.json().at("/error/message").asText().replace("team-b", "NS"))
          .isEqualTo(missing.json().at("/error/message").asText().replace("team-zz", "NS"));
    }
    var stats = s.get("/v1/namespaces/team-b/stats", "b").json();
    assertThat(stats.get("memories").asInt()).isEqualTo(1);
    assertThat(stats.get("pendingRetrievals").asInt()).isEqualTo(1);
    assertThat(s.get("/v1/namespaces/team-b/memories/" + memoryB, "b").json().get("visits").asInt()).isZero();
    assertThat(s.loop.recordedConfig("team-b").orElseThrow().k1()).isEqualTo(s.loop.config().k1());
  }

  @Test
  void noKeyOrAWrongKeyIsUnauthorizedEverywhere() {
    for (String[] r : routes()) {
      for (String key : new String[] {null, "mlk_not-a-key", ""}) {
        var reply = s.send(r[0], "/v1/namespaces/team-b" + r[1], key, r[2]);
        assertThat(reply.status()).as(r[0] + " " + r[1] + " key " + key).isEqualTo(401);
        assertThat(reply.json().at("/error/code").asText()).isEqualTo("unauthorized");
        assertThat(reply.raw().headers().firstValue("WWW-Authenticate")).isPresent();
      }
    }
    assertThat(s.get("/v1/namespaces", null).status()).isEqualTo(401);
  }

  @Test
  void keysSeeOnlyTheirNamespacesAndTheOperatorKeySeesAll() {
    s.post("/v1/namespaces/team-a/memories", "a", "{\"intent\":\"x\",\"experience\":\"y\",\"outcome\":\"success\"}");
    assertThat(s.get("/v1/namespaces", "a").json().get("namespaces")).extracting(n -> n.asText()).containsExactly("team-a");
    assertThat(s.get("/v1/namespaces", "ops").json().get("namespaces")).extracting(n -> n.asText()).containsExactly("team-a", "team-b");
    assertThat(s.get("/v1/namespaces/team-b/stats", "ops").status()).isEqualTo(200);
  }
}
