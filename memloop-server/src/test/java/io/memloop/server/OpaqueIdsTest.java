package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ids handed out by the service tell a tenant nothing about other tenants and cannot be guessed: they are
 * opaque tokens bound to their namespace; a malformed, forged or foreign one is answered as one that does
 * not exist; the store's own ids ({@code m12}, {@code r13}) never appear in an answer.
 */
class OpaqueIdsTest {
  private static final String TOKEN = "[mri]_[A-Za-z0-9_-]{22}";
  private static final String INTERNAL = "\"[mri][0-9]+\"|'[mri][0-9]+'";
  @TempDir Path dir;

  private static String remember(TestServer s, String ns, String key, String intent) {
    TestServer.Reply r = s.post("/v1/namespaces/" + ns + "/memories", key,
        "{\"intent\":\"" + intent + "\",\"experience\":\"did it\",\"outcome\":\"success\"}");
    assertThat(r.status()).as(r.text()).isEqualTo(201);
    assertThat(r.text()).doesNotContainPattern(INTERNAL);
    assertThat(r.json().get("id").asText()).matches("m_.{22}");
    assertThat(r.json().get("intentId").asText()).matches("i_.{22}");
    return r.json().get("id").asText();
  }

  @Test
  void idsAreOpaque_boundToTheirNamespace_andForeignOrForgedOnesAreNotFound() {
    try (TestServer s = new TestServer(dir)) {
      String a1 = remember(s, "team-a", "a", "restart nginx");
      String b1 = remember(s, "team-b", "b", "restart nginx");
      String a2 = remember(s, "team-a", "a", "rotate logs");
      assertThat(a1).isNotEqualTo(a2).isNotEqualTo(b1);

      TestServer.Reply got = s.get("/v1/namespaces/team-a/memories/" + a1, "a");
      assertThat(got.status()).isEqualTo(200);
      assertThat(got.json().get("id").asText()).isEqualTo(a1);

      TestServer.Reply r = s.post("/v1/namespaces/team-a/retrieve", "a", "{\"intent\":\"restart nginx\"}");
      assertThat(r.text()).doesNotContainPattern(INTERNAL);
      String retrieval = r.json().get("retrievalId").asText();
      assertThat(retrieval).matches("r_.{22}");
      for (JsonNode c : r.json().get("candidates")) {
        assertThat(c.get("id").asText()).matches(TOKEN).isIn(a1, a2);
      }
      String selected = r.json().at("/selected/0/id").asText();

      // the other tenant's id, a forged one, the store's own id form: all answered as an id that does not exist
      String forged = a1.substring(0, 5) + (a1.charAt(5) == 'A' ? 'B' : 'A') + a1.substring(6);
      for (String id : new String[] {b1, forged, "m2", "m_" + "A".repeat(22), "m_abc"}) {
        TestServer.Reply miss = s.get("/v1/namespaces/team-a/memories/" + id, "ops");
        assertThat(miss.status()).as(id + " " + miss.text()).isEqualTo(404);
        assertThat(miss.json().at("/error/message").asText()).isEqualTo("memoryId: no memory '" + id + "' in namespace 'team-a'");
        assertThat(s.send("DELETE", "/v1/namespaces/team-a/memories/" + id, "ops", null).status()).isEqualTo(404);
      }
      TestServer.Reply foreign = s.post("/v1/namespaces/team-b/rewards", "ops", "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1}");
      assertThat(foreign.status()).isEqualTo(404);
      assertThat(foreign.json().at("/error/message").asText()).isEqualTo("retrievalId: no retrieval '" + retrieval + "' in namespace 'team-b'");
      TestServer.Reply unusedId = s.post("/v1/namespaces/team-a/rewards", "a",
          "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1,\"usedMemoryIds\":[\"" + b1 + "\"]}");
      assertThat(unusedId.status()).isEqualTo(400);
      assertThat(unusedId.text()).doesNotContainPattern(INTERNAL).contains(b1);

      TestServer.Reply reward = s.post("/v1/namespaces/team-a/rewards", "a",
          "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1,\"usedMemoryIds\":[\"" + selected + "\"]}");
      assertThat(reward.status()).as(reward.text()).isEqualTo(200);
      assertThat(reward.json().get("retrievalId").asText()).isEqualTo(retrieval);
      assertThat(reward.json().at("/updated/0/id").asText()).isEqualTo(selected);
      TestServer.Reply again = s.post("/v1/namespaces/team-a/rewards", "a", "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1}");
      assertThat(again.status()).isEqualTo(409);
      assertThat(again.text()).contains(retrieval).doesNotContainPattern(INTERNAL);

      TestServer.Reply page = s.get("/v1/namespaces/team-a/memories?limit=1", "a");
      String next = page.json().get("next").asText();
      assertThat(next).startsWith("c_").doesNotContainPattern(INTERNAL); // a sealed page cursor, not an id
      assertThat(s.get("/v1/namespaces/team-a/memories?limit=1&after=" + next, "a").json().at("/memories/0/id").asText()).isEqualTo(a2);
      assertThat(s.get("/v1/namespaces/team-a/memories?after=" + b1, "ops").status()).isEqualTo(400);

      assertThat(s.send("DELETE", "/v1/namespaces/team-a/memories/" + a2, "a", null).status()).isEqualTo(204);
    }
  }

  @Test
  void mcpToolsHandOutOpaqueIdsToo() {
    try (TestServer s = new TestServer(dir)) {
      remember(s, "team-a", "a", "restart nginx");
      String session = TrustBoundaryTest.initialize(s, "a");
      RawHttp.Answer a = RawHttp.send(s.server.port(), "POST", "/mcp", Map.of("Authorization", "Bearer " + s.keys.get("a"),
          "Content-Type", "application/json", "Accept", "application/json, text/event-stream", "Mcp-Session-Id", session),
          ("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"retrieve_experiences\","
              + "\"arguments\":{\"intent\":\"restart nginx\"}}}").getBytes(java.nio.charset.StandardCharsets.UTF_8), java.time.Duration.ofSeconds(20));
      assertThat(a.body()).containsPattern("retrievalId: r_[A-Za-z0-9_-]{22}").containsPattern("\\[m_[A-Za-z0-9_-]{22}, success")
          .doesNotContainPattern("\\b[mr][0-9]+\\b");
    }
  }

  @Test
  void theKeyFile_isMadeOwnerOnly_andKeepsIdsAcrossRestarts() throws Exception {
    Path file = dir.resolve("store/memloop.server-key");
    IdCodec first = IdCodec.loadOrCreate(file);
    assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
    IdCodec second = IdCodec.loadOrCreate(file);
    String token = first.encode("team-a", "m42");
    assertThat(second.encode("team-a", "m42")).isEqualTo(token);
    assertThat(second.decode("team-a", token, 'm')).contains("m42");
    assertThat(second.decode("team-b", token, 'm')).isEmpty();
    assertThat(second.decode("team-a", token, 'r')).isEmpty();
    assertThat(IdCodec.random().decode("team-a", token, 'm')).isEmpty();
    assertThat(first.encode("team-b", "m42")).isNotEqualTo(token);
    Files.writeString(file, "junk");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IdCodec.loadOrCreate(file)).hasMessageContaining("--id-key-file");
  }
}
