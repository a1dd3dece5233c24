package io.memloop.bench;

import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Policy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What {@link Bench#run} measured: per environment and strategy, every metric's mean and spread over
 * the seeds, and every episode (for {@link BenchData}'s raw files).
 */
public final class BenchReport {
  /** One run and the environment it ran on. */
  record Run(String environment, RunResult result) {}

  private final BenchOptions options;
  private final String modelId;
  private final Policy policy;
  private final List<EnvironmentSummary> environments;
  private final List<Run> runs;
  private final double wallSeconds;

  BenchReport(BenchOptions options, String modelId, Policy policy, List<EnvironmentSummary> environments, List<Run> runs,
      double wallSeconds) {
    this.options = options;
    this.modelId = modelId;
    this.policy = policy;
    this.environments = List.copyOf(environments);
    this.runs = List.copyOf(runs);
    this.wallSeconds = wallSeconds;
  }

  public BenchOptions options() {
    return options;
  }

  public String modelId() {
    return modelId;
  }

  /** Who attempted the tasks: the frozen policies or a language model. */
  public Policy policy() {
    return policy;
  }

  public List<EnvironmentSummary> environments() {
    return environments;
  }

  public Optional<EnvironmentSummary> environment(String name) {
    return environments.stream().filter(e -> e.environment().equals(name)).findFirst();
  }

  public double wallSeconds() {
    return wallSeconds;
  }

  List<Run> runs() {
    return runs;
  }

  /** MemLoop default against each environment's best baseline, on average over the environments. */
  java.util.Optional<Headline.Overall> overall() {
    return Headline.Overall.of(environments);
  }

  /** Each environment's finding, in environment order. */
  List<Headline> headlines() {
    return environments.stream().map(Headline::of).toList();
  }

  /**
   * The findings first (per environment: the best strategy, its gain over no memory and over the next
   * best, MemLoop default against the best other baseline, with 95 % intervals), then one Markdown
   * table per environment, mean ± sample std over seeds.
   */
  public String toMarkdown() {
    StringBuilder out = new StringBuilder();
    if (options.size() == BenchSize.QUICK) {
      out.append(String.format(Locale.ROOT, QUICK_NOTE, options.epochs())).append('\n');
    }
    out.append("Findings (last-epoch accuracy; gains are paired per-seed differences, mean [95 % t-interval]):\n\n");
    headlines().forEach(h -> out.append(h.toMarkdown()));
    overall().ifPresent(o -> out.append(o.toMarkdown()));
    out.append('\n').append(STRATEGY_NAMES).append('\n');
    out.append(String.format(Locale.ROOT,
        "MemLoop runtime-learning benchmark: %d seeds %s, %d epochs, %s size, policy %s, embedder %s, %s, %.0f s%n%n",
        options.seeds().size(), options.seeds(), options.epochs(), options.size().name().toLowerCase(Locale.ROOT),
        policy.id(), modelId, (options.slip() == null ? "default outcome noise" : "slip " + options.slip())
            + knobsText(options), wallSeconds));
    if (policy instanceof LlmPolicy llm) {
      out.append("LLM usage: ").append(usage(llm.usage())).append("\n\n");
    }
    int runs = options.seeds().size();
    for (EnvironmentSummary env : environments) {
      out.append(String.format(Locale.ROOT, "### %s (%d tasks, %d held out)%n%n", env.environment(), env.tasks(), env.heldOut()));
      out.append("| strategy | last epoch | CSR | forgetting | " + env.heldOutKind().label()
          + " | r(Q, next) | misled | memories | chars shown | s/run |\n");
      out.append("|---|---|---|---|---|---|---|---|---|---|\n");
      for (StrategySummary s : env.strategies()) {
        out.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %.0f | %.0f | %.1f |%n",
            s.strategy(), s.lastEpochAccuracy().format(runs), s.cumulativeSuccess().format(runs),
            s.forgettingRate().format(runs), s.transferAccuracy().format(runs), s.qPredictsNext().format(runs),
            s.misledRate().format(runs),
            s.memories().mean(), s.shownChars().mean(), s.wallSeconds().mean()));
      }
      out.append('\n');
    }
    out.append(DEFINITIONS);
    return out.toString();
  }

  /**
   * {@link #toMarkdown()} for a console: the same text without Markdown's emphasis and code marks
   * ({@code **sql**} reads sql); the tables stay as they are, readable as text.
   */
  public String toText() {
    return toMarkdown().replace("**", "").replace("`", "");
  }

  /** ", knobs text-world.rooms=9 ..." when the run overrides environment knobs, else "". */
  static String knobsText(BenchOptions options) {
    List<String> set = new ArrayList<>();
    options.knobs().forEach((env, knobs) -> knobs.forEach((name, value) -> set.add(env + "." + name + "=" + value)));
    String store = options.store().inMemory() ? "" : ", engine store " + options.store().label();
    return (set.isEmpty() ? "" : ", knobs " + String.join(" ", set)) + store;
  }

  /** One line of an LLM policy's usage, as the Markdown header and the report page print it. */
  static String usage(LlmPolicy.Usage u) {
    String s = String.format(Locale.ROOT,
        "%d requests, %d corrections, %d unreadable decisions, %d truncated replies, %d prompt + %d completion tokens",
        u.requests(), u.corrections(), u.unreadable(), u.truncated(), u.promptTokens(), u.completionTokens());
    if (u.distilled() + u.rawFallbacks() > 0) {
      s += String.format(Locale.ROOT, "; experience extraction: %d distilled, %d kept raw (model unavailable or no usable answer)",
          u.distilled(), u.rawFallbacks());
    }
    return s;
  }

  /** Printed first by a quick run: what it is for, and where the result is. */
  static final String QUICK_NOTE =
      """
      Quick run: a smoke test of the whole pipeline (small environments, %d epochs), not the result. In so
      few epochs the memory has barely begun to learn, so MemLoop `default` comes out about level with the
      best RAG here. The full run (`./memloop bench`, about 2 minutes) is where learning shows: `default` +0.04
      to +0.05 on average over each environment's better RAG (BENCHMARKS.md).
      """;

  /** The names the findings use, defined beside them. */
  static final String STRATEGY_NAMES =
      """
      Strategies: `default` is MemLoop's default preset (learns from rewards which memories help, per task and
      overall); `rag` shows the 3 stored memories most similar to the task (plain RAG memory, newest first on
      ties), `rag-k5` the 5 most similar; `memrl` is the MemRL reference configuration; `oracle` is the ceiling (it
      reads the ground truth, and replays each episode over its own view of what helps, every other strategy's
      view and no memory, keeping the first that succeeds: no strategy beats it on any episode); the rest are
      defined under the tables.
      """;

  /** The metric definitions, printed under every table and in the report page. */
  public static final String DEFINITIONS =
      """
      Definitions (mean ± sample std over seeds):
      - last epoch: mean success in the final epoch; CSR: fraction of tasks solved at least once.
      - forgetting: among tasks solved in epoch t-1, the fraction failed in epoch t, averaged over t.
      - transfer: success on held-out unseen tasks of trained kinds (other literals, other goals) with
        frozen memory (retrieval only, no writes); robustness, where the held-out tasks are training tasks
        asked again in other words, the same with those; — if none.
      - r(Q, next): Pearson r between the top-ranked memory's Q at retrieval (learned from earlier episodes
        only; memories rewarded at least once) and the success of the episode that followed; — where Q
        never moves.
      - misled: among episodes that showed a memory and could be judged, the fraction whose top-ranked
        memory misled: a success experience (another task's plan, answer or query, or a stale one) that
        does not fit the task; judged with ground truth after the fact, strategies never see it.
      """;
}
