package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.store.RewardOutcome;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a writing child JVM with SIGKILL at a random number of acknowledged writes, several times
 * over the same store, and checks after each kill that the store opens cleanly and holds every
 * acknowledged write with its exact Q.
 */
class CrashRecoveryTest {
  @TempDir Path tmp;

  private record Insert(String ns, String id, String experience, long qBits) {}

  private record Reward(String ns, String retrievalId, String memoryId, long qBits) {}

  @Test
  void kill9_afterAcknowledgedWrites_losesNone() throws Exception {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(2026);
    Map<String, Insert> inserts = new HashMap<>();
    Map<String, Reward> rewards = new HashMap<>();
    List<String[]> saves = new ArrayList<>();
    for (int round = 0; round < 3; round++) {
      int acks = 150 + rnd.nextInt(300);
      runAndKill(dir, round, acks, inserts, rewards, saves);
      try (LuceneStore store = LuceneStore.open(dir, CrashChild.DIM, CrashChild.OPTIONS)) {
        for (Insert ins : inserts.values()) {
          Memory m = store.get(ins.ns(), ins.id()).orElseThrow(() -> new AssertionError("lost insert " + ins));
          assertThat(m.experience()).isEqualTo(ins.experience());
          if (!rewards.containsKey(ins.id())) {
            // unrewarded, or rewarded without acknowledgement: either Q is allowed, nothing else
            assertThat(m.visits()).isBetween(0L, 1L);
            if (m.visits() == 0) {
              assertThat(Double.doubleToRawLongBits(m.q())).isEqualTo(ins.qBits());
            }
          }
        }
        for (Reward r : rewards.values()) {
          Memory m = store.get(r.ns(), r.memoryId()).orElseThrow(() -> new AssertionError("lost memory " + r));
          assertThat(Double.doubleToRawLongBits(m.q())).as("Q of %s", r).isEqualTo(r.qBits());
          assertThat(m.visits()).isEqualTo(1);
        }
        for (String[] s : saves) {
          RewardOutcome o = store.applyReward(s[0], s[1], CrashChild.T0, (id, u) -> new Utility(u.q(), u.visits()));
          assertThat(o).as("retrieval %s", s[1]).isNotInstanceOf(RewardOutcome.Unknown.class);
          if (rewards.values().stream().anyMatch(r -> r.retrievalId().equals(s[1]))) {
            assertThat(o).isInstanceOf(RewardOutcome.AlreadyRewarded.class);
          }
        }
      }
    }
    assertThat(rewards).isNotEmpty();
  }

  @Test
  void secondProcess_cannotOpenALiveStore() throws Exception {
    Path dir = tmp.resolve("store");
    Process child = start(dir, 1, 1);
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      assertThat(in.readLine()).as("first ack").isNotNull();
      assertThatThrownBy(() -> LuceneStore.open(dir, CrashChild.DIM))
          .isInstanceOfSatisfying(MemLoopException.class,
              e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.STORE_UNAVAILABLE))
          .hasMessageContaining("store " + dir + " is in use by another process");
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
    }
  }

  private void runAndKill(Path dir, int round, int acks, Map<String, Insert> inserts, Map<String, Reward> rewards,
      List<String[]> saves) throws Exception {
    Process child = start(dir, 4, round);
    int seen = 0;
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while (seen < acks && (line = in.readLine()) != null) {
        String[] f = line.split(" ");
        switch (f[0]) {
          case "I" -> inserts.put(f[2], new Insert(f[1], f[2],
              CrashChild.experience(Integer.parseInt(f[3]), Integer.parseInt(f[4])), Long.parseUnsignedLong(f[5], 16)));
          case "S" -> saves.add(new String[] {f[1], f[2], f[3]});
          case "R" -> rewards.put(f[3], new Reward(f[1], f[2], f[3], Long.parseUnsignedLong(f[4], 16)));
          default -> fail("unexpected line from child: " + line);
        }
        seen++;
      }
      child.destroyForcibly(); // SIGKILL while the writers are still going
    } finally {
      child.destroyForcibly();
      assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child exited").isTrue();
    }
    assertThat(seen).as("acks before the child stopped; its stderr:%n%s", Files.readString(tmp.resolve("child.err")))
        .isEqualTo(acks);
  }

  private Process start(Path dir, int threads, long seed) throws Exception {
    String java = ProcessHandle.current().info().command().orElseThrow();
    return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), CrashChild.class.getName(),
        dir.toString(), Integer.toString(threads), Long.toString(seed))
        .redirectError(tmp.resolve("child.err").toFile())
        .start();
  }
}
