package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.events.EventSink;
import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link MemLoop#endEpisode} against its definition: {@code reward} then {@code remember} on the same engine state.
 * Two engines with the same seed, clock and script run side by side, one ending each episode with the two calls,
 * the other with {@code endEpisode}; every answer, every event and the final stores must be the same.
 */
class EndEpisodeTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private static final String NS = "ns";

  /** Every call the engine reports, as text (embeddings left out), in order. */
  private static final class RecordingSink implements EventSink {
    final List<String> events = new ArrayList<>();

    @Override
    public void configured(String namespace, Instant at, MemLoopConfig config) {
      events.add("configured " + namespace + " " + at + " " + config);
    }

    @Override
    public void retrieved(String namespace, Instant at, Intent intent, float[] embedding, Retrieval retrieval) {
      events.add("retrieved " + namespace + " " + at + " " + retrieval.id() + " " + retrieval.candidates());
    }

    @Override
    public void rewarded(String namespace, Instant at, RewardResult result, @Nullable List<String> usedMemoryIds) {
      events.add("rewarded " + namespace + " " + at + " " + result + " " + usedMemoryIds);
    }

    @Override
    public void remembered(String namespace, Instant at, Memory memory, boolean duplicate, @Nullable String retrievalId) {
      events.add("remembered " + namespace + " " + at + " " + text(memory) + " " + duplicate + " " + retrievalId);
    }

    @Override
    public void forgot(String namespace, Instant at, String memoryId) {
      events.add("forgot " + namespace + " " + at + " " + memoryId);
    }
  }

  /** One side of the comparison: an engine over its own store, clock and event log. */
  private record Side(MemLoop loop, MutableClock clock, RecordingSink sink) {
    static Side of(MemLoopConfig config, long seed) {
      MutableClock clock = new MutableClock(T0);
      RecordingSink sink = new RecordingSink();
      return new Side(MemLoop.builder().store(new InMemoryStore(DIM)).config(config).clock(clock).seed(seed)
          .events(sink).build(), clock, sink);
    }
  }

  private static String text(Memory m) {
    return m.id() + "|" + m.intentId() + "|" + m.intentText() + "|" + m.experience() + "|" + m.outcome() + "|"
        + m.q() + "|" + m.visits() + "|" + m.createdAt() + "|" + m.updatedAt();
  }

  private static List<String> contents(MemLoop loop) {
    List<String> out = new ArrayList<>();
    loop.store().forEachMemory(NS, m -> out.add(text(m) + "|" + java.util.Arrays.toString(m.intentEmbedding())));
    return out;
  }

  private static float[] topic(int t, SplittableRandom rnd) {
    float[] v = new float[DIM];
    v[t % DIM] = 1;
    for (int i = 0; i < DIM; i++) {
      v[i] += (float) (0.15 * rnd.nextGaussian());
    }
    return v;
  }

  /** What an episode's end did on one side: its answer, or the failure's reason and field. */
  private static String outcomeOf(Supplier<String> call) {
    try {
      return call.get();
    } catch (MemLoopException e) {
      return "failed " + e.reason() + " " + e.field();
    }
  }

  private static String endWithTwoCalls(MemLoop loop, String rid, double reward, @Nullable List<String> used,
      @Nullable String next, Intent intent, String experience, Outcome outcome) {
    RewardResult r = loop.reward(NS, rid, reward, used, next);
    Memory m = loop.remember(NS, intent, experience, outcome, rid);
    return r + " " + text(m);
  }

  private static String endWithOneCall(MemLoop loop, String rid, double reward, @Nullable List<String> used,
      @Nullable String next, Intent intent, String experience, Outcome outcome) {
    EpisodeEnd e = loop.endEpisode(NS, rid, reward, used, next, intent, experience, outcome);
    return e.reward() + " " + text(e.memory());
  }

  /**
   * Random episodes (seeded): a handful of topics so intents merge, a few experiences per topic so duplicates
   * and failure notes form, used ids, next retrievals, re-rewarded retrievals (which both paths refuse), and a
   * memory bound so evictions happen.
   */
  private static List<String> compareOverRandomEpisodes(MemLoopConfig config, long seed, int episodes) {
    Side two = Side.of(config, 11);
    Side one = Side.of(config, 11);
    SplittableRandom rnd = new SplittableRandom(seed);
    List<String> rewarded = new ArrayList<>();
    String previous = null;
    List<String> answers = new ArrayList<>();
    try (MemLoop a = two.loop(); MemLoop b = one.loop()) {
      for (int e = 0; e < episodes; e++) {
        int t = rnd.nextInt(5);
        Intent intent = Intent.of("task " + t + " variant " + rnd.nextInt(3), topic(t, rnd));
        Retrieval ra = a.retrieve(NS, intent);
        Retrieval rb = b.retrieve(NS, intent);
        assertThat(rb).usingRecursiveComparison().isEqualTo(ra);
        String rid = ra.id();
        if (!rewarded.isEmpty() && rnd.nextInt(10) == 0) {
          rid = rewarded.get(rnd.nextInt(rewarded.size())); // already rewarded: both refuse, nothing is stored
        }
        double reward = rnd.nextInt(3) == 0 ? config.rewardMax()
            : config.rewardMin() + rnd.nextDouble() * (config.rewardMax() - config.rewardMin());
        List<String> used = switch (rnd.nextInt(3)) {
          case 0 -> null;
          case 1 -> List.of();
          default -> ra.selected().stream().map(Memory::id).filter(id -> rnd.nextBoolean()).toList();
        };
        String next = previous != null && rnd.nextInt(4) == 0 ? previous : null;
        Outcome outcome = Outcome.values()[rnd.nextInt(Outcome.values().length)];
        String experience = "topic " + t + " lesson " + rnd.nextInt(3);
        String ridFinal = rid;
        String viaTwo = outcomeOf(() -> endWithTwoCalls(a, ridFinal, reward, used, next, intent, experience, outcome));
        String viaOne = outcomeOf(() -> endWithOneCall(b, ridFinal, reward, used, next, intent, experience, outcome));
        assertThat(viaOne).as("episode %d (%s)", e, config).isEqualTo(viaTwo);
        answers.add(viaTwo);
        if (rid.equals(ra.id()) && !viaTwo.startsWith("failed")) {
          rewarded.add(rid);
        }
        previous = ra.id();
        two.clock().advance(Duration.ofSeconds(1));
        one.clock().advance(Duration.ofSeconds(1));
      }
      assertThat(contents(b)).isEqualTo(contents(a));
      assertThat(b.stats(NS)).isEqualTo(a.stats(NS));
      assertThat(one.sink().events).isEqualTo(two.sink().events);
    }
    answers.addAll(two.sink().events);
    return answers; // what the episodes answered, then every event
  }

  @ParameterizedTest
  @EnumSource(Preset.class)
  void endEpisode_givesWhatRewardThenRememberGive_underEveryPreset(Preset preset) {
    List<String> seen = compareOverRandomEpisodes(MemLoopConfig.preset(preset), 2026 + preset.ordinal(), 120);
    // the script reaches the paths that matter: refused re-rewards, and (where consolidation is on) duplicates
    assertThat(seen).anyMatch(a -> a.startsWith("failed CONFLICT retrievalId"));
    if (MemLoopConfig.preset(preset).consolidation() != MemLoopConfig.Consolidation.NONE) {
      assertThat(seen).anyMatch(a -> a.startsWith("remembered") && a.contains(" true r"));
    }
  }

  @ParameterizedTest
  @EnumSource(Preset.class)
  void endEpisode_givesWhatRewardThenRememberGive_withEvictionAndPerTaskLearning(Preset preset) {
    MemLoopConfig c = MemLoopConfig.preset(preset).toBuilder().maxMemories(9)
        .taskLearning(MemLoopConfig.TaskLearning.ON).build();
    List<String> seen = compareOverRandomEpisodes(c, 77 + preset.ordinal(), 120);
    assertThat(seen).anyMatch(a -> a.startsWith("forgot")); // evictions happened
  }

  @Test
  void endEpisode_matchesTheTwoCalls_overManySeeds() {
    SplittableRandom seeds = new SplittableRandom(5);
    for (int i = 0; i < 8; i++) {
      Preset preset = Preset.values()[i % Preset.values().length];
      MemLoopConfig.Builder b = MemLoopConfig.preset(preset).toBuilder();
      if (seeds.nextBoolean()) {
        b.maxMemories(4 + seeds.nextInt(10));
      }
      compareOverRandomEpisodes(b.build(), seeds.nextLong(), 60);
    }
  }

  /**
   * Counts the units a store runs and its synced writes (insert, applyReward, delete) made inside and outside
   * them; a proxy, so that it forwards every method the store interface has.
   */
  private static final class UnitCounter implements java.lang.reflect.InvocationHandler {
    final MemoryStore delegate;
    int units;
    int depth;
    int writesInUnits;
    int writesOutside;

    UnitCounter(MemoryStore delegate) {
      this.delegate = delegate;
    }

    MemoryStore store() {
      return (MemoryStore) java.lang.reflect.Proxy.newProxyInstance(
          MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class}, this);
    }

    @Override
    public Object invoke(Object proxy, java.lang.reflect.Method method, Object[] args) throws Throwable {
      switch (method.getName()) {
        case "durablyTogether" -> {
          units++;
          depth++;
        }
        case "insert", "applyReward", "delete" -> {
          if (depth > 0) {
            writesInUnits++;
          } else {
            writesOutside++;
          }
        }
        default -> {}
      }
      try {
        return method.invoke(delegate, args);
      } catch (java.lang.reflect.InvocationTargetException e) {
        throw e.getCause();
      } finally {
        if (method.getName().equals("durablyTogether")) {
          depth--;
        }
      }
    }
  }

  @Test
  void endEpisode_makesTheRewardAndTheRememberInOneUnitOfTheStore() {
    UnitCounter store = new UnitCounter(new InMemoryStore(DIM));
    try (MemLoop loop = MemLoop.builder().store(store.store()).config(MemLoopConfig.preset(Preset.MEMRL)).seed(1).build()) {
      float[] v = {1, 0, 0, 0, 0, 0, 0, 0};
      loop.remember(NS, Intent.ofEmbedding(v), "seed", Outcome.SUCCESS);
      Retrieval r = loop.retrieve(NS, Intent.ofEmbedding(v));
      store.writesInUnits = 0;
      store.writesOutside = 0;
      EpisodeEnd end = loop.endEpisode(NS, r.id(), 1, null, null, Intent.ofEmbedding(v), "new lesson", Outcome.SUCCESS);
      assertThat(end.reward().changes()).hasSize(1);
      assertThat(end.memory().experience()).isEqualTo("new lesson");
      assertThat(store.units).isEqualTo(1);
      assertThat(store.writesInUnits).isEqualTo(2); // applyReward and insert
      assertThat(store.writesOutside).isZero();
    }
  }

  private record Fixture(MemLoop loop, String retrievalId, Intent intent) {}

  private static Fixture fixture() {
    MemLoop loop = MemLoop.builder().store(new InMemoryStore(DIM)).config(MemLoopConfig.preset(Preset.DEFAULT))
        .seed(3).build();
    float[] v = {1, 0, 0, 0, 0, 0, 0, 0};
    loop.remember(NS, Intent.ofEmbedding(v), "first lesson", Outcome.SUCCESS);
    Retrieval r = loop.retrieve(NS, Intent.ofEmbedding(v));
    return new Fixture(loop, r.id(), Intent.ofEmbedding(v));
  }

  private static void assertRefusedAndNothingStored(Fixture f, String field, MemLoopException.Reason reason,
      Runnable call) {
    List<String> before = contents(f.loop());
    Stats stats = f.loop().stats(NS);
    assertThatThrownBy(call::run).isInstanceOfSatisfying(MemLoopException.class, e -> {
      assertThat(e.field()).isEqualTo(field);
      assertThat(e.reason()).isEqualTo(reason);
      assertThat(e.getMessage()).startsWith(field + ":");
    });
    assertThat(contents(f.loop())).isEqualTo(before);
    assertThat(f.loop().stats(NS)).isEqualTo(stats);
  }

  @Test
  void endEpisode_withAnyBadArgument_isRefusedBeforeAnythingIsWritten() {
    Fixture f = fixture();
    try (MemLoop loop = f.loop()) {
      String rid = f.retrievalId();
      Intent in = f.intent();
      var invalid = MemLoopException.Reason.INVALID_ARGUMENT;
      assertRefusedAndNothingStored(f, "reward", invalid,
          () -> loop.endEpisode(NS, rid, Double.NaN, null, null, in, "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "reward", invalid,
          () -> loop.endEpisode(NS, rid, 2, null, null, in, "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "experience", invalid,
          () -> loop.endEpisode(NS, rid, 1, null, null, in, "  ", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "outcome", invalid,
          () -> loop.endEpisode(NS, rid, 1, null, null, in, "x", nullOutcome()));
      assertRefusedAndNothingStored(f, "intent.embedding", invalid,
          () -> loop.endEpisode(NS, rid, 1, null, null, Intent.ofEmbedding(new float[3]), "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "usedMemoryIds", invalid,
          () -> loop.endEpisode(NS, rid, 1, List.of("m999"), null, in, "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "usedMemoryIds", invalid,
          () -> loop.endEpisode(NS, rid, 1, List.of(" "), null, in, "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "nextRetrievalId", MemLoopException.Reason.NOT_FOUND,
          () -> loop.endEpisode(NS, rid, 1, null, "r999", in, "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "retrievalId", MemLoopException.Reason.NOT_FOUND,
          () -> loop.endEpisode(NS, "r999", 1, null, null, in, "x", Outcome.SUCCESS));
      assertRefusedAndNothingStored(f, "retrievalId", invalid,
          () -> loop.endEpisode(NS, " ", 1, null, null, in, "x", Outcome.SUCCESS));

      // the retrieval was left pending by every refusal: it can still end its episode, once
      EpisodeEnd end = loop.endEpisode(NS, rid, 1, null, null, in, "second lesson", Outcome.SUCCESS);
      assertThat(end.reward().changes()).singleElement().satisfies(c -> assertThat(c.visits()).isEqualTo(1));
      assertRefusedAndNothingStored(f, "retrievalId", MemLoopException.Reason.CONFLICT,
          () -> loop.endEpisode(NS, rid, 1, null, null, in, "third lesson", Outcome.SUCCESS));
      assertThat(loop.stats(NS).memories()).isEqualTo(2);
    }
  }

  @SuppressWarnings("NullAway")
  private static Outcome nullOutcome() {
    return null;
  }
}
