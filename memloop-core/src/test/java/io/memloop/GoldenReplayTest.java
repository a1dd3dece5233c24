package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Golden replay: a seeded stream of episodes (retrieve, reward, remember) under each preset, written down exactly —
 * every candidate's id, similarity, Q, score and selection probability as the bits of the double — and compared with
 * the record made at commit 9a469e6, before issue 26's redesign moved every learning decision into
 * {@code io.memloop.policy}. A refactoring of the policy must leave these bytes as they are; a deliberate change of
 * behaviour rewrites them ({@code -Dmemloop.writeGolden=true}) and says why in its commit.
 */
class GoldenReplayTest {
  private static final Path DIR = Path.of("src/test/resources/golden");
  private static final int DIM = 16;
  private static final int TASKS = 24;
  private static final int EPISODES = 400;

  @ParameterizedTest
  @ValueSource(strings = {"memrl", "default", "similarity"})
  void aSeededEpisodeStream_replaysBitForBit(String preset) throws IOException {
    String replay = replay(preset);
    Path golden = DIR.resolve(preset + "-replay.txt.gz");
    if (Boolean.getBoolean("memloop.writeGolden")) {
      Files.createDirectories(DIR);
      try (var out = new GZIPOutputStream(Files.newOutputStream(golden))) {
        out.write(replay.getBytes(StandardCharsets.UTF_8));
      }
    }
    String expected;
    try (var in = new GZIPInputStream(Files.newInputStream(golden))) {
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    assertThat(replay).isEqualTo(expected);
  }

  private static String replay(String preset) {
    SplittableRandom rnd = new SplittableRandom(2026);
    float[][] kinds = new float[6][];
    for (int k = 0; k < kinds.length; k++) {
      kinds[k] = random(rnd, null, 0);
    }
    float[][] tasks = new float[TASKS][];
    for (int t = 0; t < TASKS; t++) {
      tasks[t] = random(rnd, kinds[t % kinds.length], 0.35);
    }
    AtomicLong tick = new AtomicLong();
    InstantSource clock = () -> Instant.parse("2026-01-01T00:00:00Z").plusSeconds(tick.incrementAndGet());
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM))
        .config(MemLoopConfig.preset(Preset.parse(preset))).clock(clock).seed(7).build();
    StringBuilder out = new StringBuilder();
    for (int e = 0; e < EPISODES; e++) {
      int t = rnd.nextInt(TASKS);
      Intent intent = Intent.of("task " + t, tasks[t]);
      Retrieval r = loop.retrieve("ns", intent);
      out.append(e).append(" task ").append(t).append(" ").append(r.id()).append('\n');
      for (Candidate c : r.candidates()) {
        out.append("  ").append(c.memoryId()).append(c.selected() ? " *" : "  ")
            .append(' ').append(Double.toHexString(c.similarity()))
            .append(' ').append(Double.toHexString(c.q()))
            .append(' ').append(Double.toHexString(c.score()))
            .append(' ').append(Double.toHexString(c.probability())).append('\n');
      }
      // the right answer of task t is "fix t"; an episode succeeds when a selected experience holds it
      boolean helped = false;
      List<String> shown = new ArrayList<>();
      for (Memory m : r.selected()) {
        shown.add(m.id());
        helped |= m.outcome() == Outcome.SUCCESS && m.experience().equals("fix " + t);
      }
      boolean success = helped ? rnd.nextDouble() < 0.9 : rnd.nextDouble() < 0.3;
      loop.reward("ns", r.id(), success ? 1 : -1);
      String experience = success ? "fix " + t : "tried " + rnd.nextInt(5) + " for " + t;
      Memory m = loop.remember("ns", intent, experience, success ? Outcome.SUCCESS : Outcome.FAILURE, r.id());
      out.append("  -> ").append(success ? "success " : "failure ").append(m.id()).append(' ')
          .append(Double.toHexString(m.q())).append('\n');
    }
    return out.toString();
  }

  private static float[] random(SplittableRandom rnd, float[] around, double spread) {
    float[] v = new float[DIM];
    double norm = 0;
    for (int i = 0; i < DIM; i++) {
      double x = rnd.nextGaussian() * (around == null ? 1 : spread) + (around == null ? 0 : around[i]);
      v[i] = (float) x;
      norm += x * x;
    }
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) (v[i] / Math.sqrt(norm));
    }
    return v;
  }
}
