package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The inspector's routes over a real server whose engine reports to a {@link ServerActivity}. */
class InspectorApiTest {
  static final String NS = "/v1/namespaces/team-a";
  @TempDir Path dir;
  TestServer s;
  final List<String> reported = new ArrayList<>();

  @BeforeEach
  void start() {
    s = new TestServer(dir, ServerOptions.defaults().withPort(0).withActivity(new ServerActivity())
        .withReports(ns -> {
          reported.add(ns);
          return Map.of("available", true, "decisions", reported.size());
        }));
  }

  @AfterEach
  void stop() {
    s.close();
  }

  private String remember(String intent, String experience) {
    return s.post(NS + "/memories", "a", "{\"intent\":\"" + intent + "\",\"experience\":\"" + experience
        + "\",\"outcome\":\"success\"}").json().get("id").asText();
  }

  private JsonNode retrieve(String intent) {
    return s.post(NS + "/retrieve", "a", "{\"intent\":\"" + intent + "\"}").json();
  }

  @Test
  void overview_showsStatsConfigLearnedAndTheMinutesActivity() {
    remember("deploy the api", "make deploy");
    JsonNode r = retrieve("deploy the api");
    s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + r.get("retrievalId").asText() + "\",\"reward\":1}");
    JsonNode o = s.get(NS + "/overview", "a").json();
    assertThat(o.get("namespace").asText()).isEqualTo("team-a");
    assertThat(o.get("stats")).isEqualTo(s.get(NS + "/stats", "a").json());
    assertThat(o.get("config")).isEqualTo(s.get(NS + "/config", "a").json());
    assertThat(o.at("/learned/taskLearning").asBoolean()).isTrue();
    assertThat(o.at("/learned/exploration/explored").asLong()).isZero();
    assertThat(o.at("/learned/exploration/probability").isNull()).isTrue();
    assertThat(o.at("/learned/noteDepth/wholeSuccessRate").isNull()).isTrue();
    assertThat(o.at("/learned/similarityDirections/pairs").asLong()).as("no learned similarity in the default").isZero();
    assertThat(o.at("/learned/similarityDirections/scales").isEmpty()).isTrue();
    assertThat(o.at("/learned/similarityDirections/varianceShare").isNull()).isTrue();
    assertThat(o.at("/activity/bucketSeconds").asInt()).isEqualTo(60);
    JsonNode buckets = o.at("/activity/buckets");
    long retrievals = 0;
    long rewards = 0;
    long successes = 0;
    long remembered = 0;
    for (JsonNode b : buckets) {
      retrievals += b.get("retrievals").asLong();
      rewards += b.get("rewards").asLong();
      successes += b.get("successes").asLong();
      remembered += b.get("remembered").asLong();
    }
    assertThat(new long[] {retrievals, rewards, successes, remembered}).containsExactly(1, 1, 1, 1);
  }

  @Test
  void learned_showsWhatALearnedSimilarityDiscounts() {
    io.memloop.Learned l = new io.memloop.Learned(true, 0, null, 0, null, null, 0, null, 0, null, 0.1, List.of(), 0, 96, 64,
        List.of(0.31, 0.58), 0.42);
    @SuppressWarnings("unchecked")
    Map<String, Object> directions = (Map<String, Object>) Inspector.learned(l).get("similarityDirections");
    assertThat(directions).containsExactly(Map.entry("pairs", 96L), Map.entry("fittedAt", 64L),
        Map.entry("scales", List.of(0.31, 0.58)), Map.entry("varianceShare", 0.42));
  }

  @Test
  void events_arePolledInOrderWithTheClientsIds() {
    String m = remember("deploy the api", "make deploy");
    JsonNode r = retrieve("deploy the api");
    String rid = r.get("retrievalId").asText();
    s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + rid + "\",\"reward\":-1}");
    JsonNode all = s.get(NS + "/events", "a").json();
    List<String> types = new ArrayList<>();
    all.get("events").forEach(e -> types.add(e.get("type").asText()));
    assertThat(types).containsExactly("configured", "remembered", "retrieved", "rewarded");
    JsonNode events = all.get("events");
    assertThat(events.get(1).get("memoryId").asText()).isEqualTo(m);
    assertThat(events.get(2).get("retrievalId").asText()).isEqualTo(rid);
    assertThat(events.get(2).get("memoryIds").get(0).asText()).isEqualTo(m);
    assertThat(events.get(2).get("intent").asText()).isEqualTo("deploy the api");
    assertThat(events.get(3).get("reward").asDouble()).isEqualTo(-1);
    assertThat(events.get(3).get("success").asBoolean()).isFalse();
    assertThat(all.get("next").asLong()).isEqualTo(events.get(3).get("seq").asLong());
    // polling: limit and after
    JsonNode first = s.get(NS + "/events?after=0&limit=2", "a").json();
    assertThat(first.get("events")).hasSize(2);
    JsonNode rest = s.get(NS + "/events?after=" + first.get("next").asLong() + "&limit=500", "a").json();
    assertThat(rest.get("events")).hasSize(2);
    JsonNode none = s.get(NS + "/events?after=" + rest.get("next").asLong(), "a").json();
    assertThat(none.get("events")).isEmpty();
    assertThat(none.get("next").asLong()).isEqualTo(rest.get("next").asLong());
  }

  @Test
  void history_showsQAfterEachRewardAndTheRetrievalsNewestFirst() {
    String m = remember("deploy the api", "make deploy");
    JsonNode fresh = s.get(NS + "/memories/" + m + "/history", "a").json();
    assertThat(fresh.get("q")).hasSize(1);
    assertThat(fresh.at("/q/0/q").asDouble()).isEqualTo(fresh.at("/memory/q").asDouble());
    assertThat(fresh.at("/q/0/retrievalId").isNull()).isTrue();
    assertThat(fresh.get("complete").asBoolean()).isTrue();
    String r1 = retrieve("deploy the api").get("retrievalId").asText();
    s.post(NS + "/rewards", "a", "{\"retrievalId\":\"" + r1 + "\",\"reward\":1}");
    String r2 = retrieve("deploy the api").get("retrievalId").asText();
    JsonNode h = s.get(NS + "/memories/" + m + "/history", "a").json();
    assertThat(h.get("memory").get("id").asText()).isEqualTo(m);
    assertThat(h.get("q")).hasSize(1);
    assertThat(h.at("/q/0/retrievalId").asText()).isEqualTo(r1);
    assertThat(h.at("/q/0/q").asDouble()).isEqualTo(h.at("/memory/q").asDouble()).isPositive();
    assertThat(h.get("retrievals")).extracting(e -> e.get("retrievalId").asText()).containsExactly(r2, r1);
    assertThat(h.at("/retrievals/1/reward").asDouble()).isEqualTo(1);
    assertThat(h.at("/retrievals/1/success").asBoolean()).isTrue();
    assertThat(h.at("/retrievals/0/reward").isNull()).isTrue();
    assertThat(h.at("/retrievals/0/selected").asBoolean()).isTrue();
    assertThat(h.get("since").asText()).isNotBlank();
  }

  @Test
  void neighbours_areOtherIntentsMemoriesNearestFirst() {
    String m = remember("deploy the api to production", "make deploy");
    String near = remember("deploy the api to staging", "make deploy-staging");
    String far = remember("bake a chocolate cake", "oven at 180");
    JsonNode n = s.get(NS + "/memories/" + m + "/neighbours?limit=5", "a").json().get("neighbours");
    List<String> ids = new ArrayList<>();
    n.forEach(e -> ids.add(e.at("/memory/id").asText()));
    assertThat(ids).containsExactly(near, far);
    assertThat(n.get(0).get("similarity").asDouble()).isGreaterThan(n.get(1).get("similarity").asDouble());
    assertThat(s.get(NS + "/memories/" + m + "/neighbours?limit=1", "a").json().get("neighbours")).hasSize(1);
  }

  @Test
  void explain_showsWhatTheNextRetrievalSelects_andChangesNothing() {
    remember("deploy the api", "make deploy");
    remember("deploy the web app", "npm run deploy");
    remember("bake a cake", "oven");
    JsonNode statsBefore = s.get(NS + "/stats", "a").json();
    JsonNode x = s.post(NS + "/explain", "a", "{\"intent\":\"deploy the api\"}").json();
    assertThat(s.get(NS + "/stats", "a").json()).isEqualTo(statsBefore);
    JsonNode r = retrieve("deploy the api");
    List<String> shown = new ArrayList<>();
    x.get("shown").forEach(id -> shown.add(id.asText()));
    List<String> selected = new ArrayList<>();
    r.get("selected").forEach(m -> selected.add(m.get("id").asText()));
    assertThat(shown).isNotEmpty().isEqualTo(selected);
    assertThat(x.at("/config/k2").asInt()).isEqualTo(s.loop.config("team-a").k2());
    assertThat(x.at("/recalled/memories").asInt()).isEqualTo(x.get("candidates").size());
    JsonNode c = x.get("candidates").get(0);
    for (String f : List.of("rank", "memory", "similarity", "q", "normSimilarity", "normQ", "score", "eligible", "dropped",
        "tier", "greedy", "probability", "shown")) {
      assertThat(c.has(f)).as(f).isTrue();
    }
    assertThat(c.get("rank").asInt()).isEqualTo(1);
    assertThat(x.get("steps")).extracting(st -> st.get("step").asText())
        .containsExactly("Score", "TieBreak", "QMinFilter", "TaskOrder", "Explore", "NoteDepth");
  }

  @Test
  void report_isTheSourcesAnswerCachedPerNamespace() {
    assertThat(s.get(NS + "/report", "a").json()).isEqualTo(Json.MAPPER.valueToTree(Map.of("available", true, "decisions", 1)));
    assertThat(s.get(NS + "/report", "a").json().get("decisions").asInt()).isEqualTo(1);
    assertThat(reported).containsExactly("team-a");
  }

  @Test
  void badParametersAre400NamingTheField_andAnUnknownMemory404() {
    String m = remember("deploy the api", "make deploy");
    assertField(s.get(NS + "/events?limit=0", "a"), "limit");
    assertField(s.get(NS + "/events?limit=501", "a"), "limit");
    assertField(s.get(NS + "/events?after=-1", "a"), "after");
    assertField(s.get(NS + "/events?since=1", "a"), "since");
    assertField(s.get(NS + "/overview?x=1", "a"), "x");
    assertField(s.get(NS + "/memories/" + m + "/neighbours?limit=51", "a"), "limit");
    assertField(s.get(NS + "/memories/" + m + "/history?limit=1", "a"), "limit");
    assertField(s.post(NS + "/explain", "a", "{}"), "intent");
    assertField(s.post(NS + "/explain", "a", "{\"intent\":\"x\",\"k2\":3}"), "k2");
    assertField(s.post(NS + "/explain", "a", "{\"intent\":7}"), "intent");
    for (String route : List.of("/history", "/neighbours")) {
      var missing = s.get(NS + "/memories/mZZZZ" + route, "a");
      assertThat(missing.status()).as(route).isEqualTo(404);
      assertThat(missing.json().at("/error/field").asText()).isEqualTo("memoryId");
      assertThat(missing.json().at("/error/message").asText())
          .isEqualTo(s.get(NS + "/memories/mZZZZ", "a").json().at("/error/message").asText());
    }
  }

  private static void assertField(TestServer.Reply reply, String field) {
    assertThat(reply.status()).as(reply.text()).isEqualTo(400);
    assertThat(reply.json().at("/error/field").asText()).as(reply.text()).isEqualTo(field);
  }
}
