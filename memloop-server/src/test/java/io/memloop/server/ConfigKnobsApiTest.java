package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Knob;
import io.memloop.MemLoopConfig;
import io.memloop.Preset;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code PUT /v1/namespaces/{ns}/config} takes the knob table's names, values and conflicts. */
class ConfigKnobsApiTest {
  private static final String CONFIG = "/v1/namespaces/team-a/config";

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

  @Test
  void getShowsEveryKnobOfTheTable_inItsOrder() {
    List<String> shown = new ArrayList<>();
    s.get(CONFIG, "a").json().get("knobs").fieldNames().forEachRemaining(shown::add);
    assertThat(shown).containsExactlyElementsOf(Arrays.stream(Knob.values()).map(Knob::key).toList());
  }

  @Test
  void aBadValue_isNamedByItsKnob_once() {
    var bad = s.send("PUT", CONFIG, "a", "{\"knobs\":{\"k1\":-3}}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().at("/error/field").asText()).isEqualTo("knobs.k1");
    assertThat(bad.json().at("/error/message").asText()).isEqualTo("knobs.k1: must be in [1, 10000], got -3");
    var type = s.send("PUT", CONFIG, "a", "{\"knobs\":{\"taskLearning\":true}}");
    assertThat(type.json().at("/error/message").asText())
        .isEqualTo("knobs.taskLearning: unknown value 'true' (expected one of [OFF, ON, NEIGHBOURS])");
  }

  @Test
  void aConflict_namesBothKnobs_whateverTheirOrderInTheBody() {
    String expected = "knobs.exploration: NONE conflicts with epsilon=0.1; set exploration EPSILON_GREEDY or epsilon 0";
    for (String body : List.of("{\"knobs\":{\"epsilon\":0.1,\"exploration\":\"NONE\"}}",
        "{\"knobs\":{\"exploration\":\"NONE\",\"epsilon\":0.1}}", "{\"knobs\":{\"epsilon\":0.1}}")) {
      var r = s.send("PUT", CONFIG, "a", body);
      assertThat(r.status()).as(body).isEqualTo(400);
      assertThat(r.json().at("/error/field").asText()).as(body).isEqualTo("knobs.exploration");
      assertThat(r.json().at("/error/message").asText()).as(body).isEqualTo(expected);
    }
    assertThat(s.get(CONFIG, "a").json().get("recorded").asBoolean()).isFalse(); // refused requests recorded nothing
    for (String body : List.of("{\"preset\":\"memrl\",\"knobs\":{\"epsilon\":0.1,\"exploration\":\"EPSILON_GREEDY\"}}",
        "{\"preset\":\"memrl\",\"knobs\":{\"exploration\":\"epsilon-greedy\",\"epsilon\":\"0.1\"}}")) {
      var r = s.send("PUT", CONFIG, "a", body);
      assertThat(r.status()).as(body).isEqualTo(200);
      assertThat(s.loop.recordedConfig("team-a")).contains(MemLoopConfig.preset(Preset.MEMRL).toBuilder()
          .exploration(MemLoopConfig.Exploration.EPSILON_GREEDY).epsilon(0.1).build());
    }
  }
}
