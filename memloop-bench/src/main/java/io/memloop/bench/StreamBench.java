package io.memloop.bench;

import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.bench.strategy.Strategy;
import io.memloop.embed.Embedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * {@code memloop bench --stream}: every strategy on the stream of every environment that serves one
 * ({@link StreamSource}) over several seeds, each run from an empty memory plus the world's prior experiences
 * ({@link StreamLoop}); then the metrics of {@link StreamMetrics} per run, and MemLoop's {@code default} against
 * the other strategies with paired 95 % intervals ({@link StreamEnvironmentSummary}).
 *
 * <p>Runs are independent (own memory, episode seeds from (seed, environment, index) only), so results do not
 * depend on the parallelism; the policy is the environments' frozen one. The embedder is borrowed (not closed).
 */
public final class StreamBench {
  private StreamBench() {}

  /** A stream opened for one environment and seed, and what to close once its runs are done. */
  record Opened(StreamWorld world, Runnable close) {}

  /** Opens the stream of one environment and seed; empty when that environment serves none (and may be left out). */
  interface Worlds {
    Optional<Opened> open(String environment, long seed);
  }

  /**
   * Every (environment, seed, strategy) stream run of {@code options}, up to {@code parallelism} at a time;
   * {@code listener} hears of each window of {@link StreamMetrics#WINDOW} episodes as it ends.
   *
   * @throws MemLoopException INVALID_ARGUMENT ({@code environments}) when a chosen environment serves no stream, or
   *     none of the environments does
   */
  public static StreamReport run(Embedder embedder, StreamOptions options, int parallelism, Bench.Listener listener) {
    BenchOptions b = options.bench();
    Worlds worlds = (name, seed) -> {
      Environment env = EnvironmentCatalog.named(name).create(seed, b.size(), b.slip(), b.knobsOf(name));
      if (!(env instanceof StreamSource source)) {
        Bench.closeIfCloseable(env);
        if (options.environmentsChosen()) {
          throw MemLoopException.invalid("environments", name + " serves no stream (--stream runs environments that do)");
        }
        return Optional.empty();
      }
      try {
        return Optional.of(new Opened(source.stream(seed, options.shape()), () -> Bench.closeIfCloseable(env)));
      } catch (RuntimeException e) {
        Bench.closeIfCloseable(env);
        if (e instanceof MemLoopException m && m.field().equals("streamLength")) {
          // The capacity depends on the environment and the seed: say which, and what length would do.
          throw MemLoopException.invalid("streamLength", name + " (seed " + seed + "): "
              + m.getMessage().substring("streamLength: ".length()) + " (choose a shorter --stream-length)");
        }
        throw e;
      }
    };
    return run(embedder, options, parallelism, listener, b.environments(), worlds);
  }

  /** {@link #run(Embedder, StreamOptions, int, Bench.Listener)} over the streams {@code worlds} opens. */
  static StreamReport run(Embedder embedder, StreamOptions options, int parallelism, Bench.Listener listener,
      List<String> environments, Worlds worlds) {
    if (parallelism < 1 || parallelism > 256) {
      throw MemLoopException.invalid("parallelism", "must be in [1, 256], got " + parallelism);
    }
    long started = System.nanoTime();
    // Every stream is opened once before any run starts, so that a stream an environment cannot supply (too long
    // for one seed's kinds, say) is refused at once, not after the environments before it have run.
    for (String envName : environments) {
      for (long seed : options.bench().seeds()) {
        Optional<Opened> o = worlds.open(envName, seed);
        if (o.isEmpty()) {
          break;
        }
        o.get().close().run();
      }
    }
    List<String> strategies = options.bench().strategies();
    List<StreamEnvironmentSummary> summaries = new ArrayList<>();
    List<StreamReport.Run> runs = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(parallelism, Thread.ofPlatform().daemon().name("stream-", 1).factory());
    try {
      for (String envName : environments) {
        List<Opened> open = new ArrayList<>();
        List<StreamWorld> opened = new ArrayList<>();
        try {
          List<Future<StreamRun>> pending = new ArrayList<>();
          for (long seed : options.bench().seeds()) {
            Optional<Opened> o = worlds.open(envName, seed);
            if (o.isEmpty()) {
              break; // serves no stream: the same for every seed
            }
            open.add(o.get());
            StreamWorld world = o.get().world();
            opened.add(world);
            listener.phase(envName + " seed " + seed + ": embedding " + world.tasks().size() + " stream intents");
            StreamLoop loop = new StreamLoop(envName, world, IntentEmbeddings.of(embedder, StreamLoop.intents(world)));
            // The oracle replays every other run of its seed, so it starts first, as in Bench (results keep the
            // strategies' order and do not depend on when a run starts).
            List<Future<StreamRun>> seedRuns = new ArrayList<>(java.util.Collections.nCopies(strategies.size(), null));
            for (boolean oracleFirst : new boolean[] {true, false}) {
              for (int j = 0; j < strategies.size(); j++) {
                String name = strategies.get(j);
                if (name.equals(Headline.CEILING) != oracleFirst) {
                  continue;
                }
                Strategy strategy = strategy(name, world, strategies).on(options.bench().store())
                    .withBlocks(embedder.blocks());
                seedRuns.set(j, pool.submit(() -> {
                  int[] window = {0};
                  return loop.run(strategy, seed, acc -> listener.epochDone(envName, name, seed, ++window[0], acc));
                }));
              }
            }
            pending.addAll(seedRuns);
          }
          if (opened.isEmpty()) {
            listener.phase(envName + " serves no stream: left out");
            continue;
          }
          List<StreamRun> done = new ArrayList<>();
          for (Future<StreamRun> f : pending) {
            done.add(Bench.await(f, pending));
          }
          done.forEach(r -> runs.add(new StreamReport.Run(envName, r)));
          summaries.add(summary(envName, opened.getFirst(), strategies, done));
        } finally {
          open.forEach(o -> o.close().run());
        }
      }
    } finally {
      pool.shutdownNow();
    }
    if (summaries.isEmpty()) {
      throw MemLoopException.invalid("environments", "none of " + String.join(", ", environments) + " serves a stream");
    }
    return new StreamReport(options, embedder.modelId(), summaries, runs, (System.nanoTime() - started) / 1e9);
  }

  /** The metrics of one environment's runs; each run's regret against the oracle's run of its seed, if it ran. */
  static StreamEnvironmentSummary summary(String environment, StreamWorld first, List<String> strategies,
      List<StreamRun> runs) {
    Map<Long, StreamRun> oracle = new HashMap<>();
    runs.stream().filter(r -> r.strategy().equals(Headline.CEILING)).forEach(r -> oracle.put(r.seed(), r));
    Map<String, List<StreamMetrics>> byStrategy = new LinkedHashMap<>();
    strategies.forEach(s -> byStrategy.put(s, new ArrayList<>()));
    for (StreamRun r : runs) {
      byStrategy.get(r.strategy()).add(StreamMetrics.of(r, Optional.ofNullable(oracle.get(r.seed()))));
    }
    List<StreamStrategySummary> out = new ArrayList<>();
    byStrategy.forEach((name, list) -> out.add(StreamStrategySummary.of(name, list)));
    return new StreamEnvironmentSummary(environment, first.tasks().size(), first.driftAt(),
        new LinkedHashSet<>(first.tasks().stream().map(StreamTask::kind).toList()).size(),
        new LinkedHashSet<>(first.tasks().stream().filter(StreamTask::driftingKind).map(StreamTask::kind).toList()).size(),
        out);
  }

  /**
   * The strategy {@code name} in a run of the strategies {@code run} on {@code world}: the oracle reads the world's
   * ground truth and shadows the run's other memory strategies ({@link Bench#shadows}), so it bounds each of them
   * per episode.
   */
  static Strategy strategy(String name, StreamWorld world, List<String> run) {
    if (!name.equals(Headline.CEILING)) {
      return Bench.strategy(name, null); // only the oracle reads its environment
    }
    // Strategies see opaque task ids; the oracle's truth maps them back to the world's instances.
    Map<String, Task> byOpaqueId = new HashMap<>();
    world.tasks().forEach(t -> byOpaqueId.put(OpaqueTasks.of(t.task()).id(), t.task()));
    return Strategy.oracle((Task task, Memory memory) -> world.helps(byOpaqueId.getOrDefault(task.id(), task), memory),
        Bench.shadows(run));
  }
}
