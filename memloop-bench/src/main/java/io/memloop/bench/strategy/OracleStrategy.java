package io.memloop.bench.strategy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Preset;
import io.memloop.Vectors;
import io.memloop.bench.Episode;
import io.memloop.bench.GroundTruth;
import io.memloop.bench.PriorExperience;
import io.memloop.bench.Seeds;
import io.memloop.bench.Task;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The ceiling of a benchmark run, an upper bound of every strategy in it by construction, episode by episode.
 *
 * <p>Its run holds its own store of every experience (raw: never merged, never deleted) and one shadow run of
 * each other memory strategy of the run. Each episode it plays ({@link HindsightRun#play}) tries, with the
 * episode's random numbers replayed each time, these views in order:
 *
 * <ol>
 *   <li>the ground-truth view of its whole store: the memories the environment's {@link GroundTruth} says truly
 *       help the task, most similar first, up to its budget (the most any strategy shows: {@link #BUDGET}, the
 *       budget of {@code rag-k5}, or more when a shadow shows more, {@link Strategy#shows()}),
 *       then in the places left the task's own notes that do not mislead (what went wrong here before, which
 *       helps a policy that explores); never a misleading memory;
 *   <li>each shadow's own recall, in the order the shadows were given;
 *   <li>no memory;
 * </ol>
 *
 * <p>and keeps the first that succeeds (if none does, the ground-truth view). Each shadow learns from the episode
 * of its own view, so it is exactly that strategy's own run of the same seed (same preload, same recalls, same
 * episodes), and the oracle succeeds whenever that strategy does, as well as whenever no memory does. Its own
 * store learns from the kept episode. In the frozen transfer phase nothing learns, but every shadow still
 * recalls, as its own run does then (a recall may draw the strategy's random numbers).
 *
 * <p>The only strategy that reads ground truth; it is built per environment with that environment's truth and
 * per run with the run's other strategies. Used through {@link Strategy#startRun}: {@link #start} cannot know
 * the run's seed, so its shadows then get seeds of their own and do not reproduce the strategies' runs.
 */
final class OracleStrategy implements Strategy {
  /**
   * The fewest memories the oracle's ground-truth view may show: the budget of {@code rag-k5}, the largest of the
   * default strategies; a run with a strategy that shows more ({@link Strategy#shows()}) raises it to that.
   */
  static final int BUDGET = 5;

  private static final String NAME = "oracle";

  private final GroundTruth truth;
  private final List<Strategy> shadows;
  /** The most memories its ground-truth view shows: the largest budget of the run's strategies. */
  private final int budget;

  OracleStrategy(GroundTruth truth, List<Strategy> shadows) {
    Set<String> names = new HashSet<>();
    for (Strategy s : shadows) {
      if (s instanceof NoMemoryStrategy || s instanceof OracleStrategy || s.name().equals(NAME)) {
        throw new IllegalArgumentException(
            "shadows: the oracle shadows memory strategies only, not '" + s.name() + "' (no memory is always tried)");
      }
      if (!names.add(s.name())) {
        throw new IllegalArgumentException("shadows: strategy '" + s.name() + "' is named twice");
      }
    }
    this.truth = truth;
    this.shadows = List.copyOf(shadows);
    this.budget = Math.max(BUDGET, shadows.stream().mapToInt(Strategy::shows).max().orElse(0));
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * The same oracle with its shadows on {@code store}, so that each still reproduces its strategy's run there. Its
   * own view reads every experience it keeps, whatever the store, so it keeps them in memory.
   */
  @Override
  public Strategy on(RunStore store) {
    return new OracleStrategy(truth, shadows.stream().map(s -> s.on(store)).toList());
  }

  /** The same oracle with its shadows split into {@code blocks}, so that each still reproduces its strategy's run. */
  @Override
  public Strategy withBlocks(int blocks) {
    return new OracleStrategy(truth, shadows.stream().map(s -> s.withBlocks(blocks)).toList());
  }

  /** Its shadows' names, in the order their views are tried. */
  List<String> shadowNames() {
    return shadows.stream().map(Strategy::name).toList();
  }

  @Override
  public MemoryRun start(int dimension, long seed) {
    return start(dimension, seed, s -> s.start(dimension, Seeds.derive(seed, "shadow:" + s.name())));
  }

  /** Each shadow starts as its strategy does in the run {@code runSeed}, so it reproduces that strategy's run. */
  @Override
  public MemoryRun startRun(int dimension, long runSeed) {
    return start(dimension, Seeds.derive(runSeed, "strategy:" + NAME), s -> s.startRun(dimension, runSeed));
  }

  private MemoryRun start(int dimension, long seed, Function<Strategy, MemoryRun> startShadow) {
    List<MemoryRun> runs = new ArrayList<>(shadows.size());
    try {
      for (Strategy s : shadows) {
        runs.add(startShadow.apply(s));
      }
      return new Run(dimension, seed, truth, budget, runs);
    } catch (RuntimeException | Error e) {
      runs.forEach(MemoryRun::close);
      throw e;
    }
  }

  private static final class Run extends EngineRun implements HindsightRun {
    private final GroundTruth truth;
    private final int budget;
    private final List<MemoryRun> shadows;

    Run(int dimension, long seed, GroundTruth truth, int budget, List<MemoryRun> shadows) {
      // SIMILARITY stores every experience as it comes (no merging, no deletion); the oracle never reads its Q.
      super(MemLoopConfig.preset(Preset.SIMILARITY), dimension, seed);
      this.truth = truth;
      this.budget = budget;
      this.shadows = shadows;
    }

    @Override
    public void preload(PriorExperience prior, float[] intentEmbedding) {
      super.preload(prior, intentEmbedding);
      shadows.forEach(s -> s.preload(prior, intentEmbedding));
    }

    /**
     * The ground-truth view of its own store. Keeps no retrieval to reward (its id is empty): the oracle's
     * utilities never move. Ties of similarity keep the store's order (oldest first).
     */
    @Override
    public Recall recall(Task task, float[] intentEmbedding) {
      float[] query = Vectors.normalized(intentEmbedding, "intent.embedding");
      List<Memory> all = memories();
      Comparator<Memory> bySimilarity = Comparator.comparingDouble((Memory m) -> -Vectors.dot(query, m.intentEmbedding()));
      List<Memory> shown = new ArrayList<>(
          all.stream().filter(m -> truth.helps(task, m)).sorted(bySimilarity).limit(budget).toList());
      // Room left: the task's own notes that do not mislead (what went wrong here before), which
      // help a policy that explores; never another task's experiences, which may not apply.
      all.stream()
          .filter(m -> m.intentText().equals(task.intent()) && !shown.contains(m) && !GroundTruth.misleads(truth, task, m))
          .sorted(bySimilarity)
          .limit(budget - shown.size())
          .forEach(shown::add);
      return new Recall("", shown, all.size());
    }

    /** Stores the episode in its own store only (the loops call {@link #play}, which also drives the shadows). */
    @Override
    public void learn(Recall recall, float[] intentEmbedding, Episode episode) {
      super.learn(Recall.NONE, intentEmbedding, episode);
    }

    @Override
    public Played play(Task seen, float[] intentEmbedding, Function<List<Memory>, Episode> attempt, boolean learn) {
      // Two views showing the same memories give the same episode (the random numbers are replayed): try each once.
      Map<List<Memory>, Episode> tried = new HashMap<>();
      Function<List<Memory>, Episode> once = shown -> tried.computeIfAbsent(shown, attempt);
      Recall kept = recall(seen, intentEmbedding);
      Episode keptEpisode = once.apply(kept.shown());
      boolean solved = keptEpisode.success();
      for (MemoryRun shadow : shadows) {
        // Always recall, also when frozen or already solved: the shadow's run recalls here too.
        Recall view = shadow.recall(seen, intentEmbedding);
        if (solved && !learn) {
          continue; // its episode could not be kept and teaches nothing
        }
        Episode episode = once.apply(view.shown());
        if (!solved && episode.success()) {
          kept = view;
          keptEpisode = episode;
          solved = true;
        }
        if (learn) {
          shadow.learn(view, intentEmbedding, episode);
        }
      }
      if (!solved) {
        Episode bare = once.apply(List.of());
        if (bare.success()) {
          kept = Recall.NONE;
          keptEpisode = bare;
        }
      }
      if (learn) {
        learn(Recall.NONE, intentEmbedding, keptEpisode);
      }
      return new Played(kept, keptEpisode);
    }

    @Override
    public Map<String, Double> utilities() {
      return Map.of();
    }

    @Override
    public void close() {
      try {
        shadows.forEach(MemoryRun::close);
      } finally {
        super.close();
      }
    }
  }
}
