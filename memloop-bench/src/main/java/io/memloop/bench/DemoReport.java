package io.memloop.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@link Demo#run} measured: one learning curve per strategy, floor first.
 *
 * @param environment the environment's name
 * @param options what the demo ran with
 * @param modelId the embedder that embedded the intents
 * @param curves one per strategy, in table order
 */
public record DemoReport(String environment, DemoOptions options, String modelId, List<LearningCurve> curves) {

  public DemoReport {
    curves = List.copyOf(curves);
    if (curves.isEmpty()) {
      throw new IllegalArgumentException("no learning curves");
    }
    for (LearningCurve c : curves) {
      if (c.epochs() != options.epochs()) {
        throw new IllegalArgumentException(
            c.strategy() + " ran " + c.epochs() + " epochs, the options say " + options.epochs());
      }
    }
  }

  public int epochs() {
    return curves.getFirst().epochs();
  }

  /** The curve of {@code strategy} ({@code no-memory}, {@code similarity}, {@code memrl}). */
  public Optional<LearningCurve> curve(String strategy) {
    return curves.stream().filter(c -> c.strategy().equals(strategy)).findFirst();
  }

  /**
   * A compact fixed-width table: success per epoch, then CSR, forgetting rate and memory count at the
   * end, one row per strategy, followed by a legend. Ends with a newline.
   */
  public String toTable() {
    StringBuilder out = new StringBuilder();
    out.append(String.format(
        Locale.ROOT, "%s: %d tasks (%d families x %d look-alike twins)%s, %d epochs, seed %d, embedder %s%n",
        environment, options.tasks(), options.families(), options.twinsPerFamily(),
        options.staleShare() > 0
            ? String.format(Locale.ROOT, ", stale memories for %.0f%% of tasks", 100 * options.staleShare())
            : "",
        epochs(), options.seed(), modelId));
    int nameWidth = "strategy".length();
    for (LearningCurve c : curves) {
      nameWidth = Math.max(nameWidth, c.strategy().length());
    }
    out.append(String.format(Locale.ROOT, "%-" + nameWidth + "s", "strategy"));
    for (int e = 1; e <= epochs(); e++) {
      out.append(String.format(Locale.ROOT, " %5s", "ep" + e));
    }
    out.append("  |   CSR forget memories%n".formatted());
    for (LearningCurve c : curves) {
      out.append(String.format(Locale.ROOT, "%-" + nameWidth + "s", c.strategy()));
      for (double a : c.epochAccuracy()) {
        out.append(String.format(Locale.ROOT, " %5.2f", a));
      }
      String forget = c.forgettingRate().isPresent()
          ? String.format(Locale.ROOT, "%6.2f", c.forgettingRate().getAsDouble())
          : "%6s".formatted("-");
      out.append(String.format(
          Locale.ROOT, "  | %5.2f %s %8d%n", c.cumulativeSuccess().getLast(), forget, c.memoryCounts().getLast()));
    }
    out.append("ep1..: fraction of tasks solved in that epoch. CSR: fraction solved at least once.\n");
    out.append("forget: of the tasks solved in one epoch, the fraction failed in the next (mean over epochs).\n");
    return out.toString();
  }
}
