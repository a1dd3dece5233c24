package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerApiTest {
  @TempDir Path dir;
  TestServer s;

  @BeforeEach
  void start() {
    s = new TestServer(dir);
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private static final String NS = "/v1/namespaces/team-a";

  @Test
  void anEpisodeRetrievesRewardsAndRemembers() {
    var m = s.post(NS + "/memories", "a", "{\"intent\":\"restart nginx on staging\",\"experience\":\"systemctl restart nginx\",\"outcome\":\"success\"}");
    assertThat(m.status()).isEqualTo(201);
    String id = m.json().get("id").asText();
    assertThat(m.json().get("outcome").asText()).isEqualTo("success");

    var r = s.post(NS + "/retrieve", "a", "{\"intent\":\"restart nginx on staging\"}");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("selected")).hasSize(1);
    assertThat(r.json().get("selected").get(0).get("id").asText()).isEqualTo(id);
    String retrieval = r.json().get("retrievalId").asText();

    var w = s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1,\"usedMemoryIds\":[\"" + id + "\"]}");
    assertThat(w.status()).isEqualTo(200);
    JsonNode change = w.json().get("updated").get(0);
    assertThat(change.get("id").asText()).isEqualTo(id);
    assertThat(change.get("qAfter").asDouble()).isGreaterThan(change.get("qBefore").asDouble());

    var again = s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1}");
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.json().at("/error/field").asText()).isEqualTo("retrievalId");

    var got = s.get(NS + "/memories/" + id, "a");
    assertThat(got.status()).isEqualTo(200);
    assertThat(got.json().get("visits").asInt()).isEqualTo(1);
    assertThat(got.json().get("q").asDouble()).isEqualTo(change.get("qAfter").asDouble());

    var stats = s.get(NS + "/stats", "a");
    assertThat(stats.json().get("memories").asInt()).isEqualTo(1);
    assertThat(stats.json().get("totalVisits").asInt()).isEqualTo(1);
    // issue 25: the model the store records (the server's --embedder)
    assertThat(stats.json().get("model").get("id").asText()).isEqualTo("hashing-v1-384");
    assertThat(stats.json().get("model").get("dimension").asInt()).isEqualTo(384);

    assertThat(s.send("DELETE", NS + "/memories/" + id, "a", null).status()).isEqualTo(204);
    assertThat(s.get(NS + "/memories/" + id, "a").status()).isEqualTo(404);
    assertThat(s.send("DELETE", NS + "/memories/" + id, "a", null).status()).isEqualTo(404);
  }

  @Test
  void everyMemoryCarriesItsParts_aMergedFailureNoteItsAttemptsNewestFirst() {
    var plain = s.post(NS + "/memories", "a", "{\"intent\":\"restart nginx\",\"experience\":\"systemctl restart nginx\",\"outcome\":\"success\"}");
    assertThat(plain.json().get("parts").toString()).isEqualTo("[\"systemctl restart nginx\"]");
    s.post(NS + "/memories", "a", "{\"intent\":\"rotate the api key\",\"experience\":\"edited the wrong vault\",\"outcome\":\"failure\"}");
    var merged = s.post(NS + "/memories", "a", "{\"intent\":\"rotate the api key\",\"experience\":\"line one\\nline two\",\"outcome\":\"failure\"}");
    assertThat(merged.json().get("parts").toString()).isEqualTo("[\"line one\\nline two\",\"edited the wrong vault\"]");
    List<String> fields = new ArrayList<>();
    s.get(NS + "/memories/" + merged.json().get("id").asText(), "a").json().fieldNames().forEachRemaining(fields::add);
    assertThat(fields).containsExactly("id", "namespace", "intentId", "intent", "experience", "parts", "outcome", "q", "visits",
        "createdAt", "updatedAt");
  }

  @Test
  void aMultiStepEpisodeRewardsEachStepTowardsTheNextStepsValue() {
    assertThat(s.send("PUT", NS + "/config", "a", "{\"preset\":\"memrl\",\"knobs\":{\"gamma\":0.5}}").status()).isEqualTo(200);
    s.post(NS + "/memories", "a", "{\"intent\":\"open the billing console\",\"experience\":\"log in as admin\",\"outcome\":\"success\"}");
    s.post(NS + "/memories", "a", "{\"intent\":\"refund the duplicate invoice\",\"experience\":\"use the refund tab\",\"outcome\":\"success\"}");
    String first = s.post(NS + "/retrieve", "a", "{\"intent\":\"open the billing console\"}").json().get("retrievalId").asText();
    String second = s.post(NS + "/retrieve", "a", "{\"intent\":\"refund the duplicate invoice\"}").json().get("retrievalId").asText();
    var last = s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + second + "\",\"reward\":1}");
    assertThat(last.json().has("target")).as("a plain reward's target is its reward").isFalse();
    double next = last.json().get("updated").get(0).get("qAfter").asDouble();

    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + first + "\",\"reward\":0,\"nextRetrievalId\":\"r99999\"}"),
        404, "nextRetrievalId");
    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + first + "\",\"reward\":0,\"nextRetrievalId\":\"../x\"}"),
        400, "nextRetrievalId");
    var step = s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + first + "\",\"reward\":0,\"nextRetrievalId\":\"" + second + "\"}");
    assertThat(step.status()).isEqualTo(200);
    assertThat(step.json().get("target").asDouble()).isEqualTo(0.5 * next);
    assertThat(step.json().get("updated").get(0).get("qAfter").asDouble()).isEqualTo(0.3 * 0.5 * next);
  }

  @Test
  void listingPagesThroughEveryMemoryOnce() {
    List<String> ids = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      ids.add(s.post(NS + "/memories", "a", "{\"intent\":\"task " + i + "\",\"experience\":\"step " + i + "\",\"outcome\":\"failure\"}")
          .json().get("id").asText());
    }
    List<String> seen = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      var p = s.get(NS + "/memories?limit=3" + (after == null ? "" : "&after=" + after), "a");
      assertThat(p.status()).isEqualTo(200);
      p.json().get("memories").forEach(n -> seen.add(n.get("id").asText()));
      after = p.json().get("next").isNull() ? null : p.json().get("next").asText();
      pages++;
    } while (after != null);
    assertThat(seen).containsExactlyElementsOf(ids);
    assertThat(pages).isEqualTo(3);
    assertThat(s.get(NS + "/memories?limit=0", "a").json().at("/error/field").asText()).isEqualTo("limit");
    assertThat(s.get(NS + "/memories?after=x1", "a").json().at("/error/field").asText()).isEqualTo("after");
  }

  @Test
  void aNamespaceConfigurationIsRecordedAndUsedByEveryClient() {
    var before = s.get(NS + "/config", "a");
    assertThat(before.json().get("recorded").asBoolean()).isFalse();
    var put = s.send("PUT", NS + "/config", "a", "{\"preset\":\"memrl\",\"knobs\":{\"k1\":7,\"epsilon\":\"0\"}}");
    assertThat(put.status()).isEqualTo(200);
    assertThat(put.json().at("/knobs/k1").asText()).isEqualTo("7");
    assertThat(s.loop.config("team-a").k1()).isEqualTo(7);
    assertThat(s.loop.recordedConfig("team-a").orElseThrow().k1()).isEqualTo(7);
    var bad = s.send("PUT", NS + "/config", "a", "{\"knobs\":{\"k1\":-3}}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().at("/error/field").asText()).isEqualTo("knobs.k1");
    var unknown = s.send("PUT", NS + "/config", "a", "{\"knobs\":{\"k9\":1}}");
    assertThat(unknown.json().at("/error/field").asText()).isEqualTo("knobs.k9");
    assertThat(s.send("PUT", NS + "/config", "a", "{\"preset\":\"best\"}").json().at("/error/field").asText()).isEqualTo("preset");
    assertThat(s.loop.config("team-a").k1()).isEqualTo(7); // rejected requests changed nothing
  }

  @Test
  void badFieldsAreNamedAndChangeNothing() {
    expectField(s.post(NS + "/retrieve", "a", "{}"), 400, "intent");
    expectField(s.post(NS + "/retrieve", "a", "{\"intent\":\"x\",\"limit\":3}"), 400, "limit");
    expectField(s.post(NS + "/retrieve", "a", "{\"intent\":42}"), 400, "intent");
    expectField(s.post(NS + "/retrieve", "a", "{\"embedding\":[1,2,3]}"), 400, "intent.embedding");
    expectField(s.post(NS + "/retrieve", "a", "{\"embedding\":[1,\"x\"]}"), 400, "embedding[1]");
    expectField(s.post(NS + "/retrieve", "a", "[1,2]"), 400, "body");
    expectField(s.post(NS + "/retrieve", "a", "{\"intent\":\"x\""), 400, "body");
    expectField(s.post(NS + "/retrieve", "a", "{\"intent\":\"x\",\"intent\":\"y\"}"), 400, "body");
    expectField(s.post(NS + "/retrieve", "a", "{\"intent\":\"" + "x".repeat(9000) + "\"}"), 400, "intent");
    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"r1\",\"reward\":\"1\"}"), 400, "reward");
    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"r1\",\"reward\":1e999}"), 400, "reward");
    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"r1\",\"reward\":7}"), 400, "reward");
    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"r999\",\"reward\":1}"), 404, "retrievalId");
    expectField(s.post(NS + "/rewards", "a", "{\"retrievalId\":\"../../etc\",\"reward\":1}"), 400, "retrievalId");
    expectField(s.post(NS + "/memories", "a", "{\"intent\":\"x\",\"experience\":\"y\",\"outcome\":\"great\"}"), 400, "outcome");
    expectField(s.post(NS + "/memories", "a", "{\"intent\":\"x\",\"experience\":\"  \",\"outcome\":\"success\"}"), 400, "experience");
    expectField(s.get("/v1/namespaces/bad%20ns/stats", "ops"), 400, "namespace");
    var big = s.post(NS + "/memories", "a", "{\"intent\":\"x\",\"experience\":\"" + "y".repeat(2 << 20) + "\",\"outcome\":\"success\"}");
    expectField(big, 413, "body");
    assertThat(s.get(NS + "/stats", "a").json().get("memories").asInt()).isZero();
    assertThat(s.get(NS + "/stats", "a").json().get("pendingRetrievals").asInt()).isZero();
  }

  @Test
  void unknownRoutesAndMethodsAnswerInJson() {
    expectField(s.get("/v1/nothing", "a"), 404, "");
    var r = s.send("PATCH", NS + "/stats", "a", "{}");
    assertThat(r.status()).isEqualTo(405);
    assertThat(r.json().at("/error/code").asText()).isEqualTo("method_not_allowed");
  }

  @Test
  void openEndpointsNeedNoKey() {
    assertThat(s.get("/v1/health", null).status()).isEqualTo(200);
    assertThat(s.get("/v1/ready", null).json().get("status").asText()).isEqualTo("ready");
    assertThat(s.get("/v1/openapi.json", null).json().get("openapi").asText()).startsWith("3.1");
    s.post(NS + "/memories", "a", "{\"intent\":\"x\",\"experience\":\"y\",\"outcome\":\"success\"}");
    String metrics = s.get("/metrics", null).text();
    assertThat(metrics).doesNotContain("team-a"); // namespace labels are opt-in (--metrics-namespaces)
    assertThat(metrics).contains("memloop_requests_seconds_bucket{");
    assertThat(metrics).contains("route=\"remember\"");
    assertThat(metrics).contains("memloop_store_size_bytes");
    assertThat(metrics).containsPattern("memloop_wal_fsync_seconds_count [1-9]");
  }

  static void expectField(TestServer.Reply r, int status, String field) {
    assertThat(r.status()).as(r.text()).isEqualTo(status);
    assertThat(r.json()).as(r.text()).isNotNull();
    assertThat(r.json().at("/error/field").asText()).as(r.text()).isEqualTo(field);
    assertThat(r.json().at("/error/message").asText()).isNotBlank();
  }
}
