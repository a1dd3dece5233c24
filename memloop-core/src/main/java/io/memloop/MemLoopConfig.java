package io.memloop;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Every retrieval and learning knob, validated once by {@link Builder#build()}. Immutable and
 * thread-safe. Start from a {@link Preset} and override: {@code MemLoopConfig.preset(Preset.MEMRL)
 * .toBuilder().k1(10).build()}. Transports set knobs by name with {@link Builder#set(String, String)};
 * the names are those of the accessors ({@link #KNOBS}).
 *
 * @param k1 Phase A: how many intents (by cosine) to keep
 * @param k2 Phase B: how many memories to select
 * @param similarityThreshold Phase A gate δ: intents with cosine below it are never candidates
 * @param lambda Phase B mix λ: score = (1−λ)·norm(sim) + λ·norm(Q)
 * @param alpha learning rate α in Q ← Q + α(r − Q)
 * @param rewardMin smallest accepted reward
 * @param rewardMax largest accepted reward
 * @param qInitSuccess Q of a new memory whose episode succeeded
 * @param qInitFailure Q of a new memory whose episode failed
 * @param qInitUnknown Q of a new memory whose outcome is unknown
 * @param qMin candidates with Q below it are dropped before selection
 * @param mergeThreshold a new memory whose intent has cosine ≥ this to an existing intent joins it
 * @param exploration exploration policy
 * @param epsilon ε of ε-greedy: probability of replacing the greedy top-k2 with a uniform draw
 * @param similarityNormalization how Phase B normalises similarity
 * @param simMean mean for {@link SimilarityNormalization#FIXED}
 * @param simStd standard deviation for {@link SimilarityNormalization#FIXED}
 * @param retrievalTtl how long an unrewarded retrieval can still be rewarded
 * @param similarityScope what a candidate's similarity is measured against: its intent group's
 *     representative (MemRL) or the memory's own intent
 * @param tieBreak the order of candidates whose scores and similarities tie
 * @param consolidation what {@code remember} does with an experience already stored under the same intent
 * @param taskLearning whether the engine learns, per task, which memories worked and explores for
 *     tasks that keep failing
 * @param exploreAfterFailures consecutive failures after which a task with no proven memory explores
 * @param exploreBudget most explorations per task
 * @param maxMemories most memories a namespace keeps (0: no bound); past it, {@code remember} evicts
 *     the lowest-utility memory (lowest Q, then fewest visits, then oldest)
 * @param mergeScope where {@code remember} looks for the intent group a new memory joins
 * @param gamma discount γ of a Bellman/TD reward: a reward naming the next retrieval of its episode moves Q
 *     towards {@code r + γ·max Q'} (Q' of the memories that retrieval selected); 0, the reference code's
 *     value, makes every reward Monte-Carlo
 * @param noteDepth how much of a merged failure note listing more than k2 attempts a retrieval shows
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
    NoteDepth noteDepth) {

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
    ON
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
   * Values of knobs that settings recorded by earlier versions lack: what those versions did.
   * {@link #fromSettings} fills them in.
   */
  static final Map<String, String> LEGACY_SETTINGS =
      Map.of("similarityScope", "INTENT_GROUP", "tieBreak", "OLDEST_FIRST", "consolidation", "NONE",
          "taskLearning", "OFF", "exploreAfterFailures", "2", "exploreBudget", "4", "maxMemories", "0",
          "mergeScope", "NEAREST", "gamma", "0", "noteDepth", "LEARNED");

  /** Knob names accepted by {@link Builder#set(String, String)}, in documentation order. */
  public static final List<String> KNOBS =
      List.of(
          "k1", "k2", "similarityThreshold", "lambda", "alpha", "rewardMin", "rewardMax", "qInit",
          "qInitSuccess", "qInitFailure", "qInitUnknown", "qMin", "mergeThreshold", "exploration",
          "epsilon", "similarityNormalization", "simMean", "simStd", "retrievalTtl", "similarityScope",
          "tieBreak", "consolidation", "taskLearning", "exploreAfterFailures", "exploreBudget", "maxMemories",
          "mergeScope", "gamma", "noteDepth");

  /** Largest k1 (intents recalled in Phase A): a bound on the work and memory of one retrieval. */
  public static final int MAX_K1 = 10_000;

  /** Largest k2 (memories selected): more would not fit an agent's prompt anyway. */
  public static final int MAX_K2 = 1_000;

  /** Largest maxMemories; 0 means no bound. */
  public static final long MAX_MEMORIES = Integer.MAX_VALUE;

  /** Smallest simStd of FIXED normalisation. */
  public static final double MIN_SIM_STD = 1e-6;

  /** Longest retrievalTtl: 100 years, so expiry times stay representable. */
  public static final Duration MAX_RETRIEVAL_TTL = Duration.ofDays(36_500);

  /** Use {@link #builder()} or {@link #preset(Preset)}; this constructor validates like the builder. */
  public MemLoopConfig {
    Checks.requireInRange(k1, 1, MAX_K1, "k1");
    Checks.requireInRange(k2, 1, MAX_K2, "k2");
    Checks.requireInRange(similarityThreshold, -1, 1, "similarityThreshold");
    Checks.requireInRange(lambda, 0, 1, "lambda");
    Checks.requireInRange(alpha, 0, 1, "alpha");
    Checks.requireFinite(rewardMin, "rewardMin");
    Checks.requireFinite(rewardMax, "rewardMax");
    if (!(rewardMin < rewardMax)) {
      throw MemLoopException.invalid(
          "rewardMin", "must be below rewardMax (rewardMin=" + rewardMin + ", rewardMax=" + rewardMax + ")");
    }
    Checks.requireFinite(qInitSuccess, "qInitSuccess");
    Checks.requireFinite(qInitFailure, "qInitFailure");
    Checks.requireFinite(qInitUnknown, "qInitUnknown");
    if (Double.isNaN(qMin) || qMin == Double.POSITIVE_INFINITY) {
      throw MemLoopException.invalid("qMin", "must be a number or -Infinity, got " + qMin);
    }
    Checks.requireInRange(mergeThreshold, -1, 1, "mergeThreshold");
    Checks.requireInRange(epsilon, 0, 1, "epsilon");
    if (exploration == Exploration.NONE && epsilon > 0) {
      throw MemLoopException.invalid(
          "epsilon", "is " + epsilon + " but exploration is NONE; set exploration=EPSILON_GREEDY or epsilon=0");
    }
    Checks.requireInRange(simMean, -1, 1, "simMean");
    // A tinier std turns similarities into infinite scores; cosines live in [-1, 1].
    Checks.requireInRange(simStd, MIN_SIM_STD, 2, "simStd");
    Objects.requireNonNull(exploration, "exploration");
    Objects.requireNonNull(similarityNormalization, "similarityNormalization");
    Objects.requireNonNull(similarityScope, "similarityScope");
    Objects.requireNonNull(tieBreak, "tieBreak");
    Objects.requireNonNull(consolidation, "consolidation");
    Objects.requireNonNull(mergeScope, "mergeScope");
    Checks.requireInRange(gamma, 0, 1, "gamma");
    Objects.requireNonNull(noteDepth, "noteDepth");
    Objects.requireNonNull(taskLearning, "taskLearning");
    Checks.requireInRange(exploreAfterFailures, 1, 1_000, "exploreAfterFailures");
    Checks.requireInRange(exploreBudget, 0, 1_000, "exploreBudget");
    if (maxMemories < 0 || maxMemories > MAX_MEMORIES) {
      throw MemLoopException.invalid("maxMemories", "must be in [0, " + MAX_MEMORIES + "] (0: no bound), got " + maxMemories);
    }
    if (retrievalTtl.isNegative() || retrievalTtl.isZero() || retrievalTtl.compareTo(MAX_RETRIEVAL_TTL) > 0) {
      throw MemLoopException.invalid(
          "retrievalTtl", "must be positive and at most " + MAX_RETRIEVAL_TTL.toDays() + " days, got " + retrievalTtl);
    }
  }

  /** The preset's values. */
  public static MemLoopConfig preset(Preset preset) {
    Builder b =
        new Builder()
            .k1(5)
            .k2(3)
            .similarityThreshold(0.5)
            .lambda(0.5)
            .alpha(0.3)
            .rewardMin(-1)
            .rewardMax(1)
            .qInit(0)
            .qMin(-10)
            .mergeThreshold(0.9)
            .exploration(Exploration.NONE)
            .epsilon(0)
            .simMean(0.5)
            .simStd(0.1)
            .retrievalTtl(Duration.ofDays(7))
            .similarityScope(SimilarityScope.INTENT_GROUP)
            .tieBreak(TieBreak.OLDEST_FIRST)
            .consolidation(Consolidation.NONE)
            .taskLearning(TaskLearning.OFF)
            .exploreAfterFailures(2)
            .exploreBudget(4)
            .maxMemories(0)
            .mergeScope(MergeScope.NEAREST)
            .gamma(0)
            .noteDepth(NoteDepth.LEARNED);
    return switch (preset) {
      case MEMRL -> b.similarityNormalization(SimilarityNormalization.FIXED).build();
      case SIMILARITY -> b.similarityNormalization(SimilarityNormalization.POOL).lambda(0).alpha(0).build();
      case DEFAULT ->
          b.similarityNormalization(SimilarityNormalization.POOL)
              .lambda(0)
              .similarityScope(SimilarityScope.MEMORY)
              .tieBreak(TieBreak.NEWEST_FIRST)
              .consolidation(Consolidation.MERGE_FAILURES)
              .taskLearning(TaskLearning.ON)
              .mergeScope(MergeScope.RETRIEVED)
              .build();
    };
  }

  /** Starts from {@link Preset#DEFAULT}. */
  public static Builder builder() {
    return preset(Preset.DEFAULT).toBuilder();
  }

  public Builder toBuilder() {
    return new Builder()
        .k1(k1)
        .k2(k2)
        .similarityThreshold(similarityThreshold)
        .lambda(lambda)
        .alpha(alpha)
        .rewardMin(rewardMin)
        .rewardMax(rewardMax)
        .qInitSuccess(qInitSuccess)
        .qInitFailure(qInitFailure)
        .qInitUnknown(qInitUnknown)
        .qMin(qMin)
        .mergeThreshold(mergeThreshold)
        .exploration(exploration)
        .epsilon(epsilon)
        .similarityNormalization(similarityNormalization)
        .simMean(simMean)
        .simStd(simStd)
        .retrievalTtl(retrievalTtl)
        .similarityScope(similarityScope)
        .tieBreak(tieBreak)
        .consolidation(consolidation)
        .taskLearning(taskLearning)
        .exploreAfterFailures(exploreAfterFailures)
        .exploreBudget(exploreBudget)
        .maxMemories(maxMemories)
        .mergeScope(mergeScope)
        .gamma(gamma)
        .noteDepth(noteDepth);
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
    asMap().forEach((k, v) -> m.put(k, String.valueOf(v)));
    return m;
  }

  /**
   * The configuration {@link #toSettings()} wrote.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming a missing, unknown or bad knob
   */
  public static MemLoopConfig fromSettings(Map<String, String> settings) {
    Builder b = builder();
    java.util.Set<String> canonical = preset(Preset.DEFAULT).asMap().keySet();
    for (String knob : canonical) {
      String v = settings.getOrDefault(knob, LEGACY_SETTINGS.get(knob));
      if (v == null) {
        throw MemLoopException.invalid(knob, "is missing from the recorded settings");
      }
      b.set(knob, v);
    }
    for (String k : settings.keySet()) {
      if (!canonical.contains(k)) {
        throw MemLoopException.invalid(k, "unknown knob in the recorded settings (known: " + String.join(", ", canonical) + ")");
      }
    }
    return b.build();
  }

  /** The knobs whose values differ from {@code other}'s, as {@code knob: this -> other}. */
  public List<String> differences(MemLoopConfig other) {
    Map<String, Object> a = asMap();
    Map<String, Object> b = other.asMap();
    List<String> out = new ArrayList<>();
    a.forEach((k, v) -> {
      if (!v.equals(b.get(k))) {
        out.add(k + " " + v + " -> " + b.get(k));
      }
    });
    return out;
  }

  /** Every knob by name, for printing and for {@code stats --json}. */
  public Map<String, Object> asMap() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("k1", k1);
    m.put("k2", k2);
    m.put("similarityThreshold", similarityThreshold);
    m.put("lambda", lambda);
    m.put("alpha", alpha);
    m.put("rewardMin", rewardMin);
    m.put("rewardMax", rewardMax);
    m.put("qInitSuccess", qInitSuccess);
    m.put("qInitFailure", qInitFailure);
    m.put("qInitUnknown", qInitUnknown);
    m.put("qMin", qMin);
    m.put("mergeThreshold", mergeThreshold);
    m.put("exploration", exploration.name());
    m.put("epsilon", epsilon);
    m.put("similarityNormalization", similarityNormalization.name());
    m.put("simMean", simMean);
    m.put("simStd", simStd);
    m.put("retrievalTtl", retrievalTtl.toString());
    m.put("similarityScope", similarityScope.name());
    m.put("tieBreak", tieBreak.name());
    m.put("consolidation", consolidation.name());
    m.put("taskLearning", taskLearning.name());
    m.put("exploreAfterFailures", exploreAfterFailures);
    m.put("exploreBudget", exploreBudget);
    m.put("maxMemories", maxMemories);
    m.put("mergeScope", mergeScope.name());
    m.put("gamma", gamma);
    m.put("noteDepth", noteDepth.name());
    return m;
  }

  /** Fail-fast builder; {@link #build()} names the first invalid or conflicting knob. */
  public static final class Builder {
    private int k1;
    private int k2;
    private double similarityThreshold;
    private double lambda;
    private double alpha;
    private double rewardMin;
    private double rewardMax;
    private double qInitSuccess;
    private double qInitFailure;
    private double qInitUnknown;
    private double qMin;
    private double mergeThreshold;
    private Exploration exploration = Exploration.NONE;
    private double epsilon;
    private SimilarityNormalization similarityNormalization = SimilarityNormalization.POOL;
    private double simMean;
    private double simStd = 1;
    private Duration retrievalTtl = Duration.ofDays(7);
    private SimilarityScope similarityScope = SimilarityScope.INTENT_GROUP;
    private TieBreak tieBreak = TieBreak.OLDEST_FIRST;
    private Consolidation consolidation = Consolidation.NONE;
    private TaskLearning taskLearning = TaskLearning.OFF;
    private int exploreAfterFailures = 2;
    private int exploreBudget = 4;
    private long maxMemories;
    private MergeScope mergeScope = MergeScope.NEAREST;
    private double gamma;
    private NoteDepth noteDepth = NoteDepth.LEARNED;

    private Builder() {}

    public Builder k1(int v) { k1 = v; return this; }
    public Builder k2(int v) { k2 = v; return this; }
    public Builder similarityThreshold(double v) { similarityThreshold = v; return this; }
    public Builder lambda(double v) { lambda = v; return this; }
    public Builder alpha(double v) { alpha = v; return this; }
    public Builder rewardMin(double v) { rewardMin = v; return this; }
    public Builder rewardMax(double v) { rewardMax = v; return this; }
    /** Sets the same initial Q for every outcome. */
    public Builder qInit(double v) { qInitSuccess = v; qInitFailure = v; qInitUnknown = v; return this; }
    public Builder qInitSuccess(double v) { qInitSuccess = v; return this; }
    public Builder qInitFailure(double v) { qInitFailure = v; return this; }
    public Builder qInitUnknown(double v) { qInitUnknown = v; return this; }
    public Builder qMin(double v) { qMin = v; return this; }
    public Builder mergeThreshold(double v) { mergeThreshold = v; return this; }
    public Builder exploration(Exploration v) { exploration = v; return this; }
    /** Sets ε; a positive ε also switches exploration to ε-greedy, ε = 0 switches it off. */
    public Builder epsilon(double v) {
      epsilon = v;
      exploration = v > 0 ? Exploration.EPSILON_GREEDY : Exploration.NONE;
      return this;
    }
    public Builder similarityNormalization(SimilarityNormalization v) { similarityNormalization = v; return this; }
    public Builder simMean(double v) { simMean = v; return this; }
    public Builder simStd(double v) { simStd = v; return this; }
    public Builder retrievalTtl(Duration v) { retrievalTtl = v; return this; }
    public Builder similarityScope(SimilarityScope v) { similarityScope = v; return this; }
    public Builder tieBreak(TieBreak v) { tieBreak = v; return this; }
    public Builder consolidation(Consolidation v) { consolidation = v; return this; }
    public Builder taskLearning(TaskLearning v) { taskLearning = v; return this; }
    public Builder exploreAfterFailures(int v) { exploreAfterFailures = v; return this; }
    public Builder exploreBudget(int v) { exploreBudget = v; return this; }
    public Builder maxMemories(long v) { maxMemories = v; return this; }
    public Builder mergeScope(MergeScope v) { mergeScope = v; return this; }
    public Builder gamma(double v) { gamma = v; return this; }
    public Builder noteDepth(NoteDepth v) { noteDepth = v; return this; }

    /**
     * Sets a knob by its name in {@link #KNOBS}, parsing {@code value}. Durations take ISO-8601
     * ({@code PT1H}) or a number of seconds; enums are case-insensitive.
     */
    public Builder set(String knob, String value) {
      String v = value;
      switch (knob) {
        case "k1" -> k1(parseInt(knob, v));
        case "k2" -> k2(parseInt(knob, v));
        case "similarityThreshold", "delta" -> similarityThreshold(parseDouble(knob, v));
        case "lambda" -> lambda(parseDouble(knob, v));
        case "alpha" -> alpha(parseDouble(knob, v));
        case "rewardMin" -> rewardMin(parseDouble(knob, v));
        case "rewardMax" -> rewardMax(parseDouble(knob, v));
        case "qInit" -> qInit(parseDouble(knob, v));
        case "qInitSuccess" -> qInitSuccess(parseDouble(knob, v));
        case "qInitFailure" -> qInitFailure(parseDouble(knob, v));
        case "qInitUnknown" -> qInitUnknown(parseDouble(knob, v));
        case "qMin" -> qMin(parseDouble(knob, v));
        case "mergeThreshold" -> mergeThreshold(parseDouble(knob, v));
        case "exploration" -> exploration(parseEnum(Exploration.class, knob, v));
        case "epsilon" -> epsilon(parseDouble(knob, v));
        case "similarityNormalization" ->
            similarityNormalization(parseEnum(SimilarityNormalization.class, knob, v));
        case "simMean" -> simMean(parseDouble(knob, v));
        case "simStd" -> simStd(parseDouble(knob, v));
        case "retrievalTtl" -> retrievalTtl(parseDuration(knob, v));
        case "similarityScope" -> similarityScope(parseEnum(SimilarityScope.class, knob, v));
        case "tieBreak" -> tieBreak(parseEnum(TieBreak.class, knob, v));
        case "consolidation" -> consolidation(parseEnum(Consolidation.class, knob, v));
        case "taskLearning" -> taskLearning(parseEnum(TaskLearning.class, knob, v));
        case "exploreAfterFailures" -> exploreAfterFailures(parseInt(knob, v));
        case "exploreBudget" -> exploreBudget(parseInt(knob, v));
        case "maxMemories" -> maxMemories(parseInt(knob, v));
        case "mergeScope" -> mergeScope(parseEnum(MergeScope.class, knob, v));
        case "gamma" -> gamma(parseDouble(knob, v));
        case "noteDepth" -> noteDepth(parseEnum(NoteDepth.class, knob, v));
        default -> throw MemLoopException.invalid(knob, "unknown knob (known: " + String.join(", ", KNOBS) + ")");
      }
      return this;
    }

    public MemLoopConfig build() {
      return new MemLoopConfig(
          k1, k2, similarityThreshold, lambda, alpha, rewardMin, rewardMax, qInitSuccess, qInitFailure,
          qInitUnknown, qMin, mergeThreshold, exploration, epsilon, similarityNormalization, simMean,
          simStd, retrievalTtl, similarityScope, tieBreak, consolidation, taskLearning, exploreAfterFailures,
          exploreBudget, maxMemories, mergeScope, gamma, noteDepth);
    }

    private static int parseInt(String knob, String v) {
      if (!v.matches("[+-]?[0-9]+")) {
        throw MemLoopException.invalid(knob, "expected an integer, got '" + v + "'");
      }
      long n = v.length() > 12 ? Long.MAX_VALUE : Long.parseLong(v);
      if (n != (int) n) {
        throw MemLoopException.invalid(knob, "is out of range, got " + v);
      }
      return (int) n;
    }

    private static double parseDouble(String knob, String v) {
      return Checks.parseDecimal(v, knob);
    }

    private static <E extends Enum<E>> E parseEnum(Class<E> type, String knob, String v) {
      try {
        return Enum.valueOf(type, v.toUpperCase(Locale.ROOT).replace('-', '_'));
      } catch (IllegalArgumentException e) {
        throw MemLoopException.invalid(
            knob, "unknown value '" + v + "' (expected one of " + List.of(type.getEnumConstants()) + ")");
      }
    }

    private static Duration parseDuration(String knob, String v) {
      try {
        if (v.startsWith("P") || v.startsWith("p")) {
          return Duration.parse(v);
        }
        if (!v.matches("[0-9]{1,19}")) {
          throw new NumberFormatException(v);
        }
        return Duration.ofSeconds(Long.parseLong(v));
      } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
        throw MemLoopException.invalid(knob, "expected an ISO-8601 duration (PT1H) or seconds, got '" + v + "'");
      }
    }
  }
}
