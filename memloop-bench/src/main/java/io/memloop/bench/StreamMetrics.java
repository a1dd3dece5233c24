package io.memloop.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The metrics of one stream run ({@link StreamRun}), all computed from its episode rows. Every episode of a
 * stream is a first encounter, so {@link #success} is first-encounter success.
 *
 * @param success mean success over the whole stream
 * @param successBeforeDrift mean success of the episodes before the drift
 * @param successAfterDrift mean success from the drift on
 * @param curve the learning curve: mean success of each window of {@link #WINDOW} episodes (the last one may be
 *     shorter)
 * @param regret cumulative regret against the oracle of the same seed, Σ (oracle success − success) over the
 *     stream; empty when the oracle did not run
 * @param regretCurve cumulative regret at the end of each window; empty when the oracle did not run
 * @param recovery how fast success on the drifting kinds came back after the drift ({@link Recovery}); empty when
 *     the stream has no drifting-kind instance before or after the drift
 * @param memories memories held after each window; the last is the count at the end
 * @param shownChars mean characters of experience text shown per episode
 * @param misledRate among episodes that showed a memory, the fraction whose top-ranked one misled (ground truth);
 *     empty when nothing was shown
 */
public record StreamMetrics(
    String strategy,
    long seed,
    double success,
    double successBeforeDrift,
    double successAfterDrift,
    List<Double> curve,
    OptionalDouble regret,
    List<Double> regretCurve,
    Optional<Recovery> recovery,
    List<Long> memories,
    double shownChars,
    OptionalDouble misledRate,
    double wallSeconds) {

  /** Episodes per point of the learning curve. */
  static final int WINDOW = 100;
  /** Drifting-kind instances before the drift that set the level recovery must come back to. */
  static final int LEVEL_SPAN = 200;
  /** Drifting-kind instances the rolling success after the drift is taken over. */
  static final int ROLLING = 50;
  /** How far below the pre-drift level the rolling success may stay and count as recovered. */
  static final double TOLERANCE = 0.05;

  public StreamMetrics {
    curve = List.copyOf(curve);
    regretCurve = List.copyOf(regretCurve);
    memories = List.copyOf(memories);
  }

  /**
   * Recovery after the drift, over the drifting kinds' instances only. The level L is their mean success over
   * their last {@link #LEVEL_SPAN} instances before the drift (all of them if fewer). After the drift the rolling
   * mean over their last {@link #ROLLING} instances is followed; the run has recovered at the first drifting-kind
   * instance where that mean reaches L − {@link #TOLERANCE} (with at least {@link #ROLLING} of them played since
   * the drift).
   *
   * <p>L is the run's own level: a strategy that had learned little before the drift has little to regain, so two
   * strategies' episodes to recover compare how fast each got back to where it was, not which got back to a given
   * success first. {@link #episodesTo} answers the second: the comparisons take the lower of the two levels
   * ({@link StreamEnvironmentSummary.Comparison#recoveryToCommonLevel}).
   *
   * @param episodes stream episodes of every kind from the drift up to and including that instance; when it
   *     never recovers, censored at the episodes left after the drift ({@code length − driftAt})
   * @param recovered false when censored
   * @param level L
   * @param dip the lowest rolling mean after the drift; empty when fewer than {@link #ROLLING} drifting-kind
   *     instances followed the drift
   * @param reached by drifting-kind instance after the drift from the {@link #ROLLING}th on, the episodes from the
   *     drift up to and including it, and the rolling mean there ({@link Reached}); in stream order
   * @param censoredAt the episodes left after the drift
   */
  public record Recovery(
      int episodes, boolean recovered, double level, OptionalDouble dip, List<Reached> reached, int censoredAt) {

    public Recovery {
      reached = List.copyOf(reached);
    }

    /**
     * Episodes from the drift until the rolling mean first reaches {@code target}; {@link #censoredAt} when it never
     * does.
     */
    public int episodesTo(double target) {
      int at = firstReaching(reached, target);
      return at < 0 ? censoredAt : at;
    }

    /**
     * Episodes from the drift to the first full rolling window ({@link #ROLLING} drifting-kind instances): the fewest
     * any run of this seed can take to recover, since the stream's instances do not depend on the strategy;
     * {@link #censoredAt} when the window never fills.
     */
    public int firstWindow() {
      return reached.isEmpty() ? censoredAt : reached.getFirst().episodes();
    }

    /** Whether the rolling mean is at {@code target} or above at the first full window ({@link #firstWindow}). */
    public boolean atFirstWindow(double target) {
      return !reached.isEmpty() && episodesTo(target) == firstWindow();
    }
  }

  /** A point of the rolling mean after the drift: episodes since the drift, and the mean there. */
  public record Reached(int episodes, double rolling) {}

  /** Number of windows of a stream of {@code length} episodes. */
  static int windows(int length) {
    return (length + WINDOW - 1) / WINDOW;
  }

  /** All the metrics of {@code run}; the regret needs {@code oracle}, the oracle's run on the same seed. */
  static StreamMetrics of(StreamRun run, Optional<StreamRun> oracle) {
    List<StreamRow> rows = run.rows();
    List<Double> regretCurve = oracle.map(o -> regretCurve(rows, o.rows())).orElse(List.of());
    return new StreamMetrics(run.strategy(), run.seed(), mean(rows, 0, rows.size()), mean(rows, 0, run.driftAt()),
        mean(rows, run.driftAt(), rows.size()), curve(rows),
        regretCurve.isEmpty() ? OptionalDouble.empty() : OptionalDouble.of(regretCurve.getLast()), regretCurve,
        recovery(rows, run.driftAt()), run.memoryCounts(),
        rows.stream().mapToInt(StreamRow::shownChars).average().orElse(0), misledRate(rows), run.wallNanos() / 1e9);
  }

  /** Mean success of rows {@code [from, to)}; NaN when the range is empty. */
  static double mean(List<StreamRow> rows, int from, int to) {
    if (to <= from) {
      return Double.NaN;
    }
    int solved = 0;
    for (int i = from; i < to; i++) {
      solved += rows.get(i).success() ? 1 : 0;
    }
    return (double) solved / (to - from);
  }

  /** Mean success of each window of {@link #WINDOW} episodes, the last possibly shorter. */
  static List<Double> curve(List<StreamRow> rows) {
    List<Double> out = new ArrayList<>(windows(rows.size()));
    for (int from = 0; from < rows.size(); from += WINDOW) {
      out.add(mean(rows, from, Math.min(rows.size(), from + WINDOW)));
    }
    return out;
  }

  /**
   * Cumulative regret Σ (oracle_i − s_i) at the end of each window. Positive where the oracle did better; it can
   * fall, and end negative, where the run was luckier than the oracle.
   *
   * @throws IllegalArgumentException when the two runs did not play the same instances in the same order
   */
  static List<Double> regretCurve(List<StreamRow> rows, List<StreamRow> oracle) {
    if (rows.size() != oracle.size()) {
      throw new IllegalArgumentException("regret: " + rows.size() + " episodes against the oracle's " + oracle.size());
    }
    List<Double> out = new ArrayList<>(windows(rows.size()));
    int regret = 0;
    for (int i = 0; i < rows.size(); i++) {
      if (!rows.get(i).taskId().equals(oracle.get(i).taskId())) {
        throw new IllegalArgumentException("regret: episode " + i + " is " + rows.get(i).taskId()
            + " but the oracle's is " + oracle.get(i).taskId());
      }
      regret += (oracle.get(i).success() ? 1 : 0) - (rows.get(i).success() ? 1 : 0);
      if ((i + 1) % WINDOW == 0 || i == rows.size() - 1) {
        out.add((double) regret);
      }
    }
    return out;
  }

  /** {@link Recovery} of a run whose drift is at {@code driftAt}; empty without drifting kinds on both sides. */
  static Optional<Recovery> recovery(List<StreamRow> rows, int driftAt) {
    List<Boolean> before = new ArrayList<>();
    for (int i = 0; i < driftAt; i++) {
      if (rows.get(i).driftingKind()) {
        before.add(rows.get(i).success());
      }
    }
    if (before.isEmpty() || rows.stream().skip(driftAt).noneMatch(StreamRow::driftingKind)) {
      return Optional.empty();
    }
    List<Boolean> last = before.subList(Math.max(0, before.size() - LEVEL_SPAN), before.size());
    double level = (double) last.stream().filter(b -> b).count() / last.size();
    boolean[] window = new boolean[ROLLING]; // ring buffer of the last ROLLING drifting-kind outcomes
    int seen = 0;
    int solved = 0;
    List<Reached> reached = new ArrayList<>();
    for (int i = driftAt; i < rows.size(); i++) {
      StreamRow r = rows.get(i);
      if (!r.driftingKind()) {
        continue;
      }
      int slot = seen % ROLLING;
      if (seen >= ROLLING) {
        solved -= window[slot] ? 1 : 0;
      }
      window[slot] = r.success();
      solved += r.success() ? 1 : 0;
      seen++;
      if (seen >= ROLLING) {
        reached.add(new Reached(i - driftAt + 1, (double) solved / ROLLING));
      }
    }
    OptionalDouble dip = reached.stream().mapToDouble(Reached::rolling).min();
    int censoredAt = rows.size() - driftAt;
    int at = firstReaching(reached, level - TOLERANCE);
    return Optional.of(new Recovery(at < 0 ? censoredAt : at, at >= 0, level, dip, reached, censoredAt));
  }

  /** The episodes of the first point of {@code reached} whose rolling mean reaches {@code target}; -1 when none does. */
  private static int firstReaching(List<Reached> reached, double target) {
    for (Reached r : reached) {
      if (r.rolling() >= target - 1e-12) { // slack: a mean exactly at L − 0.05 (e.g. 0.25 − 0.05) counts
        return r.episodes();
      }
    }
    return -1;
  }

  /** Among episodes that showed a memory and could be judged, the fraction whose first memory misled. */
  static OptionalDouble misledRate(List<StreamRow> rows) {
    long judged = rows.stream().filter(r -> r.firstShown() == EpisodeRow.FirstShown.HELPS
        || r.firstShown() == EpisodeRow.FirstShown.MISLEADS || r.firstShown() == EpisodeRow.FirstShown.NEUTRAL).count();
    long misled = rows.stream().filter(r -> r.firstShown() == EpisodeRow.FirstShown.MISLEADS).count();
    return judged == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) misled / judged);
  }
}
