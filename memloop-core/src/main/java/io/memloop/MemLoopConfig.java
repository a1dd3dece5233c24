package io.memloop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every retrieval and learning knob, validated once by {@link Builder#build()}. Immutable and
 * thread-safe. Start from a {@link Preset} and override: {@code MemLoopConfig.preset(Preset.MEMRL)
 * .toBuilder().k1(10).build()}. Transports set knobs by name with {@link Builder#set(String, String)};
 * the names are those of the accessors ({@link #KNOBS}).
 *
 * <p>Each component is a {@link Knob}: its type, bounds, value in every preset, documentation and conflicts are
 * stated there once (and rendered in docs/configuration.md). The components are declared in the table's order.
 */
public record MemLoopConfig(
    int k1,
    int k2,
    double similarityThreshold,
    double lambda,
    double alpha,
    double rewardMin,
    double rewardMax,
    double qInitSuccess,
    double qInitFailure,
    double qInitUnknown,
    double qMin,
    double mergeThreshold,
    Exploration exploration,
    double epsilon,
    SimilarityNormalization similarityNormalization,
    double simMean,
    double simStd,
    Duration retrievalTtl,
    SimilarityScope similarityScope,
    TieBreak tieBreak,
    Consolidation consolidation,
    TaskLearning taskLearning,
    int exploreAfterFailures,
    int exploreBudget,
    long maxMemories,
    MergeScope mergeScope,
    double gamma,
    NoteDepth noteDepth,
    int firstEncounterK2,
    double exploreBeyondBudget,
    int firstEncounterK1,
    double freshness,
    int similarityBlocks,
    int similarityDirections,
    TextSimilarity textSimilarity,
    Doubt doubt,
    DirectionsUse directionsUse,
    TextAlone textAlone) {

  /** Exploration policy of Phase B. */
  public enum Exploration {
    /** Always the greedy top-k2. */
    NONE,
    /** With probability ε, a uniform sample of k2 from the eligible pool (MemRL). */
    EPSILON_GREEDY
  }

  /** How Phase B normalises similarity before mixing it with Q. */
  public enum SimilarityNormalization {
    /** z-score over the candidate pool (population std, clipped to ±3, std := 1 when ≤ 1e-9). */
    POOL,
    /** (sim − simMean) / simStd with constants set by the user, as the MemRL reference code does. */
    FIXED
  }

  /** What a Phase B candidate's similarity is the cosine to. */
  public enum SimilarityScope {
    /**
     * The representative intent of the memory's intent group (MemRL): every memory of a group gets the
     * same similarity, so a group's memories tie and the {@link TieBreak} decides among them.
     */
    INTENT_GROUP,
    /** The memory's own intent embedding: a group's memories are told apart by their own intents. */
    MEMORY
  }

  /** How Phase B orders candidates whose score and similarity are equal. */
  public enum TieBreak {
    /** Oldest first (the MemRL reference: its store lists a group's memories oldest first, its sort is stable). */
    OLDEST_FIRST,
    /** Newest first: the latest experience reflects the latest state of the world. */
    NEWEST_FIRST
  }

  /** Where {@code remember} looks for the intent group a new memory joins. */
  public enum MergeScope {
    /** One nearest-intent search of the store for every remembered experience. */
    NEAREST,
    /**
     * When {@code remember} names the retrieval of its episode and repeats that retrieval's intent (the same
     * embedding), the intents that retrieval recalled decide, with no second search — the best of them if it
     * clears {@code mergeThreshold}, else a new group (as the MemRL reference merges only into the intents its
     * retrieval returned). The intents of the {@link #RETRIEVED_KEPT} newest retrievals of a process are kept
     * for this; otherwise, and for another intent, as {@link #NEAREST}. Identical to {@code NEAREST} unless
     * another agent stored a nearer intent between the retrieval and the remember.
     */
    RETRIEVED;

    /** Retrievals per engine whose recalled intents {@code RETRIEVED} keeps, newest first. */
    public static final int RETRIEVED_KEPT = 4_096;
  }

  /** What {@code remember} does with an experience identical to one already stored. */
  public enum Consolidation {
    /** Every experience is stored, repeats included (MemRL). */
    NONE,
    /**
     * An experience whose text and outcome equal those of a memory of the intent group it would join
     * is not stored again: the existing memory is returned, keeping its utility and visits.
     */
    EXACT_DUPLICATES,
    /**
     * As {@link #EXACT_DUPLICATES}, and a failed attempt at a task that already has a failure note (a memory
     * of the same intent, within the group it joins) is merged into that note instead of stored beside it:
     * one memory that lists the task's failed attempts, newest first, at most {@link #MAX_MERGED_ATTEMPTS}
     * (the oldest dropped), separated by {@link Memory#PART_SEPARATOR}. Each failure is partial evidence
     * about one task; kept apart, a task's newest notes crowd each other out of the k2 shown and the
     * older ones are never seen again. The merged note replaces the old one (a new id, its utility kept).
     */
    MERGE_FAILURES;

    /** Most failed attempts one merged failure note lists. */
    public static final int MAX_MERGED_ATTEMPTS = 10;
  }

  /**
   * Per-task learning: credit the memory the agent used with the episode's reward, under the task that
   * asked (its intent text, or its embedding when it has no text); rank memories proven for that task
   * first and memories that failed it last; and, for a task that keeps failing with nothing proven,
   * show its own record (memories of its own intent) and, with the probability that exploring succeeds
   * more often than not exploring in the namespace (a logged random draw), one untried success experience
   * of a similar task in second place. Under {@link Consolidation#MERGE_FAILURES} it also learns, per
   * namespace, whether a failure note listing more than k2 attempts is better shown whole or as its newest
   * k2 (another logged draw).
   */
  public enum TaskLearning {
    /** Utilities only (MemRL). */
    OFF,
    /** Per-task credit, ranking and exploration as above. */
    ON,
    /**
     * {@link #ON}, and for a memory the asking task has no evidence of its own about, the evidence of the other
     * tasks that used it, weighted by how near their queries were to the memory against the asking one's (a
     * kernel over the queries that used it), newest evidence first: the same tiers, learned for a neighbourhood
     * of intents, so that a task never seen before starts from what worked and what failed for the tasks most
     * like it, and a memory that went stale loses to newer evidence.
     */
    NEIGHBOURS;

    /** Whether per-task learning is on ({@link #ON} or {@link #NEIGHBOURS}). */
    public boolean perTask() {
      return this != OFF;
    }
  }

  /**
   * How much of a merged failure note ({@link Consolidation#MERGE_FAILURES}) that lists more than k2 attempts a
   * retrieval shows. Older attempts are more evidence (every answer ruled out so far) and also older (what
   * was seen then may mislead now); which serves the agent better depends on the kind of task.
   */
  public enum NoteDepth {
    /**
     * Whole or the newest k2, by a logged draw with the probability that whole notes succeed more often in the
     * namespace (per-task learning keeps the record; without it, as {@link #WHOLE}).
     */
    LEARNED,
    /** Every attempt the note lists. */
    WHOLE,
    /** The newest k2 attempts: as many as k2 separate notes would show. */
    NEWEST
  }

  /**
   * Whether a task with no record of its own is also ranked by the words its text shares with each candidate's intent
   * ({@link io.memloop.policy.TextChannel}).
   */
  public enum TextSimilarity {
    /** The vectors' similarity alone. */
    OFF,
    /**
     * The vectors' similarity and the texts' lexical similarity, weighed by how well each has foretold the
     * namespace's rewards (equal until one stands clearly ahead).
     */
    LEARNED
  }

  /**
   * Whether a task with no record of its own is shown success experiences whose latest use failed after the rest, or
   * every success after the failure notes, as the namespace's rewards say it pays ({@link io.memloop.policy.Doubt}).
   */
  public enum Doubt {
    /** Doubted successes keep their place in the ranking. */
    OFF,
    /**
     * Doubted successes go after the rest on a draw with the probability that doing so pays in the namespace
     * (½ until its rewards tell the two apart).
     */
    LEARNED,
    /**
     * As {@link #LEARNED}, but the arm drawn against the ranking shows every success experience after the failure
     * notes (others' plans after what went wrong for them), newer first within each part where tasks seldom come back
     * (as {@link MemLoopConfig#freshness}).
     */
    NOTES_FIRST
  }

  /**
   * Whether a task with no record of its own is ranked by the similarity the namespace learned
   * ({@link #similarityDirections}) always, or as the namespace's rewards say it pays
   * ({@link io.memloop.policy.DirectionsUse}).
   */
  public enum DirectionsUse {
    /** The learned similarity ranks once it is fitted. */
    ALWAYS,
    /**
     * The learned similarity ranks on a draw with the probability that it pays in the namespace (½ until its rewards
     * tell it apart from the plain cosine); else the plain cosine does.
     */
    LEARNED
  }

  /**
   * Whether a task with no record of its own is ranked by the learned mix of the vectors' and the texts' similarities
   * ({@link #textSimilarity}) always, or by the texts' similarity alone where the namespace's rewards say that pays
   * ({@link io.memloop.policy.TextAlone}).
   */
  public enum TextAlone {
    /** The learned mix ranks. */
    NEVER,
    /**
     * The texts' similarity alone ranks on a draw with the probability that it pays in the namespace (½ until its
     * rewards tell it apart from the mix); else the mix does.
     */
    LEARNED
  }

  /** Knob names accepted by {@link Builder#set(String, String)}, in documentation order ({@link Knob}). */
  public static final List<String> KNOBS = Knob.names();

  /** Largest k1 (intents recalled in Phase A): a bound on the work and memory of one retrieval. */
  public static final int MAX_K1 = 10_000;

  /** Largest k2 (memories selected): more would not fit an agent's prompt anyway. */
  public static final int MAX_K2 = 1_000;

  /** Largest maxMemories; 0 means no bound. */
  public static final long MAX_MEMORIES = Integer.MAX_VALUE;

  /** Smallest simStd of FIXED normalisation. */
  public static final double MIN_SIM_STD = 1e-6;

  /** Longest retrievalTtl in days: 100 years, so expiry times stay representable. */
  public static final long MAX_RETRIEVAL_TTL_DAYS = 36_500;

  /** Longest retrievalTtl. */
  public static final Duration MAX_RETRIEVAL_TTL = Duration.ofDays(MAX_RETRIEVAL_TTL_DAYS);

  /**
   * Use {@link #builder()} or {@link #preset(Preset)}; this constructor validates like the builder: every
   * knob's bounds ({@link Knob}), then every {@link Knob.Conflict}.
   */
  public MemLoopConfig {
    // In Knob order (a test pins it against the record components).
    Knob.validate(new Object[] {
        k1, k2, similarityThreshold, lambda, alpha, rewardMin, rewardMax, qInitSuccess, qInitFailure, qInitUnknown,
        qMin, mergeThreshold, exploration, epsilon, similarityNormalization, simMean, simStd, retrievalTtl,
        similarityScope, tieBreak, consolidation, taskLearning, exploreAfterFailures, exploreBudget, maxMemories,
        mergeScope, gamma, noteDepth, firstEncounterK2, exploreBeyondBudget, firstEncounterK1, freshness, similarityBlocks,
        similarityDirections, textSimilarity, doubt, directionsUse, textAlone});
  }

  /** The configuration of these values, one per {@link Knob} in table order. */
  private static MemLoopConfig of(Object[] v) {
    return new MemLoopConfig(
        (int) Knob.K1.in(v), (int) Knob.K2.in(v), (double) Knob.SIMILARITY_THRESHOLD.in(v), (double) Knob.LAMBDA.in(v),
        (double) Knob.ALPHA.in(v), (double) Knob.REWARD_MIN.in(v), (double) Knob.REWARD_MAX.in(v),
        (double) Knob.Q_INIT_SUCCESS.in(v), (double) Knob.Q_INIT_FAILURE.in(v), (double) Knob.Q_INIT_UNKNOWN.in(v),
        (double) Knob.Q_MIN.in(v), (double) Knob.MERGE_THRESHOLD.in(v), (Exploration) Knob.EXPLORATION.in(v),
        (double) Knob.EPSILON.in(v), (SimilarityNormalization) Knob.SIMILARITY_NORMALIZATION.in(v),
        (double) Knob.SIM_MEAN.in(v), (double) Knob.SIM_STD.in(v), (Duration) Knob.RETRIEVAL_TTL.in(v),
        (SimilarityScope) Knob.SIMILARITY_SCOPE.in(v), (TieBreak) Knob.TIE_BREAK.in(v),
        (Consolidation) Knob.CONSOLIDATION.in(v), (TaskLearning) Knob.TASK_LEARNING.in(v),
        (int) Knob.EXPLORE_AFTER_FAILURES.in(v), (int) Knob.EXPLORE_BUDGET.in(v), (long) Knob.MAX_MEMORIES.in(v),
        (MergeScope) Knob.MERGE_SCOPE.in(v), (double) Knob.GAMMA.in(v), (NoteDepth) Knob.NOTE_DEPTH.in(v),
        (int) Knob.FIRST_ENCOUNTER_K2.in(v), (double) Knob.EXPLORE_BEYOND_BUDGET.in(v),
        (int) Knob.FIRST_ENCOUNTER_K1.in(v), (double) Knob.FRESHNESS.in(v),
        (int) Knob.SIMILARITY_BLOCKS.in(v), (int) Knob.SIMILARITY_DIRECTIONS.in(v),
        (TextSimilarity) Knob.TEXT_SIMILARITY.in(v), (Doubt) Knob.DOUBT.in(v),
        (DirectionsUse) Knob.DIRECTIONS_USE.in(v), (TextAlone) Knob.TEXT_ALONE.in(v));
  }

  /** The preset's values ({@link Knob#defaultValue(Preset)}). */
  public static MemLoopConfig preset(Preset preset) {
    return Presets.BY_PRESET.get(preset);
  }

  /** Built once, on first use (after {@link Knob}, which the presets are read from). */
  private static final class Presets {
    static final Map<Preset, MemLoopConfig> BY_PRESET = new java.util.EnumMap<>(Preset.class);

    static {
      for (Preset p : Preset.values()) {
        BY_PRESET.put(p, of(Knob.presetValues(p)));
      }
    }
  }

  /** Starts from {@link Preset#DEFAULT}. */
  public static Builder builder() {
    return preset(Preset.DEFAULT).toBuilder();
  }

  /** A builder that starts from these values. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * The most memories a retrieval may show: {@code k2}, or {@code firstEncounterK2} when larger (what a task with no
   * record of its own is shown under per-task learning).
   */
  public int shownAtMost() {
    return Math.max(k2, firstEncounterK2);
  }

  /** Q of a new memory produced by an episode with this outcome. */
  public double initialQ(Outcome outcome) {
    return switch (outcome) {
      case SUCCESS -> qInitSuccess;
      case FAILURE -> qInitFailure;
      case UNKNOWN -> qInitUnknown;
    };
  }

  /**
   * Every knob as text, the form a store records per namespace ({@link
   * io.memloop.store.MemoryStore#saveSettings}); {@link #fromSettings} reads it back exactly.
   */
  public Map<String, String> toSettings() {
    Map<String, String> m = new LinkedHashMap<>();
    for (Knob k : Knob.values()) {
      m.put(k.key(), Knob.text(k.raw(this)));
    }
    return m;
  }

  /**
   * The configuration {@link #toSettings()} wrote. A knob added after the settings were recorded takes
   * {@link Knob#legacyValue()}: what the version that recorded them did.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming a missing, unknown or bad knob
   */
  public static MemLoopConfig fromSettings(Map<String, String> settings) {
    Builder b = builder();
    for (Knob knob : Knob.values()) {
      String v = settings.get(knob.key());
      if (v == null) {
        v = knob.legacyValue().orElseThrow(() -> MemLoopException.invalid(knob.key(), "is missing from the recorded settings"));
      }
      b.put(knob, knob.parse(v));
    }
    Set<String> canonical = Knob.keys();
    for (String k : settings.keySet()) {
      if (!canonical.contains(k)) {
        throw MemLoopException.invalid(k, "unknown knob in the recorded settings (known: " + String.join(", ", canonical) + ")");
      }
    }
    return b.build();
  }

  /** The knobs whose values differ from {@code other}'s, as {@code knob: this -> other}. */
  public List<String> differences(MemLoopConfig other) {
    List<String> out = new ArrayList<>();
    for (Knob k : Knob.values()) {
      Object a = k.value(this);
      Object b = k.value(other);
      if (!a.equals(b)) {
        out.add(k.key() + " " + a + " -> " + b);
      }
    }
    return out;
  }

  /** Every knob by name, for printing and for {@code stats --json}: numbers as numbers, the rest as text. */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Knob k : Knob.values()) {
      m.put(k.key(), k.value(this));
    }
    return m;
  }

  /**
   * Fail-fast builder. Each setter checks its value's type and bounds and names the knob; {@link #build()}
   * checks the {@link Knob.Conflict}s and names both knobs. The result depends on which knobs were set to what,
   * never on the order of the calls: no setter changes another knob, and a knob set by its own name wins over a
   * {@link Knob.Shorthand} ({@code qInit}) whichever came first. Setting the same knob twice keeps the last value.
   */
  public static final class Builder {
    private final Object[] base = new Object[Knob.values().length];
    private final Object[] own = new Object[Knob.values().length];
    private final Object[] shorthand = new Object[Knob.values().length];

    private Builder(MemLoopConfig start) {
      for (Knob k : Knob.values()) {
        base[k.ordinal()] = k.raw(start);
      }
    }

    public Builder k1(int v) { return put(Knob.K1, v); }
    public Builder k2(int v) { return put(Knob.K2, v); }
    public Builder similarityThreshold(double v) { return put(Knob.SIMILARITY_THRESHOLD, v); }
    public Builder lambda(double v) { return put(Knob.LAMBDA, v); }
    public Builder alpha(double v) { return put(Knob.ALPHA, v); }
    public Builder rewardMin(double v) { return put(Knob.REWARD_MIN, v); }
    public Builder rewardMax(double v) { return put(Knob.REWARD_MAX, v); }
    /** {@link Knob.Shorthand#Q_INIT}: the same initial Q for every outcome not set by its own name. */
    public Builder qInit(double v) { return shorthand(Knob.Shorthand.Q_INIT, v); }
    public Builder qInitSuccess(double v) { return put(Knob.Q_INIT_SUCCESS, v); }
    public Builder qInitFailure(double v) { return put(Knob.Q_INIT_FAILURE, v); }
    public Builder qInitUnknown(double v) { return put(Knob.Q_INIT_UNKNOWN, v); }
    public Builder qMin(double v) { return put(Knob.Q_MIN, v); }
    public Builder mergeThreshold(double v) { return put(Knob.MERGE_THRESHOLD, v); }
    public Builder exploration(Exploration v) { return put(Knob.EXPLORATION, v); }
    /**
     * Sets ε, and nothing else: ε-greedy draws also need {@code exploration(EPSILON_GREEDY)}; {@link #build()}
     * refuses ε &gt; 0 with exploration NONE.
     */
    public Builder epsilon(double v) { return put(Knob.EPSILON, v); }
    public Builder similarityNormalization(SimilarityNormalization v) { return put(Knob.SIMILARITY_NORMALIZATION, v); }
    public Builder simMean(double v) { return put(Knob.SIM_MEAN, v); }
    public Builder simStd(double v) { return put(Knob.SIM_STD, v); }
    public Builder retrievalTtl(Duration v) { return put(Knob.RETRIEVAL_TTL, v); }
    public Builder similarityScope(SimilarityScope v) { return put(Knob.SIMILARITY_SCOPE, v); }
    public Builder tieBreak(TieBreak v) { return put(Knob.TIE_BREAK, v); }
    public Builder consolidation(Consolidation v) { return put(Knob.CONSOLIDATION, v); }
    public Builder taskLearning(TaskLearning v) { return put(Knob.TASK_LEARNING, v); }
    public Builder exploreAfterFailures(int v) { return put(Knob.EXPLORE_AFTER_FAILURES, v); }
    public Builder exploreBudget(int v) { return put(Knob.EXPLORE_BUDGET, v); }
    public Builder maxMemories(long v) { return put(Knob.MAX_MEMORIES, v); }
    public Builder mergeScope(MergeScope v) { return put(Knob.MERGE_SCOPE, v); }
    public Builder gamma(double v) { return put(Knob.GAMMA, v); }
    public Builder noteDepth(NoteDepth v) { return put(Knob.NOTE_DEPTH, v); }

    public Builder firstEncounterK2(int v) { return put(Knob.FIRST_ENCOUNTER_K2, v); }
    public Builder exploreBeyondBudget(double v) { return put(Knob.EXPLORE_BEYOND_BUDGET, v); }
    public Builder firstEncounterK1(int v) { return put(Knob.FIRST_ENCOUNTER_K1, v); }
    public Builder freshness(double v) { return put(Knob.FRESHNESS, v); }
    public Builder similarityBlocks(int v) { return put(Knob.SIMILARITY_BLOCKS, v); }
    public Builder similarityDirections(int v) { return put(Knob.SIMILARITY_DIRECTIONS, v); }
    public Builder textSimilarity(TextSimilarity v) { return put(Knob.TEXT_SIMILARITY, v); }
    public Builder doubt(Doubt v) { return put(Knob.DOUBT, v); }
    public Builder directionsUse(DirectionsUse v) { return put(Knob.DIRECTIONS_USE, v); }
    public Builder textAlone(TextAlone v) { return put(Knob.TEXT_ALONE, v); }

    /**
     * Sets a knob by its name in {@link #KNOBS} (or a knob's {@link Knob#alias()}), parsing {@code value}:
     * integers and plain decimals, durations as ISO-8601 ({@code PT1H}) or seconds, choices case-insensitive.
     *
     * @throws MemLoopException INVALID_ARGUMENT naming the knob: unknown, unparsable or out of bounds
     */
    public Builder set(String knob, String value) {
      var shorthandNamed = Knob.Shorthand.named(knob);
      if (shorthandNamed.isPresent()) {
        Knob.Shorthand s = shorthandNamed.get();
        return shorthand(s, s.knobs().get(0).parse(value));
      }
      Knob k = Knob.named(knob).orElseThrow(
          () -> MemLoopException.invalid(knob, "unknown knob (known: " + String.join(", ", KNOBS) + ")"));
      own[k.ordinal()] = k.parse(value);
      return this;
    }

    Builder put(Knob knob, Object value) {
      own[knob.ordinal()] = knob.check(value);
      return this;
    }

    private Builder shorthand(Knob.Shorthand s, Object value) {
      for (Knob k : s.knobs()) {
        shorthand[k.ordinal()] = k.check(value);
      }
      return this;
    }

    /**
     * The configuration: each knob set by its own name, else by a shorthand, else the starting value.
     *
     * @throws MemLoopException INVALID_ARGUMENT naming both knobs of a {@link Knob.Conflict}
     */
    public MemLoopConfig build() {
      Object[] v = new Object[base.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = own[i] != null ? own[i] : shorthand[i] != null ? shorthand[i] : base[i];
      }
      return of(v);
    }
  }
}
