package io.memloop.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.MutableClock;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import io.memloop.UtilityChange;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link ServerActivity}'s bounds, with a hand-moved clock and small bounds. */
class ServerActivityTest {
  final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));

  private static Retrieval retrieval(String id, String... memoryIds) {
    List<Candidate> c = new java.util.ArrayList<>();
    for (String m : memoryIds) {
      c.add(new Candidate(m, 0.9, 0, 0.5, true, 1));
    }
    return new Retrieval(id, "ns", c, List.of());
  }

  private static RewardResult reward(String retrievalId, double reward, String... memoryIds) {
    List<UtilityChange> changes = new java.util.ArrayList<>();
    for (String m : memoryIds) {
      changes.add(new UtilityChange(m, 0, reward / 2, 1));
    }
    return new RewardResult(retrievalId, reward, changes, reward);
  }

  @Test
  void eventsKeepTheNewestWithinTheBound_andNumbersRunOn() {
    ServerActivity a = new ServerActivity(clock, 5, 3, 2);
    for (int i = 1; i <= 12; i++) {
      a.forgot("ns", clock.instant(), "m" + i);
    }
    assertThat(a.events("ns", null, 100)).extracting(ServerActivity.Event::seq).containsExactly(8L, 9L, 10L, 11L, 12L);
    assertThat(a.events("ns", 0L, 2)).extracting(ServerActivity.Event::seq).containsExactly(8L, 9L);
    assertThat(a.events("ns", 10L, 100)).extracting(ServerActivity.Event::seq).containsExactly(11L, 12L);
    assertThat(a.events("ns", 12L, 100)).isEmpty();
    assertThat(a.events("other", null, 100)).isEmpty();
  }

  @Test
  void aMemorysHistoryKeepsItsNewestEntries_andIsThenIncomplete() {
    ServerActivity a = new ServerActivity(clock, 100, 3, 10);
    a.configured("ns", clock.instant(), MemLoopConfig.preset(Preset.DEFAULT));
    for (int i = 0; i < 5; i++) {
      a.retrieved("ns", clock.instant(), Intent.ofText("task " + i), new float[0], retrieval("r" + i, "m1"));
      a.rewarded("ns", clock.instant(), reward("r" + i, i % 2 == 0 ? 1 : -1, "m1"), null);
      clock.advance(Duration.ofSeconds(1));
    }
    ServerActivity.History h = a.history("ns", "m1").orElseThrow();
    assertThat(h.complete()).isFalse();
    assertThat(h.q()).extracting(ServerActivity.QPoint::retrievalId).containsExactly("r2", "r3", "r4");
    assertThat(h.retrievals()).extracting(ServerActivity.Seen::retrievalId).containsExactly("r4", "r3", "r2");
    assertThat(h.retrievals()).extracting(ServerActivity.Seen::success).containsExactly(true, false, true);
    a.retrieved("ns", clock.instant(), Intent.ofText("x"), new float[0], retrieval("r9", "m2"));
    assertThat(a.history("ns", "m2").orElseThrow().complete()).isTrue();
  }

  @Test
  void memoriesBeyondTheBoundDropTheLeastRecentlyTouched_andForgottenOnesGo() {
    ServerActivity a = new ServerActivity(clock, 100, 3, 2);
    a.retrieved("ns", clock.instant(), Intent.ofText("x"), new float[0], retrieval("r1", "m1"));
    a.retrieved("ns", clock.instant(), Intent.ofText("x"), new float[0], retrieval("r2", "m2"));
    a.rewarded("ns", clock.instant(), reward("r1", 1, "m1"), null); // m1 touched: m2 is now the least recent
    a.retrieved("ns", clock.instant(), Intent.ofText("x"), new float[0], retrieval("r3", "m3"));
    assertThat(a.history("ns", "m2")).isEmpty();
    assertThat(a.history("ns", "m1")).isPresent();
    assertThat(a.droppedAny("ns")).isTrue();
    assertThat(a.droppedAny("other")).isFalse();
    a.retrieved("ns", clock.instant(), Intent.ofText("x"), new float[0], retrieval("r4", "m4"));
    assertThat(a.history("ns", "m4").orElseThrow().complete()).as("kept after a drop: may lack what was dropped").isFalse();
    a.forgot("ns", clock.instant(), "m4");
    assertThat(a.history("ns", "m4")).isEmpty();
  }

  @Test
  void bucketsCountEachMinuteOfTheLast24Hours() {
    ServerActivity a = new ServerActivity(clock, 100, 3, 10);
    SplittableRandom rnd = new SplittableRandom(42);
    int rewards = 0;
    int successes = 0;
    for (int i = 0; i < 50; i++) {
      double r = rnd.nextBoolean() ? 1 : -1;
      a.rewarded("ns", clock.instant(), reward("r" + i, r), null);
      rewards++;
      successes += r > 0 ? 1 : 0;
    }
    clock.advance(Duration.ofMinutes(2));
    a.remembered("ns", clock.instant(), memory(), false, null);
    List<ServerActivity.Bucket> b = a.buckets("ns");
    assertThat(b).hasSize(2);
    assertThat(b.get(0).start()).isEqualTo(Instant.parse("2026-01-01T00:00:00Z"));
    assertThat(b.get(0).rewards()).isEqualTo(rewards);
    assertThat(b.get(0).successes()).isEqualTo(successes);
    assertThat(b.get(1).remembered()).isEqualTo(1);
    clock.advance(Duration.ofHours(24).minusMinutes(1)); // the first minute is now over 24 h old
    assertThat(a.buckets("ns")).hasSize(1);
    a.edited("ns", clock.instant(), memory());
    assertThat(a.buckets("ns")).extracting(ServerActivity.Bucket::edited).containsExactly(0L, 1L);
    clock.advance(Duration.ofMinutes(1)); // minute 2's slot comes round again: reset, not added to
    a.edited("ns", clock.instant(), memory());
    assertThat(a.buckets("ns")).extracting(ServerActivity.Bucket::edited).containsExactly(1L, 1L);
    assertThat(a.buckets("ns")).extracting(ServerActivity.Bucket::remembered).containsExactly(0L, 0L);
  }

  private static io.memloop.Memory memory() {
    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    return new io.memloop.Memory("m1", "ns", "i1", "x", new float[] {1}, "y", io.memloop.Outcome.SUCCESS, 0, 0, t, t);
  }
}
