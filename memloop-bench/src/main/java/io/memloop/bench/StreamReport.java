package io.memloop.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@link StreamBench#run} measured: per environment and strategy the stream metrics over the seeds, MemLoop
 * {@code default} against the others, and every episode (for {@link StreamData}'s raw files).
 */
public final class StreamReport {
  /** One run and the environment it ran on. */
  record Run(String environment, StreamRun result) {}

  private final StreamOptions options;
  private final String modelId;
  private final List<StreamEnvironmentSummary> environments;
  private final List<Run> runs;
  private final double wallSeconds;

  StreamReport(StreamOptions options, String modelId, List<StreamEnvironmentSummary> environments, List<Run> runs,
      double wallSeconds) {
    this.options = options;
    this.modelId = modelId;
    this.environments = List.copyOf(environments);
    this.runs = List.copyOf(runs);
    this.wallSeconds = wallSeconds;
  }

  public StreamOptions options() {
    return options;
  }

  public String modelId() {
    return modelId;
  }

  public List<StreamEnvironmentSummary> environments() {
    return environments;
  }

  public Optional<StreamEnvironmentSummary> environment(String name) {
    return environments.stream().filter(e -> e.environment().equals(name)).findFirst();
  }

  public double wallSeconds() {
    return wallSeconds;
  }

  List<Run> runs() {
    return runs;
  }

  /** MemLoop default against each environment's best baseline, on average over the environments. */
  public Optional<StreamEnvironmentSummary.Overall> overall() {
    return StreamEnvironmentSummary.Overall.of(environments);
  }

  /** The strategies of the report in run order. */
  List<String> strategies() {
    return environments.stream().flatMap(e -> e.strategies().stream()).map(StreamStrategySummary::strategy).distinct()
        .toList();
  }

  /**
   * The findings first (per environment, default against its best baseline on first-encounter success and on
   * recovery, then the average over environments), then per environment the table of every strategy and default's
   * paired differences with each baseline.
   */
  public String toMarkdown() {
    StringBuilder out = new StringBuilder();
    out.append("Findings (stream: every episode a never-seen instance of a recurring kind, a drift halfway; first-encounter"
        + " success; MemLoop `default` minus the best strategy that does not read ground truth, paired per-seed"
        + " differences, mean [95 % t-interval]):\n\n");
    for (StreamEnvironmentSummary env : environments) {
      out.append("- **").append(env.environment()).append("**: ");
      Optional<StreamEnvironmentSummary.Comparison> h = env.headline();
      if (h.isEmpty()) {
        out.append("no comparison (needs `default` and another strategy that does not read ground truth)\n");
        continue;
      }
      out.append("`default` ").append(String.format(Locale.ROOT, "%.2f", h.get().mean())).append(" vs the best baseline `")
          .append(h.get().against()).append("` ").append(String.format(Locale.ROOT, "%.2f", h.get().againstMean()))
          .append(": ").append(h.get().success().format()).append(" (").append(h.get().success().verdict()).append(")");
      h.get().formatRecovery().ifPresent(r -> out.append("; episodes to recover after the drift ").append(r));
      h.get().formatCommonLevel().ifPresent(r -> out.append(", to the lower of the two levels ").append(r));
      out.append('\n');
    }
    overall().ifPresent(o -> out.append(String.format(Locale.ROOT,
        "- **on average over the %d environments**: `default` vs each one's best baseline (%s) %s (%s)%n",
        o.baselines().size(), String.join(", ", new java.util.LinkedHashSet<>(o.baselines().values())),
        o.difference().format(), o.difference().verdict())));
    out.append('\n').append(BenchReport.STRATEGY_NAMES).append('\n');
    BenchOptions b = options.bench();
    StreamShape shape = options.shape();
    out.append(String.format(Locale.ROOT,
        "MemLoop stream benchmark: %d seeds %s, %d episodes per run (drift at %.2f, %.0f %% of kinds drifting), %s size,"
            + " policy frozen, embedder %s, %s, %.0f s%n%n",
        b.seeds().size(), b.seeds(), shape.length(), shape.driftAt(), 100 * shape.driftedShare(),
        b.size().name().toLowerCase(Locale.ROOT), modelId,
        (b.slip() == null ? "default outcome noise" : "slip " + b.slip()) + BenchReport.knobsText(b), wallSeconds));
    int seeds = b.seeds().size();
    for (StreamEnvironmentSummary env : environments) {
      out.append(String.format(Locale.ROOT, "### %s (%d episodes, drift at %d, %d kinds, %d drifting)%n%n",
          env.environment(), env.length(), env.driftAt(), env.kinds(), env.driftingKinds()));
      out.append("| strategy | success | before drift | after drift | regret vs oracle | recovery (episodes) | recovered"
          + " | dip | misled | memories at end | chars shown | s/run |\n");
      out.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      for (StreamStrategySummary s : env.strategies()) {
        out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %.0f | %.0f | %.1f |%n",
            s.strategy(), s.success().format(seeds), s.successBeforeDrift().format(seeds),
            s.successAfterDrift().format(seeds), ReportPage.format(s.regret(), 0), ReportPage.format(s.recoveryEpisodes(), 0),
            s.recoveryEpisodes().isEmpty() ? ReportPage.UNDEFINED : s.recovered() + "/" + s.recoveryEpisodes().n(),
            s.dip().format(seeds), s.misledRate().format(seeds), s.memories().mean(), s.shownChars().mean(),
            s.wallSeconds().mean()));
      }
      List<StreamEnvironmentSummary.Comparison> cs = env.comparisons();
      if (!cs.isEmpty()) {
        out.append("\n`default` minus each baseline (paired per seed, mean [95 % t-interval]):\n\n");
        out.append("| baseline | success | recovery (episodes; negative: faster) | recovery to the common level |\n"
            + "|---|---|---|---|\n");
        for (StreamEnvironmentSummary.Comparison c : cs) {
          out.append("| ").append(c.against()).append(" | ").append(c.success().format()).append(" (")
              .append(c.success().verdict()).append(") | ")
              .append(c.formatRecovery().orElse(ReportPage.UNDEFINED))
              .append(" | ")
              .append(c.formatCommonLevel().orElse(ReportPage.UNDEFINED))
              .append(" |\n");
        }
      }
      out.append('\n');
    }
    out.append(DEFINITIONS);
    return out.toString();
  }

  /** {@link #toMarkdown()} without Markdown's emphasis and code marks, for a console. */
  public String toText() {
    return toMarkdown().replace("**", "").replace("`", "");
  }

  /** A difference in whole episodes: "−160 [−240, −80]". */
  static String format(Headline.Difference d, int decimals) {
    String f = "%+." + decimals + "f";
    return d.n() < 2 ? String.format(Locale.ROOT, f + " (n=%d, no interval)", d.mean(), d.n())
        : String.format(Locale.ROOT, f + " [" + f + ", " + f + "]", d.mean(), d.low(), d.high());
  }

  /** The stream metrics' definitions, printed under the tables and in the report page. */
  public static final String DEFINITIONS =
      """
      Definitions (stream mode; mean ± sample std over seeds):
      - success: mean success over the stream; every episode is an instance never seen before, so this is
        first-encounter success. before / after drift: the same over the episodes before / from the drift.
      - regret vs oracle: cumulative regret against the oracle run of the same seed, the sum over episodes of
        (oracle success − success); — when the oracle did not run.
      - recovery: over the drifting kinds' instances only. The level L is their success over their last 200
        instances before the drift; recovery is the number of episodes (all kinds) from the drift until their
        rolling success over the last 50 of them first reaches L − 0.05. A run that never does is counted at
        the episodes left after the drift (censored); recovered: runs that did, of those measured. dip: the
        lowest rolling success after the drift. L is each run's own level, so a strategy that had learned little
        before the drift has little to regain; recovery to the common level (comparisons) takes, for each seed,
        the lower of the two strategies' L − 0.05 as both runs' target. Recovery is found at the 50th drifting
        instance after the drift at the earliest (the first window, the same episode for every strategy on a
        seed); where both runs are at the target there, the measure cannot tell them apart, and the comparison
        says on how many seeds that was so. "At best": the difference a strategy at the target at the first
        window on every seed would have had, shown where even that would not be faster beyond noise.
      - misled: among episodes that showed a memory, the fraction whose top-ranked memory misled (a success
        experience that does not fit the instance, e.g. one made stale by the drift); judged with ground truth.
      - memories at end: memories held after the last episode (the report page charts their growth).
      - learning curve (report page): success per window of 100 episodes.
      """;
}
