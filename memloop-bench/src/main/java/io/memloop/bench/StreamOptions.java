package io.memloop.bench;

import java.util.List;

/**
 * What {@link StreamBench#run} runs: the seeds, environment size, outcome noise, knobs and strategies of
 * {@code bench} (its epochs do not apply: a stream plays each instance once), and the stream's shape.
 *
 * @param environmentsChosen whether {@code bench.environments()} was chosen by the user: then every one of them
 *     must serve a stream; otherwise those that serve none are left out
 */
public record StreamOptions(BenchOptions bench, StreamShape shape, boolean environmentsChosen) {

  /** Strategies of a stream run unless {@code --strategies} says otherwise, in report order. */
  public static final List<String> STRATEGIES =
      List.of("no-memory", "rag", "rag-k5", "rag-k8", "rag-hybrid-k8", "recent", "similarity", "memrl", "default",
          "oracle");

  /** Every environment that serves a stream, the reported seeds, full size, the default shape. */
  public static StreamOptions defaults() {
    return new StreamOptions(BenchOptions.full().withStrategies(STRATEGIES), StreamShape.defaults(), false);
  }

  public StreamOptions withBench(BenchOptions b) {
    return new StreamOptions(b, shape, environmentsChosen);
  }

  public StreamOptions withShape(StreamShape s) {
    return new StreamOptions(bench, s, environmentsChosen);
  }

  /** Runs exactly {@code environments}, each of which must serve a stream. */
  public StreamOptions withEnvironments(List<String> environments) {
    return new StreamOptions(bench.withEnvironments(environments), shape, true);
  }

  /** Windows of {@link StreamMetrics#WINDOW} episodes in one run: the unit of {@link Bench.Listener} progress. */
  public int windows() {
    return StreamMetrics.windows(shape.length());
  }
}
