package io.memloop.bench;

import io.memloop.Checks;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.bench.strategy.Ablation;
import io.memloop.bench.strategy.RagStrategy;
import io.memloop.bench.strategy.RunStore;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Bench#run} runs.
 *
 * @param seeds one run per seed per environment and strategy; each seed also generates its own
 *     environment instance. Seeds 1–10 were used while developing the environments; the defaults
 *     report on others ({@link #REPORTED_SEEDS}) so that nothing is tuned to the reported runs.
 * @param epochs passes over each environment's task list
 * @param size environment size
 * @param environments names from {@link #ENVIRONMENTS}
 * @param strategies names from {@link #STRATEGIES}
 * @param slip outcome noise: every frozen policy's chance of ignoring what it is shown and guessing,
 *     or {@code null} for each environment's default (0.05)
 * @param knobs environment → knob name → value: overrides of the environments' knobs at {@code size}
 *     ({@link #knobNames}), to run the benchmark on variants of them; every environment named must be run
 * @param store where the engine's runs keep their memories ({@link RunStore#MEMORY} unless asked otherwise)
 */
public record BenchOptions(
    List<Long> seeds, int epochs, BenchSize size, List<String> environments, List<String> strategies,
    @Nullable Double slip, Map<String, Map<String, String>> knobs, RunStore store) {

  /** Options with the engine's runs in memory. */
  public BenchOptions(
      List<Long> seeds, int epochs, BenchSize size, List<String> environments, List<String> strategies,
      @Nullable Double slip, Map<String, Map<String, String>> knobs) {
    this(seeds, epochs, size, environments, strategies, slip, knobs, RunStore.MEMORY);
  }

  /** Options with each environment's default outcome noise. */
  public BenchOptions(List<Long> seeds, int epochs, BenchSize size, List<String> environments, List<String> strategies) {
    this(seeds, epochs, size, environments, strategies, null);
  }

  /** Options with each environment's own knobs. */
  public BenchOptions(
      List<Long> seeds, int epochs, BenchSize size, List<String> environments, List<String> strategies,
      @Nullable Double slip) {
    this(seeds, epochs, size, environments, strategies, slip, Map.of());
  }

  /** Seeds the environments were developed and tuned with: never the reported ones. */
  public static final List<Long> DEVELOPMENT_SEEDS = List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);

  /** Seeds of reported runs. */
  public static final List<Long> REPORTED_SEEDS = List.of(1001L, 1002L, 1003L, 1004L, 1005L);

  /** The most memories a {@code rag-kN} baseline may show. */
  public static final int MAX_RAG_TOP = 50;

  private static final java.util.regex.Pattern RAG_TOP = java.util.regex.Pattern.compile("rag-k([1-9][0-9]?)");

  /**
   * N of a {@code rag-hybrid-kN} baseline (hybrid retrieval showing N: {@link RagStrategy#hybrid}), or 0 if
   * {@code name} is not one: N from 1 to {@link #MAX_RAG_TOP}.
   */
  public static int ragHybridTop(String name) {
    return topOf(RAG_HYBRID_TOP, name);
  }

  /** N of {@code name} if it matches {@code pattern} with N in group 1 and N is at most {@link #MAX_RAG_TOP}; else 0. */
  private static int topOf(java.util.regex.Pattern pattern, String name) {
    java.util.regex.Matcher m = pattern.matcher(name);
    if (!m.matches()) {
      return 0;
    }
    int n = Integer.parseInt(m.group(1));
    return n <= MAX_RAG_TOP ? n : 0;
  }

  private static final java.util.regex.Pattern RAG_HYBRID_TOP = java.util.regex.Pattern.compile("rag-hybrid-k([1-9][0-9]?)");

  /**
   * N of a {@code rag-kN} baseline (plain RAG showing the N most similar memories), or 0 if {@code name} is not one:
   * N from 1 to {@link #MAX_RAG_TOP}, except the k2 of {@code rag} itself (3), which is {@code rag}.
   */
  public static int ragTop(String name) {
    int n = topOf(RAG_TOP, name);
    return n != RagStrategy.all().shows() ? n : 0;
  }

  /**
   * The configuration of an engine strategy: {@code similarity}, {@code memrl}, {@code default} or an ablation, with
   * any knobs changed after a colon ({@code default:exploreBudget=8:k2=5}, names as in docs/configuration.md); null if
   * {@code name} names no engine strategy.
   *
   * @throws MemLoopException naming {@code strategies} when a changed knob is unknown or its value is refused
   */
  public static @Nullable MemLoopConfig engineConfig(String name) {
    String[] parts = name.split(":", -1);
    MemLoopConfig base = Ablation.NAMES.get(parts[0]);
    for (Preset p : Preset.values()) {
      if (p.id().equals(parts[0])) {
        base = MemLoopConfig.preset(p);
      }
    }
    if (base == null || parts.length == 1) {
      return base;
    }
    MemLoopConfig.Builder b = base.toBuilder();
    for (int i = 1; i < parts.length; i++) {
      int eq = parts[i].indexOf('=');
      if (eq <= 0 || eq == parts[i].length() - 1) {
        throw MemLoopException.invalid("strategies", "'" + Checks.abbreviate(name) + "': each change after a colon must "
            + "be knob=value, got '" + Checks.abbreviate(parts[i]) + "'");
      }
      try {
        b.set(parts[i].substring(0, eq), parts[i].substring(eq + 1));
      } catch (MemLoopException e) {
        throw MemLoopException.invalid("strategies", "'" + Checks.abbreviate(name) + "': " + e.getMessage());
      }
    }
    try {
      return b.build();
    } catch (MemLoopException e) {
      throw MemLoopException.invalid("strategies", "'" + Checks.abbreviate(name) + "': " + e.getMessage());
    }
  }

  /**
   * Whether {@code name} is MemLoop's {@code default} changed: an ablation, or {@code default} or an ablation with
   * knobs changed after a colon. A variant is compared with the baselines; it is never the baseline that
   * {@code default} is measured against.
   */
  public static boolean isDefaultVariant(String name) {
    String base = name.split(":", 2)[0];
    return !name.equals(Headline.MEMLOOP) && (base.equals(Headline.MEMLOOP) || ABLATIONS.contains(base));
  }

  /** Strategy names, in report order: floor first, ceiling last. */
  public static final List<String> STRATEGIES =
      List.of("no-memory", "rag", "rag-k5", "rag-success", "recent", "similarity", "memp", "memrl", "default", "oracle");

  /**
   * The default preset with one of its differences from {@code memrl} undone (or, for {@code
   * default+utility}, with Q ranking as well, λ = 0.5): the ablation table of BENCHMARKS.md. Run with
   * {@code --strategies}; not part of the default run.
   */
  public static final List<String> ABLATIONS = List.copyOf(Ablation.NAMES.keySet());

  /** Largest outcome noise: above it a policy ignores its memory more often than not. */
  public static final double MAX_SLIP = 0.5;

  public static final List<String> ENVIRONMENTS = EnvironmentCatalog.names();

  public BenchOptions {
    Objects.requireNonNull(store, "store");
    seeds = List.copyOf(seeds);
    environments = List.copyOf(environments);
    strategies = List.copyOf(strategies);
    if (seeds.isEmpty()) {
      throw MemLoopException.invalid("seeds", "must not be empty");
    }
    if (new LinkedHashSet<>(seeds).size() != seeds.size()) {
      throw MemLoopException.invalid("seeds", "must be distinct, got " + seeds);
    }
    if (epochs < 1 || epochs > 100) {
      throw MemLoopException.invalid("epochs", "must be in [1, 100], got " + epochs);
    }
    if (environments.isEmpty()) {
      throw MemLoopException.invalid("environments", "must not be empty");
    }
    environments.forEach(EnvironmentCatalog::named);
    if (slip != null && !(slip >= 0 && slip <= MAX_SLIP)) {
      throw MemLoopException.invalid("slip", "must be in [0, " + MAX_SLIP + "], got " + slip);
    }
    Map<String, Map<String, String>> copy = new LinkedHashMap<>();
    for (var e : knobs.entrySet()) {
      EnvironmentFactory env = EnvironmentCatalog.named(e.getKey(), "knob");
      if (!environments.contains(env.name())) {
        throw MemLoopException.invalid("knob", "knobs of " + env.name() + " are set but it is not run (environments: "
            + String.join(", ", environments) + ")");
      }
      env.knobs(size, slip, e.getValue()); // checks the overrides as the run will apply them
      copy.put(e.getKey(), Collections.unmodifiableMap(new LinkedHashMap<>(e.getValue())));
    }
    knobs = Collections.unmodifiableMap(copy);
    if (strategies.isEmpty()) {
      throw MemLoopException.invalid("strategies", "must not be empty");
    }
    for (String s : strategies) {
      if (engineConfig(s) != null) {
        continue; // an engine strategy, with or without knobs changed: its knobs were checked
      }
      if (!STRATEGIES.contains(s) && !ABLATIONS.contains(s) && ragTop(s) == 0 && ragHybridTop(s) == 0) {
        // the ablations are listed for a name that looks like one: every other name gets a line short enough to read
        String ablations = s.startsWith("default")
            ? "ablations 'default' + one of: "
                + String.join(" ", ABLATIONS.stream().map(a -> a.substring("default".length())).toList())
            : ABLATIONS.size() + " ablations named default-… (a name starting with 'default' lists them)";
        throw MemLoopException.invalid("strategies", "unknown strategy '" + Checks.abbreviate(s) + "' (known: "
            + String.join(", ", STRATEGIES) + "; rag-kN and rag-hybrid-kN, N up to " + MAX_RAG_TOP + " (rag-k3 is rag); "
            + ablations + ")");
      }
    }
  }

  /** The full run: every environment and strategy, 5 reported seeds, 10 epochs, full size. */
  public static BenchOptions full() {
    return new BenchOptions(REPORTED_SEEDS, 10, BenchSize.FULL, ENVIRONMENTS, STRATEGIES);
  }

  /** {@code --quick}: the same comparison at quick size over 5 epochs. */
  public static BenchOptions quick() {
    return new BenchOptions(REPORTED_SEEDS, 5, BenchSize.QUICK, ENVIRONMENTS, STRATEGIES);
  }

  public BenchOptions withSeeds(List<Long> s) {
    return new BenchOptions(s, epochs, size, environments, strategies, slip, knobs, store);
  }

  public BenchOptions withEpochs(int e) {
    return new BenchOptions(seeds, e, size, environments, strategies, slip, knobs, store);
  }

  public BenchOptions withEnvironments(List<String> e) {
    return new BenchOptions(seeds, epochs, size, e, strategies, slip, knobs, store);
  }

  public BenchOptions withStrategies(List<String> s) {
    return new BenchOptions(seeds, epochs, size, environments, s, slip, knobs, store);
  }

  public BenchOptions withSlip(@Nullable Double s) {
    return new BenchOptions(seeds, epochs, size, environments, strategies, s, knobs, store);
  }

  /** The same options with these knob overrides (environment → knob name → value) instead of any before. */
  public BenchOptions withKnobs(Map<String, Map<String, String>> k) {
    return new BenchOptions(seeds, epochs, size, environments, strategies, slip, k, store);
  }

  /** The same options with the engine's runs on {@code s}. */
  public BenchOptions withStore(RunStore s) {
    return new BenchOptions(seeds, epochs, size, environments, strategies, slip, knobs, s);
  }

  /** The overrides of {@code environment}'s knobs (empty when none). */
  public Map<String, String> knobsOf(String environment) {
    return knobs.getOrDefault(environment, Map.of());
  }

  /** The knobs of {@code environment} that {@link #knobs} can override. */
  public static List<String> knobNames(String environment) {
    return EnvironmentCatalog.named(environment, "knob").knobNames();
  }

  /** Learning epochs run in total: the unit of {@link Bench.Listener} progress. */
  public long totalEpochs() {
    return (long) seeds.size() * epochs * environments.size() * strategies.size();
  }
}
