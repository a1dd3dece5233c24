package io.memloop;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The table of {@link MemLoopConfig}'s knobs: each one's name, type, bounds, value in every {@link Preset},
 * one line of documentation and the other knobs it can conflict with, stated once. The builder validates with
 * it, {@link MemLoopConfig#toSettings()} and {@link MemLoopConfig#fromSettings} speak its names, and the
 * command line's {@code --set}, the HTTP config endpoint and docs/configuration.md are generated from it.
 *
 * <p>The constants are in the order of {@link MemLoopConfig}'s record components (a test pins it); that order is
 * the order of settings, of {@code stats --json} and of the documentation.
 */
public enum Knob {
  K1(Spec.integer("k1", 1, MemLoopConfig.MAX_K1).is("5")
      .doc("Phase A: how many intents (by cosine) to keep."), MemLoopConfig::k1),
  K2(Spec.integer("k2", 1, MemLoopConfig.MAX_K2).is("3")
      .doc("Phase B: how many memories to select."), MemLoopConfig::k2),
  SIMILARITY_THRESHOLD(Spec.decimal("similarityThreshold", -1, 1).is("0.5").alias("delta")
      .doc("Phase A gate δ: intents with cosine below it are never candidates (depends on the embedding model)."),
      MemLoopConfig::similarityThreshold),
  LAMBDA(Spec.decimal("lambda", 0, 1).is("0").in(Preset.MEMRL, "0.5")
      .doc("Phase B mix λ: score = (1−λ)·norm(sim) + λ·norm(Q); 0 ranks by similarity only."), MemLoopConfig::lambda),
  ALPHA(Spec.decimal("alpha", 0, 1).is("0.3").in(Preset.SIMILARITY, "0")
      .doc("Learning rate α in Q ← Q + α(r − Q) (MemRL eq. 5); 0: utilities never move."), MemLoopConfig::alpha),
  REWARD_MIN(Spec.finite("rewardMin").is("-1").doc("Smallest accepted reward."), MemLoopConfig::rewardMin),
  REWARD_MAX(Spec.finite("rewardMax").is("1").doc("Largest accepted reward."), MemLoopConfig::rewardMax),
  Q_INIT_SUCCESS(Spec.finite("qInitSuccess").is("0").doc("Q of a new memory whose episode succeeded."),
      MemLoopConfig::qInitSuccess),
  Q_INIT_FAILURE(Spec.finite("qInitFailure").is("0").doc("Q of a new memory whose episode failed."),
      MemLoopConfig::qInitFailure),
  Q_INIT_UNKNOWN(Spec.finite("qInitUnknown").is("0").doc("Q of a new memory whose outcome is unknown."),
      MemLoopConfig::qInitUnknown),
  Q_MIN(Spec.decimal("qMin", Double.NEGATIVE_INFINITY, Double.MAX_VALUE).is("-10")
      .doc("Candidates with Q below it are dropped before selection."), MemLoopConfig::qMin),
  MERGE_THRESHOLD(Spec.decimal("mergeThreshold", -1, 1).is("0.9")
      .doc("A new memory whose intent has cosine ≥ this to an existing intent joins its group (depends on the model)."),
      MemLoopConfig::mergeThreshold),
  EXPLORATION(Spec.choice("exploration", MemLoopConfig.Exploration.class).is("NONE")
      .doc("Exploration policy of Phase B: NONE (always the greedy top-k2) or EPSILON_GREEDY (with probability "
          + "epsilon, a uniform k2-subset of the eligible pool)."), MemLoopConfig::exploration),
  EPSILON(Spec.decimal("epsilon", 0, 1).is("0")
      .doc("ε of ε-greedy: the probability of replacing the greedy top-k2 with a uniform draw; needs "
          + "exploration EPSILON_GREEDY."), MemLoopConfig::epsilon),
  SIMILARITY_NORMALIZATION(Spec.choice("similarityNormalization", MemLoopConfig.SimilarityNormalization.class)
      .is("POOL").in(Preset.MEMRL, "FIXED")
      .doc("How Phase B normalises similarity: POOL (z-score over the candidate pool) or FIXED "
          + "((sim − simMean) / simStd, as the MemRL reference code)."), MemLoopConfig::similarityNormalization),
  SIM_MEAN(Spec.decimal("simMean", -1, 1).is("0.5")
      .doc("Mean of FIXED normalisation (set it for your embedding model)."), MemLoopConfig::simMean),
  SIM_STD(Spec.decimal("simStd", MemLoopConfig.MIN_SIM_STD, 2).is("0.1")
      .doc("Standard deviation of FIXED normalisation; a tinier one would make scores infinite."),
      MemLoopConfig::simStd),
  RETRIEVAL_TTL(Spec.duration("retrievalTtl").is("PT168H")
      .doc("How long an unrewarded retrieval can still be rewarded (ISO-8601 such as PT1H, or seconds)."),
      MemLoopConfig::retrievalTtl),
  SIMILARITY_SCOPE(Spec.choice("similarityScope", MemLoopConfig.SimilarityScope.class).is("MEMORY")
      .in(Preset.MEMRL, "INTENT_GROUP").in(Preset.SIMILARITY, "INTENT_GROUP").before("INTENT_GROUP")
      .doc("What a candidate's similarity is the cosine to: its intent group's representative (INTENT_GROUP, "
          + "MemRL) or the memory's own intent (MEMORY)."), MemLoopConfig::similarityScope),
  TIE_BREAK(Spec.choice("tieBreak", MemLoopConfig.TieBreak.class).is("NEWEST_FIRST")
      .in(Preset.MEMRL, "OLDEST_FIRST").in(Preset.SIMILARITY, "OLDEST_FIRST").before("OLDEST_FIRST")
      .doc("The order of candidates whose scores and similarities tie."), MemLoopConfig::tieBreak),
  CONSOLIDATION(Spec.choice("consolidation", MemLoopConfig.Consolidation.class).is("MERGE_FAILURES")
      .in(Preset.MEMRL, "NONE").in(Preset.SIMILARITY, "NONE").before("NONE")
      .doc("What remember does with a repeated experience: NONE (store every one), EXACT_DUPLICATES (return the "
          + "stored one) or MERGE_FAILURES (also merge a task's failed attempts into one note)."),
      MemLoopConfig::consolidation),
  TASK_LEARNING(Spec.choice("taskLearning", MemLoopConfig.TaskLearning.class).is("ON")
      .in(Preset.MEMRL, "OFF").in(Preset.SIMILARITY, "OFF").before("OFF")
      .doc("Per-task credit, ranking and exploration for tasks that keep failing (ON); the same, and for memories a "
          + "task never used the evidence of the neighbouring tasks that used them, newest first (NEIGHBOURS); or "
          + "utilities only (OFF)."),
      MemLoopConfig::taskLearning),
  EXPLORE_AFTER_FAILURES(Spec.integer("exploreAfterFailures", 1, 1_000).is("2").before("2")
      .doc("Consecutive failures after which a task with no proven memory may explore."),
      MemLoopConfig::exploreAfterFailures),
  EXPLORE_BUDGET(Spec.integer("exploreBudget", 0, 1_000).is("4").before("4")
      .doc("Most explorations per task (0: never)."), MemLoopConfig::exploreBudget),
  MAX_MEMORIES(Spec.count("maxMemories", 0, MemLoopConfig.MAX_MEMORIES).is("0").before("0")
      .doc("Most memories a namespace keeps (0: no bound); past it remember evicts the lowest-utility memory."),
      MemLoopConfig::maxMemories),
  MERGE_SCOPE(Spec.choice("mergeScope", MemLoopConfig.MergeScope.class).is("RETRIEVED")
      .in(Preset.MEMRL, "NEAREST").in(Preset.SIMILARITY, "NEAREST").before("NEAREST")
      .doc("Where remember looks for the intent group a new memory joins: NEAREST (one nearest-intent search) or "
          + "RETRIEVED (the intents its episode's retrieval recalled)."), MemLoopConfig::mergeScope),
  GAMMA(Spec.decimal("gamma", 0, 1).is("0").before("0")
      .doc("Discount γ of a reward naming the episode's next retrieval: Q moves towards r + γ·max Q′ (0: "
          + "Monte-Carlo)."), MemLoopConfig::gamma),
  NOTE_DEPTH(Spec.choice("noteDepth", MemLoopConfig.NoteDepth.class).is("LEARNED").before("LEARNED")
      .doc("How much of a merged failure note listing more than k2 attempts a retrieval shows: LEARNED (by a "
          + "logged draw; needs taskLearning ON, else WHOLE), WHOLE or NEWEST (the newest k2)."),
      MemLoopConfig::noteDepth),
  FIRST_ENCOUNTER_K2(Spec.integer("firstEncounterK2", 0, MemLoopConfig.MAX_K2).is("8").in(Preset.MEMRL, "0")
      .in(Preset.SIMILARITY, "0").before("0")
      .doc("Phase B: how many memories a task's retrieval shows while the task has no record of its own (no use, "
          + "no failure, no exploration, no memory of its own intent in view; needs taskLearning ON), when more than "
          + "k2; 0: k2."),
      MemLoopConfig::firstEncounterK2),
  EXPLORE_BEYOND_BUDGET(Spec.decimal("exploreBeyondBudget", 0, 1).is("0.9").before("1")
      .doc("A task past exploreBudget explorations keeps exploring while the probability that exploring pays in "
          + "the namespace is above this (1: never past the budget; exploreBudget 0 still means never)."),
      MemLoopConfig::exploreBeyondBudget),
  FIRST_ENCOUNTER_K1(Spec.integer("firstEncounterK1", 0, MemLoopConfig.MAX_K1).is("32").in(Preset.MEMRL, "0")
      .in(Preset.SIMILARITY, "0").before("0")
      .doc("Phase A: how many intents a task's retrieval recalls while the task has no record of its own (as for "
          + "firstEncounterK2, which it needs above k2), when more than k1; 0: k1."),
      MemLoopConfig::firstEncounterK1),
  FRESHNESS(Spec.decimal("freshness", 0, 10).is("0.75").in(Preset.MEMRL, "0").in(Preset.SIMILARITY, "0").before("0")
      .doc("Phase B: for a task with no record of its own (as for firstEncounterK2; needs taskLearning ON), when a "
          + "success that has gone stale (it helped an episode that used it, and the last two that used it failed) is "
          + "among what it would be shown, or two are in its pool, newer memories rank higher: each score gains "
          + "freshness × (1 − the share of the namespace's rewarded retrievals made by a task rewarded before) × its "
          + "z-scored creation rank (0: never)."),
      MemLoopConfig::freshness),
  SIMILARITY_BLOCKS(Spec.integer("similarityBlocks", 0, io.memloop.policy.Blocks.MAX).is("0").before("0")
      .doc("Phase B: how many equal-size blocks each vector is the concatenation of, one per embedding model (2 for "
          + "--embedder minilm+hashing); 0: as many as the engine's embedder has (1 without one). With more than one "
          + "and taskLearning ON, each candidate's similarity is the blocks' cosines weighed by how well each block's "
          + "ranking has foretold the namespace's rewards; else the plain cosine."),
      MemLoopConfig::similarityBlocks),
  SIMILARITY_DIRECTIONS(Spec.integer("similarityDirections", 0, io.memloop.policy.Directions.MAX).is("8")
      .in(Preset.MEMRL, "0").in(Preset.SIMILARITY, "0").before("0")
      .doc("Phase B: with taskLearning ON and vectors of one block, rank by a similarity the namespace learns from its "
          + "rewards: the cosine after discounting this many directions in which the intents of a successful "
          + "episode's query and the memory it used differ most (wording that does not tell one kind of task from "
          + "another); refitted every " + io.memloop.policy.Directions.REFIT_EVERY + " successes from the latest "
          + io.memloop.policy.Directions.RING + " (0: the plain cosine)."),
      MemLoopConfig::similarityDirections),
  TEXT_SIMILARITY(Spec.choice("textSimilarity", MemLoopConfig.TextSimilarity.class).is("LEARNED")
      .in(Preset.MEMRL, "OFF").in(Preset.SIMILARITY, "OFF").before("OFF")
      .doc("Phase B: for a task with no record of its own (as for firstEncounterK2; needs taskLearning ON and vectors "
          + "of one block), LEARNED also compares the query's text with each candidate's intent text by the words, "
          + "word pairs and character trigrams they share, and ranks by the two similarities weighed by how well each "
          + "has foretold the namespace's rewards (equal until one stands two standard errors ahead; a query given "
          + "without text keeps the vectors' similarity); OFF: the vectors' similarity alone."),
      MemLoopConfig::textSimilarity),
  DOUBT(Spec.choice("doubt", MemLoopConfig.Doubt.class).is("NOTES_FIRST")
      .in(Preset.MEMRL, "OFF").in(Preset.SIMILARITY, "OFF").before("OFF")
      .doc("Phase B: for a task with no record of its own (as for firstEncounterK2; needs taskLearning ON), a success "
          + "experience whose latest use failed is doubted; LEARNED shows the doubted after every other eligible "
          + "candidate on a draw with the probability that doing so pays in the namespace (learned from the rewards of "
          + "both arms, the latest 256 or so weighing most, ½ before any) times the share of its rewarded retrievals "
          + "made by new tasks (as freshness), made only where the two orders would show different memories; "
          + "NOTES_FIRST: the same draw, but its arm shows every success experience after the failure notes, newer "
          + "first within each part (weight freshness × the share made by new tasks); OFF: doubted successes keep "
          + "their place."),
      MemLoopConfig::doubt),
  DIRECTIONS_USE(Spec.choice("directionsUse", MemLoopConfig.DirectionsUse.class).is("LEARNED")
      .in(Preset.MEMRL, "ALWAYS").in(Preset.SIMILARITY, "ALWAYS").before("ALWAYS")
      .doc("Phase B: for a task with no record of its own (as for firstEncounterK2), once the namespace has learned a "
          + "similarity (similarityDirections): ALWAYS ranks by it; LEARNED ranks by it on a draw with the probability "
          + "that it pays in the namespace (learned from the rewards of both arms, the latest 256 or so weighing most, "
          + "½ before any), else by the plain cosine, made only where the two would show different memories or the "
          + "same in another order."),
      MemLoopConfig::directionsUse),
  TEXT_ALONE(Spec.choice("textAlone", MemLoopConfig.TextAlone.class).is("LEARNED")
      .in(Preset.MEMRL, "NEVER").in(Preset.SIMILARITY, "NEVER").before("NEVER")
      .doc("Phase B: for a task with no record of its own where the namespace mixes in the texts' similarity "
          + "(textSimilarity LEARNED and a query with text): NEVER ranks by the learned mix of the vectors' and the "
          + "texts' similarities; LEARNED ranks by the texts' similarity alone on a draw with the probability that it "
          + "pays in the namespace (learned from the rewards of both arms, the latest 256 or so weighing most, ½ before "
          + "any) times the share of its rewarded retrievals made by new tasks (as doubt), else by the mix, made only "
          + "where the two would show different memories or the same in another order."),
      MemLoopConfig::textAlone);

  /** The kind of value a knob takes. */
  public enum Type {
    /** A whole number ({@code int}). */
    INTEGER("integer"),
    /** A whole number ({@code long}). */
    COUNT("integer"),
    /** A plain decimal number: {@code 1}, {@code -0.5}, {@code 1e-3}, {@code -Infinity}. */
    DECIMAL("decimal"),
    /** A duration: ISO-8601 ({@code PT1H}) or a number of seconds. */
    DURATION("duration"),
    /** One of the names of an enum, case-insensitive, {@code -} for {@code _}. */
    CHOICE("choice");

    private final String label;

    Type(String label) {
      this.label = label;
    }

    /** How the documentation names the type. */
    public String label() {
      return label;
    }
  }

  /**
   * Two knobs whose values can refuse each other. Checked when a configuration is built, whatever order the
   * knobs were set in; the message names both knobs, their values and the ways out.
   */
  public enum Conflict {
    /** Rewards are mapped onto [rewardMin, rewardMax]: the range must not be empty. */
    REWARD_RANGE(REWARD_MIN, REWARD_MAX, "rewardMin must be below rewardMax"),
    /** An ε that nothing draws with is a mistake, not a setting. */
    EPSILON_WITHOUT_EXPLORATION(EXPLORATION, EPSILON, "set exploration EPSILON_GREEDY or epsilon 0");

    private final Knob first;
    private final Knob second;
    private final String remedy;

    Conflict(Knob first, Knob second, String remedy) {
      this.first = first;
      this.second = second;
      this.remedy = remedy;
    }

    /** The knob the error is reported against. */
    public Knob first() {
      return first;
    }

    /** The knob it conflicts with. */
    public Knob second() {
      return second;
    }

    /** The rule, in words: what the user can do. */
    public String remedy() {
      return remedy;
    }

    boolean violated(Object a, Object b) {
      return switch (this) {
        case REWARD_RANGE -> !((double) a < (double) b);
        case EPSILON_WITHOUT_EXPLORATION -> a == MemLoopConfig.Exploration.NONE && (double) b > 0;
      };
    }

    /** The rule as documentation shows it: both knobs and the way out. */
    public String describe() {
      return switch (this) {
        case REWARD_RANGE -> "rewardMin must be below rewardMax";
        case EPSILON_WITHOUT_EXPLORATION -> "exploration NONE with epsilon > 0 is refused: " + remedy;
      };
    }

    MemLoopException error(Object a, Object b) {
      return MemLoopException.invalid(first.key, text(a) + " conflicts with " + second.key + "=" + text(b) + "; " + remedy);
    }
  }

  /**
   * A name that sets several knobs at once. A knob set by its own name keeps that value whatever the order:
   * {@code qInit=0.5, qInitFailure=-0.5} and {@code qInitFailure=-0.5, qInit=0.5} give the same configuration.
   */
  public enum Shorthand {
    Q_INIT("qInit", "Sets qInitSuccess, qInitFailure and qInitUnknown, except those set by their own name.",
        Q_INIT_SUCCESS, Q_INIT_FAILURE, Q_INIT_UNKNOWN);

    private final String key;
    private final String doc;
    private final List<Knob> knobs;

    Shorthand(String key, String doc, Knob... knobs) {
      this.key = key;
      this.doc = doc;
      this.knobs = List.of(knobs);
    }

    public String key() {
      return key;
    }

    public String doc() {
      return doc;
    }

    /** The knobs it sets. */
    public List<Knob> knobs() {
      return knobs;
    }

    static Optional<Shorthand> named(String key) {
      return Arrays.stream(values()).filter(s -> s.key.equals(key)).findFirst();
    }
  }

  private static final Pattern INTEGER = Pattern.compile("[+-]?[0-9]+");
  private static final Pattern SECONDS = Pattern.compile("[0-9]{1,19}");

  private final String key;
  private final Type type;
  private final double min;
  private final double max;
  private final @Nullable Class<? extends Enum<?>> choices;
  private final String defaultText;
  private final Map<Preset, String> presetText;
  private final @Nullable String legacy;
  private final @Nullable String alias;
  private final String doc;
  private final Function<MemLoopConfig, Object> accessor;

  Knob(Spec spec, Function<MemLoopConfig, Object> accessor) {
    this.key = spec.key;
    this.type = spec.type;
    this.min = spec.min;
    this.max = spec.max;
    this.choices = spec.choices;
    this.defaultText = spec.defaultText;
    this.presetText = Map.copyOf(spec.presetText);
    this.legacy = spec.legacy;
    this.alias = spec.alias;
    this.doc = spec.doc;
    this.accessor = accessor;
  }

  /** Its name in settings, {@code --set}, HTTP and the accessor of {@link MemLoopConfig}. */
  public String key() {
    return key;
  }

  public Type type() {
    return type;
  }

  /** One line of documentation. */
  public String doc() {
    return doc;
  }

  /** Another name {@link MemLoopConfig.Builder#set} accepts for it, if any. */
  public Optional<String> alias() {
    return Optional.ofNullable(alias);
  }

  /** The accepted values of a {@link Type#CHOICE}, else empty. */
  public List<String> choices() {
    return choices == null ? List.of() : Arrays.stream(choices.getEnumConstants()).map(Enum::name).toList();
  }

  /** The accepted values in words: {@code [1, 1000]}, {@code finite}, {@code NONE, EPSILON_GREEDY}. */
  public String bounds() {
    return switch (type) {
      case INTEGER, COUNT -> "[" + (long) min + ", " + (long) max + "]";
      case DECIMAL -> min == -Double.MAX_VALUE ? "finite"
          : min == Double.NEGATIVE_INFINITY ? "finite or -Infinity" : "[" + plain(min) + ", " + plain(max) + "]";
      case DURATION -> "(0, " + MemLoopConfig.MAX_RETRIEVAL_TTL_DAYS + " days]";
      case CHOICE -> String.join(", ", choices());
    };
  }

  /** Its value in {@code preset}, as settings write it. */
  public String defaultValue(Preset preset) {
    return text(parse(presetText.getOrDefault(preset, defaultText)));
  }

  /**
   * What settings recorded before this knob existed mean, as settings write it: the behaviour of the versions
   * that lacked it. Empty for knobs every recorded configuration has.
   */
  public Optional<String> legacyValue() {
    return Optional.ofNullable(legacy);
  }

  /** The conflicts this knob takes part in. */
  public List<Conflict> conflicts() {
    return Arrays.stream(Conflict.values()).filter(c -> c.first == this || c.second == this).toList();
  }

  /** Its value in {@code config}: a number, or the text of a choice or duration (as {@link MemLoopConfig#asMap}). */
  public Object value(MemLoopConfig config) {
    Object v = accessor.apply(config);
    return type == Type.CHOICE || type == Type.DURATION ? text(v) : v;
  }

  /** The knob named {@code name} (or its alias), if there is one. */
  public static Optional<Knob> named(String name) {
    for (Knob k : values()) {
      if (k.key.equals(name) || name.equals(k.alias)) {
        return Optional.of(k);
      }
    }
    return Optional.empty();
  }

  /** Every name {@link MemLoopConfig.Builder#set} accepts but aliases, in documentation order. */
  static List<String> names() {
    List<String> out = new ArrayList<>();
    for (Knob k : values()) {
      for (Shorthand s : Shorthand.values()) {
        if (s.knobs.get(0) == k) {
          out.add(s.key);
        }
      }
      out.add(k.key);
    }
    return List.copyOf(out);
  }

  /** Every knob's {@link #key()}, in table order (settings hold exactly these). */
  static Set<String> keys() {
    Set<String> out = new LinkedHashSet<>();
    for (Knob k : values()) {
      out.add(k.key);
    }
    return out;
  }

  /** Its raw value in {@code config}: the accessor's boxed value. */
  Object raw(MemLoopConfig config) {
    return accessor.apply(config);
  }

  /** {@code values[ordinal()]}. */
  Object in(Object[] values) {
    return values[ordinal()];
  }

  /**
   * {@code text} as this knob's value, checked against its bounds.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming this knob
   */
  Object parse(String text) {
    Object v = switch (type) {
      case INTEGER -> {
        long n = parseLong(text);
        if (n != (int) n) {
          throw MemLoopException.invalid(key, "is out of range, got " + text);
        }
        yield (int) n;
      }
      case COUNT -> parseLong(text);
      case DECIMAL -> Checks.parseDecimal(text, key);
      case DURATION -> parseDuration(text);
      case CHOICE -> parseChoice(text);
    };
    return check(v);
  }

  /**
   * {@code value} if it is of this knob's type and within its bounds.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming this knob
   */
  Object check(@Nullable Object value) {
    if (value == null) {
      throw MemLoopException.invalid(key, "must not be null");
    }
    switch (type) {
      case INTEGER -> Checks.requireInRange((int) value, (int) min, (int) max, key);
      case COUNT -> {
        long n = (long) value;
        if (n < min || n > max) {
          throw MemLoopException.invalid(key, "must be in " + bounds() + ", got " + n);
        }
      }
      case DECIMAL -> {
        double d = (double) value;
        if (min == -Double.MAX_VALUE) {
          Checks.requireFinite(d, key);
        } else if (min == Double.NEGATIVE_INFINITY) {
          if (Double.isNaN(d) || d == Double.POSITIVE_INFINITY) {
            throw MemLoopException.invalid(key, "must be a number or -Infinity, got " + d);
          }
        } else {
          Checks.requireInRange(d, min, max, key);
        }
      }
      case DURATION -> {
        Duration d = (Duration) value;
        if (d.isNegative() || d.isZero() || d.compareTo(MemLoopConfig.MAX_RETRIEVAL_TTL) > 0) {
          throw MemLoopException.invalid(
              key, "must be positive and at most " + MemLoopConfig.MAX_RETRIEVAL_TTL_DAYS + " days, got " + d);
        }
      }
      case CHOICE -> {
        if (!Objects.requireNonNull(choices).isInstance(value)) {
          throw MemLoopException.invalid(key, "expected one of " + choices() + ", got " + value);
        }
      }
    }
    return value;
  }

  /**
   * Checks every value (in {@link #values()} order) and then every {@link Conflict}.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming the first bad knob, or both knobs of a conflict
   */
  static void validate(Object[] values) {
    for (Knob k : values()) {
      k.check(k.in(values));
    }
    for (Conflict c : Conflict.values()) {
      Object a = c.first.in(values);
      Object b = c.second.in(values);
      if (c.violated(a, b)) {
        throw c.error(a, b);
      }
    }
  }

  /** Every knob's value in {@code preset}. */
  static Object[] presetValues(Preset preset) {
    Object[] v = new Object[values().length];
    for (Knob k : values()) {
      v[k.ordinal()] = k.parse(k.presetText.getOrDefault(preset, k.defaultText));
    }
    return v;
  }

  /** A value as settings write it. */
  static String text(Object value) {
    return value instanceof Enum<?> e ? e.name() : String.valueOf(value);
  }

  private static String plain(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private long parseLong(String text) {
    if (!INTEGER.matcher(text).matches()) {
      throw MemLoopException.invalid(key, "expected an integer, got '" + Checks.abbreviate(text) + "'");
    }
    if (text.length() > 12) {
      throw MemLoopException.invalid(key, "is out of range, got " + Checks.abbreviate(text));
    }
    return Long.parseLong(text);
  }

  private Duration parseDuration(String text) {
    try {
      if (text.startsWith("P") || text.startsWith("p")) {
        return Duration.parse(text);
      }
      if (!SECONDS.matcher(text).matches()) {
        throw new NumberFormatException(text);
      }
      return Duration.ofSeconds(Long.parseLong(text));
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw MemLoopException.invalid(
          key, "expected an ISO-8601 duration (PT1H) or seconds, got '" + Checks.abbreviate(text) + "'");
    }
  }

  private Object parseChoice(String text) {
    String name = text.toUpperCase(Locale.ROOT).replace('-', '_');
    for (Enum<?> e : Objects.requireNonNull(choices).getEnumConstants()) {
      if (e.name().equals(name)) {
        return e;
      }
    }
    throw MemLoopException.invalid(
        key, "unknown value '" + Checks.abbreviate(text) + "' (expected one of " + choices() + ")");
  }

  /** One row of the table while it is written: a small builder so each constant reads as a sentence. */
  private static final class Spec {
    final String key;
    final Type type;
    final double min;
    final double max;
    final @Nullable Class<? extends Enum<?>> choices;
    String defaultText = "";
    final Map<Preset, String> presetText = new EnumMap<>(Preset.class);
    @Nullable String legacy;
    @Nullable String alias;
    String doc = "";

    private Spec(String key, Type type, double min, double max, @Nullable Class<? extends Enum<?>> choices) {
      this.key = key;
      this.type = type;
      this.min = min;
      this.max = max;
      this.choices = choices;
    }

    static Spec integer(String key, int min, int max) {
      return new Spec(key, Type.INTEGER, min, max, null);
    }

    static Spec count(String key, long min, long max) {
      return new Spec(key, Type.COUNT, min, max, null);
    }

    static Spec decimal(String key, double min, double max) {
      return new Spec(key, Type.DECIMAL, min, max, null);
    }

    /** Any finite decimal. */
    static Spec finite(String key) {
      return new Spec(key, Type.DECIMAL, -Double.MAX_VALUE, Double.MAX_VALUE, null);
    }

    static Spec duration(String key) {
      return new Spec(key, Type.DURATION, 0, 0, null);
    }

    static Spec choice(String key, Class<? extends Enum<?>> choices) {
      return new Spec(key, Type.CHOICE, 0, 0, choices);
    }

    /** Its value in {@link Preset#DEFAULT} and in every preset not named by {@link #in}. */
    Spec is(String text) {
      defaultText = text;
      return this;
    }

    Spec in(Preset preset, String text) {
      presetText.put(preset, text);
      return this;
    }

    /** The value settings recorded before the knob existed stand for. */
    Spec before(String text) {
      legacy = text;
      return this;
    }

    Spec alias(String name) {
      alias = name;
      return this;
    }

    Spec doc(String text) {
      doc = text;
      return this;
    }
  }
}
