package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server started without an activity or reports (the Java API's default): empty activity, store-only histories. */
class InspectorWithoutActivityTest {
  @TempDir Path dir;

  @Test
  void activityAndEventsAreEmpty_historiesShowTheStoredQ_andTheReportIsNotAvailable() {
    try (TestServer s = new TestServer(dir)) {
      String ns = "/v1/namespaces/team-a";
      String m = s.post(ns + "/memories", "a", "{\"intent\":\"x\",\"experience\":\"y\",\"outcome\":\"success\"}").json().get("id").asText();
      String r = s.post(ns + "/retrieve", "a", "{\"intent\":\"x\"}").json().get("retrievalId").asText();
      s.post(ns + "/rewards", "a", "{\"retrievalId\":\"" + r + "\",\"reward\":1}");
      assertThat(s.get(ns + "/overview", "a").json().at("/activity/buckets")).isEmpty();
      JsonNode events = s.get(ns + "/events", "a").json();
      assertThat(events.get("events")).isEmpty();
      assertThat(events.get("next").asLong()).isZero();
      JsonNode h = s.get(ns + "/memories/" + m + "/history", "a").json();
      assertThat(h.get("q")).hasSize(1);
      assertThat(h.at("/q/0/q").asDouble()).isEqualTo(h.at("/memory/q").asDouble()).isPositive();
      assertThat(h.get("retrievals")).isEmpty();
      assertThat(h.get("complete").asBoolean()).isFalse();
      JsonNode report = s.get(ns + "/report", "a").json();
      assertThat(report.get("available").asBoolean()).isFalse();
      assertThat(report.get("reason").asText()).isEqualTo("the server was started without --event-log");
    }
  }
}
