package io.memloop;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@code mergeScope=RETRIEVED}: a remember that names its episode's retrieval takes its intent group from what
 * that retrieval recalled, with no second search, and ends up exactly where {@code NEAREST}'s search puts it.
 */
class MergeScopeTest {
  private static final int DIM = 16;

  /** The store, counting Phase A searches ({@code recall}). */
  private static MemoryStore counting(MemoryStore delegate, AtomicInteger recalls) {
    return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class},
        (proxy, method, args) -> {
          if (method.getName().equals("recall")) {
            recalls.incrementAndGet();
          }
          try {
            return method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private static float[] vector(SplittableRandom random, float[] center, double noise) {
    float[] v = new float[DIM];
    for (int d = 0; d < DIM; d++) {
      v[d] = (float) (center[d] + noise * random.nextGaussian());
    }
    return v;
  }

  /** A seeded run of episodes over 12 tasks (some near-identical, so intents merge); each memory's group and id. */
  private static List<String> run(MemLoopConfig.MergeScope scope, AtomicInteger recalls, int[] remembers) {
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().mergeScope(scope).build();
    SplittableRandom random = new SplittableRandom(11);
    float[][] tasks = new float[12][];
    for (int t = 0; t < tasks.length; t++) {
      tasks[t] = t % 3 == 2 ? vector(random, tasks[t - 1], 0.02) : vector(random, new float[DIM], 1.0); // look-alikes
    }
    List<String> out = new ArrayList<>();
    try (MemLoop loop = MemLoop.builder().store(counting(new InMemoryStore(DIM), recalls)).config(config).seed(5).build()) {
      for (int e = 0; e < 300; e++) {
        int t = random.nextInt(tasks.length);
        Intent intent = Intent.of("task " + t, tasks[t]);
        Retrieval r = loop.retrieve("ns", intent);
        boolean ok = random.nextDouble() < 0.5;
        loop.reward("ns", r.id(), ok ? 1 : -1);
        // every fourth experience repeats an earlier one of the task: consolidation's duplicate check is exercised
        String experience = e % 4 == 0 ? "the usual way for task " + t : "attempt " + e + " at task " + t;
        Memory m = e % 10 == 9
            ? loop.remember("ns", Intent.of("other " + t, tasks[(t + 1) % tasks.length]), experience,
                ok ? Outcome.SUCCESS : Outcome.FAILURE, r.id()) // not the retrieval's intent: searched
            : loop.remember("ns", intent, experience, ok ? Outcome.SUCCESS : Outcome.FAILURE, r.id());
        remembers[0]++;
        out.add(m.id() + "@" + m.intentId());
      }
    }
    return out;
  }

  @Test
  void retrievedScopeGroupsExactlyAsTheNearestSearchWithoutSearchingAgain() {
    AtomicInteger nearestRecalls = new AtomicInteger();
    AtomicInteger retrievedRecalls = new AtomicInteger();
    int[] n = new int[1];
    List<String> nearest = run(MemLoopConfig.MergeScope.NEAREST, nearestRecalls, n);
    List<String> retrieved = run(MemLoopConfig.MergeScope.RETRIEVED, retrievedRecalls, new int[1]);
    assertThat(retrieved).isEqualTo(nearest);
    assertThat(nearest.stream().map(s -> s.substring(s.indexOf('@'))).distinct().count())
        .as("some intents merged, some did not").isBetween(2L, 20L);
    // NEAREST: one search per retrieve and per remember; RETRIEVED: only the remembers of another intent search
    assertThat(nearestRecalls.get()).isEqualTo(300 + n[0]);
    assertThat(retrievedRecalls.get()).isEqualTo(300 + 30);
  }

  @Test
  void withoutTheRetrievalOrUnderNearestEveryRememberSearches() {
    AtomicInteger recalls = new AtomicInteger();
    MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT);
    assertThat(config.mergeScope()).isEqualTo(MemLoopConfig.MergeScope.RETRIEVED);
    assertThat(MemLoopConfig.preset(Preset.MEMRL).mergeScope()).isEqualTo(MemLoopConfig.MergeScope.NEAREST);
    try (MemLoop loop = MemLoop.builder().store(counting(new InMemoryStore(DIM), recalls)).config(config).build()) {
      float[] v = vector(new SplittableRandom(1), new float[DIM], 1);
      Memory plain = loop.remember("ns", Intent.of("t", v), "no retrieval named", Outcome.SUCCESS);
      Memory unknown = loop.remember("ns", Intent.of("t", v), "unknown retrieval", Outcome.SUCCESS, "r999");
      Retrieval r = loop.retrieve("ns", Intent.of("t", v));
      Memory first = loop.remember("ns", Intent.of("t", v), "named once", Outcome.SUCCESS, r.id());
      Memory again = loop.remember("ns", Intent.of("t", v), "named twice", Outcome.SUCCESS, r.id()); // consumed: searches
      assertThat(recalls.get()).isEqualTo(2 + 1 + 0 + 1);
      assertThat(List.of(unknown.intentId(), first.intentId())).containsOnly(plain.intentId());
      assertThat(again.intentId()).isEqualTo(first.intentId());
    }
  }
}
