package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The routes of issue 25 over HTTP: search and paging, edit in place, and ending an episode in one call. */
class EditSearchEpisodeApiTest {
  private static final String NS = "/v1/namespaces/team-a";
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

  private String remember(String intent, String experience, String outcome) {
    var m = s.post(NS + "/memories", "a",
        "{\"intent\":\"" + intent + "\",\"experience\":\"" + experience + "\",\"outcome\":\"" + outcome + "\"}");
    assertThat(m.status()).as(m.text()).isEqualTo(201);
    return m.json().get("id").asText();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  @Test
  void searchFiltersByTextAndOutcome_andPagesWithSealedCursors() {
    for (int i = 0; i < 7; i++) {
      remember("deploy service " + i, "run make deploy-" + i, i % 2 == 0 ? "success" : "failure");
    }
    remember("rotate the logs", "logrotate -f", "success");

    var failures = s.get(NS + "/memories?outcome=failure", "a");
    assertThat(failures.status()).isEqualTo(200);
    assertThat(failures.json().get("total").asLong()).isEqualTo(3);
    var text = s.get(NS + "/memories?text=" + enc("LOGROTATE"), "a");
    assertThat(text.json().get("total").asLong()).isEqualTo(1);
    assertThat(text.json().at("/memories/0/experience").asText()).isEqualTo("logrotate -f");

    List<String> seen = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      var page = s.get(NS + "/memories?limit=3&text=deploy&order=desc" + (after == null ? "" : "&after=" + enc(after)), "a");
      assertThat(page.status()).as(page.text()).isEqualTo(200);
      assertThat(page.json().get("total").asLong()).isEqualTo(7);
      page.json().get("memories").forEach(m -> seen.add(m.get("experience").asText()));
      after = page.json().get("next").isNull() ? null : page.json().get("next").asText();
      pages++;
    } while (after != null);
    assertThat(pages).isEqualTo(3);
    assertThat(seen).containsExactly("run make deploy-6", "run make deploy-5", "run make deploy-4", "run make deploy-3",
        "run make deploy-2", "run make deploy-1", "run make deploy-0");
  }

  @Test
  void badParametersAndForeignCursorsAre400NamingThem() {
    for (int i = 0; i < 3; i++) {
      remember("task " + i, "step " + i, "success");
    }
    String next = s.get(NS + "/memories?limit=1", "a").json().get("next").asText();
    // sealed, not the store's own cursor: a fresh nonce each time, so the same position never reads the same,
    // and both spellings open to the same next page
    String again = s.get(NS + "/memories?limit=1", "a").json().get("next").asText();
    assertThat(next).startsWith("c_").isNotEqualTo(again);
    assertThat(s.get(NS + "/memories?limit=1&after=" + enc(again), "a").json().at("/memories/0/id").asText())
        .isEqualTo(s.get(NS + "/memories?limit=1&after=" + enc(next), "a").json().at("/memories/0/id").asText());
    // team-b's key on its own namespace cannot use team-a's cursor
    var foreign = s.get("/v1/namespaces/team-b/memories?after=" + enc(next), "b");
    assertThat(foreign.status()).isEqualTo(400);
    assertThat(foreign.json().at("/error/field").asText()).isEqualTo("after");
    String forged = next.substring(0, next.length() - 2) + (next.endsWith("AA") ? "BB" : "AA");
    assertThat(s.get(NS + "/memories?after=" + enc(forged), "a").json().at("/error/field").asText()).isEqualTo("after");
    for (String[] bad : new String[][] {{"minq=1", "minq"}, {"minQ=abc", "minQ"}, {"minQ=NaN", "minQ"}, {"maxVisits=-1", "maxVisits"},
        {"outcome=won", "outcome"}, {"sort=intent", "sort"}, {"order=up", "order"}, {"createdFrom=yesterday", "createdFrom"},
        {"limit=0", "limit"}, {"limit=5&limit=6", "limit"}, {"minQ=1&maxQ=0", "maxQ"}}) {
      var r = s.get(NS + "/memories?" + bad[0], "a");
      assertThat(r.status()).as(bad[0] + ": " + r.text()).isEqualTo(400);
      assertThat(r.json().at("/error/field").asText()).as(bad[0]).isIn(bad[1], "minQ");
    }
  }

  @Test
  void editKeepsUtilityAndVisits_andRefusesBadInput() {
    String id = remember("restart nginx", "systemctl restart nginx", "success");
    var r = s.post(NS + "/retrieve", "a", "{\"intent\":\"restart nginx\"}");
    s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + r.json().get("retrievalId").asText() + "\",\"reward\":1}");
    JsonNode before = s.get(NS + "/memories/" + id, "a").json();

    var edited = s.send("PATCH", NS + "/memories/" + id, "a", "{\"experience\":\"sudo systemctl restart nginx\"}");
    assertThat(edited.status()).as(edited.text()).isEqualTo(200);
    assertThat(edited.json().get("id").asText()).isEqualTo(id);
    assertThat(edited.json().get("experience").asText()).isEqualTo("sudo systemctl restart nginx");
    assertThat(edited.json().get("q").asDouble()).isEqualTo(before.get("q").asDouble());
    assertThat(edited.json().get("visits").asLong()).isEqualTo(1);
    assertThat(edited.json().get("createdAt").asText()).isEqualTo(before.get("createdAt").asText());
    assertThat(s.get(NS + "/memories/" + id, "a").json().get("experience").asText()).isEqualTo("sudo systemctl restart nginx");

    var blank = s.send("PATCH", NS + "/memories/" + id, "a", "{\"experience\":\"  \"}");
    assertThat(blank.status()).isEqualTo(400);
    assertThat(blank.json().at("/error/field").asText()).isEqualTo("experience");
    var extra = s.send("PATCH", NS + "/memories/" + id, "a", "{\"experience\":\"x\",\"q\":1}");
    assertThat(extra.status()).isEqualTo(400);
    assertThat(s.send("PATCH", NS + "/memories/m_AAAAAAAAAAAAAAAAAAAAAA", "a", "{\"experience\":\"x\"}").status()).isEqualTo(404);
    assertThat(s.send("PATCH", "/v1/namespaces/team-b/memories/" + id, "b", "{\"experience\":\"x\"}").status()).isEqualTo(404);
    assertThat(s.get(NS + "/memories/" + id, "a").json().get("experience").asText()).isEqualTo("sudo systemctl restart nginx");
  }

  @Test
  void anEpisodeEndsInOneCall_andABadEndWritesNothing() {
    String id = remember("build the docs", "mkdocs build", "success");
    var r = s.post(NS + "/retrieve", "a", "{\"intent\":\"build the docs\"}");
    String retrieval = r.json().get("retrievalId").asText();

    var bad = s.post(NS + "/episodes", "a", "{\"retrievalId\":\"" + retrieval
        + "\",\"reward\":1,\"intent\":\"build the docs\",\"experience\":\"mkdocs build --strict\",\"outcome\":\"won\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().at("/error/field").asText()).isEqualTo("outcome");
    assertThat(s.get(NS + "/stats", "a").json().get("memories").asInt()).isEqualTo(1);
    assertThat(s.get(NS + "/memories/" + id, "a").json().get("visits").asInt()).isZero();

    var end = s.post(NS + "/episodes", "a", "{\"retrievalId\":\"" + retrieval + "\",\"reward\":1,\"usedMemoryIds\":[\"" + id
        + "\"],\"intent\":\"build the docs\",\"experience\":\"mkdocs build --strict\",\"outcome\":\"success\"}");
    assertThat(end.status()).as(end.text()).isEqualTo(201);
    assertThat(end.json().at("/reward/retrievalId").asText()).isEqualTo(retrieval);
    assertThat(end.json().at("/reward/updated/0/id").asText()).isEqualTo(id);
    assertThat(end.json().at("/memory/experience").asText()).isEqualTo("mkdocs build --strict");
    assertThat(end.json().at("/memory/id").asText()).startsWith("m_");
    assertThat(s.get(NS + "/memories/" + id, "a").json().get("visits").asInt()).isEqualTo(1);
    assertThat(s.get(NS + "/stats", "a").json().get("memories").asInt()).isEqualTo(2);

    var again = s.post(NS + "/episodes", "a", "{\"retrievalId\":\"" + retrieval
        + "\",\"reward\":1,\"intent\":\"build the docs\",\"experience\":\"a third way\",\"outcome\":\"success\"}");
    assertThat(again.status()).isEqualTo(409);
    assertThat(again.json().at("/error/field").asText()).isEqualTo("retrievalId");
    assertThat(s.get(NS + "/stats", "a").json().get("memories").asInt()).isEqualTo(2);
  }
}
