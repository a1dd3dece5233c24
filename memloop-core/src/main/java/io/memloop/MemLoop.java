package io.memloop;

import io.memloop.embed.Embedder;
import io.memloop.policy.PoolEntry;
import io.memloop.policy.RankingSignal;
import io.memloop.policy.Selection;
import io.memloop.policy.SelectionPipeline;
import io.memloop.policy.TaskNote;
import io.memloop.policy.TaskView;
import io.memloop.store.Annotations;
import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import io.memloop.store.StoreCounts;
import io.memloop.store.UtilityUpdate;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The MemLoop engine: retrieve experiences for a task, reward the retrieval with the task's outcome,
 * remember new experiences.
 *
 * <pre>{@code
 * try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(384)).embedder(model).build()) {
 *   Retrieval r = loop.retrieve("team-a", Intent.ofText("book a flight to Oslo"));
 *   // ... show r.selected() experiences to the agent, run the task ...
 *   loop.reward("team-a", r.id(), success ? 1 : -1);
 *   loop.remember("team-a", Intent.ofText("book a flight to Oslo"), "what worked: ...", Outcome.SUCCESS);
 * }
 * }</pre>
 *
 * <p><b>Thread safety:</b> all methods may be called concurrently; the store serialises what must be
 * serialised (see {@link MemoryStore}). {@link #retrieve} and {@link #reward} may run in different
 * processes sharing a durable store, one at a time.
 *
 * <p>{@link #close()} closes the store and the embedder the engine was built with.
 */
public final class MemLoop implements AutoCloseable {
  private final MemoryStore store;
  private final @Nullable Embedder embedder;
  private final MemLoopConfig config;
  private final boolean configExplicit;
  private final boolean reconfigure;
  /** Each namespace's effective configuration, resolved against the store once per engine. */
  private final ConcurrentHashMap<String, MemLoopConfig> configs = new ConcurrentHashMap<>();
  private final InstantSource clock;
  private final SplittableRandom random;
  private final TaskLedger taskLedger;
  private final List<RankingSignal> rankingSignals;
  private final io.memloop.events.EventSink events;
  /** Namespaces whose configuration the event sink has been told. */
  private final java.util.Set<String> configReported = ConcurrentHashMap.newKeySet();

  /** What a retrieval recalled, for {@link MemLoopConfig.MergeScope#RETRIEVED}: its query and its best intent. */
  private record Recalled(float[] query, @Nullable String intentId, double similarity, List<Retention.Member> members) {}

  /** Namespace + newline + retrieval id → what it recalled; the newest {@code RETRIEVED_KEPT}. */
  private final Map<String, Recalled> recalled = recentRetrievals();

  /**
   * Namespace + newline + retrieval id of the retrievals whose hidden-attempt repeat has been counted, so that an
   * agent remembering the same repeat again does not count it again (see {@link #repeatedHiddenAttempt}).
   */
  private final Map<String, Boolean> repeatsCounted = recentRetrievals();

  /** A map keyed by namespace + newline + retrieval id that keeps the newest {@code RETRIEVED_KEPT} entries. */
  private static <V> Map<String, V> recentRetrievals() {
    return java.util.Collections.synchronizedMap(new java.util.LinkedHashMap<>(64, 0.75f, false) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
        return size() > MemLoopConfig.MergeScope.RETRIEVED_KEPT;
      }
    });
  }

  private MemLoop(Builder b) {
    this.store = Objects.requireNonNull(b.store, "store");
    this.embedder = b.embedder;
    this.config = b.config;
    this.configExplicit = b.configExplicit;
    this.reconfigure = b.reconfigure;
    this.clock = b.clock;
    this.random = new SplittableRandom(b.seed);
    this.taskLedger = new TaskLedger(store, b.embedder == null ? 1 : b.embedder.blocks(), true, b.learnInBackground);
    this.rankingSignals = List.copyOf(b.rankingSignals);
    this.events = b.events;
    if (embedder != null && embedder.dimension() != store.dimension()) {
      throw MemLoopException.invalid(
          "embedder",
          "produces " + embedder.dimension() + "-d vectors but the store holds " + store.dimension() + "-d vectors");
    }
    if (embedder != null) {
      requireModel(store, EmbeddingModel.of(embedder));
    }
  }

  /**
   * The model check of {@link Builder#build()}: a store with no model recorded adopts {@code model}; a store
   * recorded with another model is refused (CONFLICT naming {@code embedder}), since the similarity of vectors of
   * two models means nothing and a search would silently find nothing or noise.
   */
  private static void requireModel(MemoryStore store, EmbeddingModel model) {
    EmbeddingModel recorded = store.model().orElseGet(() -> store.recordModel(model));
    if (!recorded.equals(model)) {
      throw new MemLoopException(MemLoopException.Reason.CONFLICT, "embedder",
          "embedder: the store's vectors were made by model " + recorded + ", but the engine embeds with model "
              + model + "; open the store with the model it was made with, or copy it into a new store re-embedded "
              + "with this model (memloop migrate --re-embed)");
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The configuration this engine was built with (a namespace may have its own: {@link #config(String)}). */
  public MemLoopConfig config() {
    return config;
  }

  /**
   * The configuration {@code namespace} runs under. A store records each namespace's configuration
   * the first time an engine retrieves, rewards or remembers in it; later engines use the recorded
   * one. An engine built with an explicit {@link Builder#config} that differs from the recorded one
   * fails with CONFLICT naming the knobs, unless built with {@link Builder#reconfigure()}, which
   * records its configuration instead. Resolving records the engine's configuration for a namespace
   * that has none.
   *
   * @throws MemLoopException CONFLICT on a mismatch; STORE_CORRUPT if the recorded settings are unreadable
   */
  public MemLoopConfig config(String namespace) {
    Checks.requireNamespace(namespace);
    return configs.computeIfAbsent(namespace, this::resolveConfig);
  }

  /** The configuration recorded for {@code namespace}, without recording anything. */
  public Optional<MemLoopConfig> recordedConfig(String namespace) {
    Checks.requireNamespace(namespace);
    return store.settings(namespace).map(s -> parseSettings(namespace, s));
  }

  /**
   * What {@link #config(String)} will return for {@code namespace}, without recording anything; fails
   * the same way (CONFLICT, STORE_CORRUPT). For callers that validate a batch before any write.
   */
  public MemLoopConfig plannedConfig(String namespace) {
    Optional<MemLoopConfig> recorded = recordedConfig(namespace);
    if (recorded.isEmpty() || reconfigure) {
      return config;
    }
    if (configExplicit && !recorded.get().equals(config)) {
      throw new MemLoopException(MemLoopException.Reason.CONFLICT, "config",
          "config: namespace '" + namespace + "' is configured differently ("
              + String.join(", ", recorded.get().differences(config))
              + "); use the recorded configuration (give none), or replace it deliberately (CLI: --reconfigure)");
    }
    return recorded.get();
  }

  /**
   * Records {@code config} as {@code namespace}'s configuration, replacing what was recorded, and uses
   * it from the next call on (for services that let each tenant choose its preset and knobs). Pending
   * retrievals are rewarded under the new configuration's reward range and learning rate.
   *
   * @return the configuration now recorded
   */
  public MemLoopConfig configure(String namespace, MemLoopConfig config) {
    Checks.requireNamespace(namespace);
    Objects.requireNonNull(config, "config");
    // under the map's lock for this key, so a concurrent first resolution cannot record the old one after it
    configs.compute(namespace, (ns, old) -> {
      store.saveSettings(ns, config.toSettings());
      return config;
    });
    configReported.remove(namespace);
    reportConfig(namespace, config, clock.instant());
    return config;
  }

  private MemLoopConfig resolveConfig(String namespace) {
    MemLoopConfig planned = plannedConfig(namespace);
    if (!store.settings(namespace).map(s -> parseSettings(namespace, s)).filter(planned::equals).isPresent()) {
      store.saveSettings(namespace, planned.toSettings());
    }
    return planned;
  }

  private static MemLoopConfig parseSettings(String namespace, Map<String, String> settings) {
    try {
      return MemLoopConfig.fromSettings(settings);
    } catch (MemLoopException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "config",
          "config: the settings recorded for namespace '" + namespace + "' are unreadable: " + e.getMessage(), e);
    }
  }

  public MemoryStore store() {
    return store;
  }

  /**
   * Two-phase retrieval: Phase A keeps the top-k1 intents with cosine ≥ δ and pools every memory
   * grouped under them; Phase B selects k2 by similarity and utility (see {@link MemLoopConfig}). The
   * retrieval is recorded until rewarded or expired.
   */
  public Retrieval retrieve(String namespace, Intent intent) {
    Checks.requireNamespace(namespace);
    Checks.requireIntentLength(intent, "intent");
    float[] query = embeddingOf(intent);
    MemLoopConfig config = config(namespace);
    PhaseA a = phaseA(namespace, intent, query, config);
    List<IntentMatch> matches = a.matches();
    TaskView task = a.task();
    List<PoolEntry> pool = a.pool();
    SignalState signalState = a.signals();
    Selection selection;
    synchronized (random) {
      selection = signalState == null ? SelectionPipeline.select(pool, query, config, task, random)
          : SelectionPipeline.select(pool, query, config, task, random, signalState.task, rankingSignals, signalState.state);
    }
    Instant now = clock.instant();
    RetrievalRecord record =
        store.saveRetrieval(
            new RetrievalRecordDraft(
                namespace, now, now.plus(config.retrievalTtl()), selection.candidates(),
                selection.recorded()));
    if (signalState != null) {
      annotateAfter(namespace, pool, signalState, selection);
    }
    Retrieval retrieval = new Retrieval(record.id(), namespace, selection.candidates(), selection.selected());
    if (config.mergeScope() == MemLoopConfig.MergeScope.RETRIEVED) {
      IntentMatch best = matches.isEmpty() ? null : matches.getFirst();
      // the members are only for consolidation: not collected when it is off
      List<Retention.Member> members = best == null || config.consolidation() == MemLoopConfig.Consolidation.NONE ? List.of()
          : best.memories().stream().map(m -> Retention.Member.of(m, query)).toList();
      recalled.put(namespace + "\n" + record.id(), best == null ? new Recalled(query, null, Double.NEGATIVE_INFINITY, members)
          : new Recalled(query, best.intentId(), best.similarity(), members));
    }
    reportConfig(namespace, config, now);
    events.retrieved(namespace, now, intent, query, retrieval);
    return retrieval;
  }

  /**
   * Why {@link #retrieve} would select what it selects for {@code intent} now: the same recall and the same Phase B
   * steps ({@link SelectionPipeline#explain}), each candidate with its numbers, and what the agent would be shown
   * with no exploration drawn. Read-only: it saves no retrieval, records no configuration, changes no ledger,
   * annotation or utility, reports nothing to the event sink and draws nothing from the engine's randomness, so the
   * engine's next retrieval is the same as without it.
   *
   * @throws MemLoopException INVALID_ARGUMENT as {@link #retrieve} for a bad intent; CONFLICT as
   *     {@link #plannedConfig} when the namespace is configured otherwise
   */
  public Explanation explain(String namespace, Intent intent) {
    Checks.requireNamespace(namespace);
    Checks.requireIntentLength(intent, "intent");
    float[] query = embeddingOf(intent);
    MemLoopConfig config = configInEffect(namespace);
    PhaseA a = phaseA(namespace, intent, query, config);
    SignalState signals = a.signals();
    return signals == null
        ? SelectionPipeline.explain(a.pool(), query, config, a.task(), a.matches().size(), "", List.of(), new Annotations.Entry[0][])
        : SelectionPipeline.explain(a.pool(), query, config, a.task(), a.matches().size(), signals.task, rankingSignals, signals.state);
  }

  /**
   * What {@link #retrieve} and {@link #explain} read before Phase B: the recalled intents, what per-task learning
   * knows of the task (null when off), the candidate pool and the ranking signals' state (null without signals).
   */
  private record PhaseA(List<IntentMatch> matches, @Nullable TaskView task, List<PoolEntry> pool, @Nullable SignalState signals) {}

  private PhaseA phaseA(String namespace, Intent intent, float[] query, MemLoopConfig config) {
    boolean perTask = config.taskLearning().perTask();
    // a task with no record of its own may recall more intents (firstEncounterK1): recall the wider set, then keep
    // the top k1 once the view shows the task is known, so that a known task's retrieval is as without the knob
    boolean wider = SelectionPipeline.wideRecall(config);
    List<IntentMatch> matches =
        store.recall(namespace, query, wider ? config.firstEncounterK1() : config.k1(), config.similarityThreshold());
    TaskView task = perTask ? taskLedger.view(namespace, intent, query, matches, config) : null;
    List<PoolEntry> pool = PoolEntry.pool(query, matches, config.similarityScope());
    if (wider && matches.size() > config.k1() && !SelectionPipeline.firstEncounter(task, pool, query)) {
      // Recall order: the top k1 of the wider recall are the k1 recall, and their memories lead the pool
      matches = matches.subList(0, config.k1());
      int kept = 0;
      for (IntentMatch match : matches) {
        kept += match.memories().size();
      }
      pool = pool.subList(0, kept);
      if (config.taskLearning() == MemLoopConfig.TaskLearning.NEIGHBOURS) {
        // neighbours' evidence is weighed over the recalled intents; the task's own record of the pool reads the same
        task = taskLedger.view(namespace, intent, query, matches, config);
      }
    }
    SignalState signals = rankingSignals.isEmpty() ? null : signalState(namespace, intent, query, pool);
    return new PhaseA(matches, task, pool, signals);
  }

  /**
   * What per-task learning has learned in {@code namespace} ({@link MemLoopConfig.TaskLearning}): how exploring
   * episodes did against those that could have explored and did not, and how long failure notes shown whole did
   * against shortened ones, whether tasks come back, and with vectors of several models how much each model's
   * similarity is trusted. Read-only; all zero (rates and probability absent) when per-task learning is off or
   * nothing has been learned yet.
   */
  public Learned learned(String namespace) {
    Checks.requireNamespace(namespace);
    MemLoopConfig config = configInEffect(namespace);
    return config.taskLearning().perTask() ? taskLedger.learned(namespace, config) : Learned.NONE;
  }

  /** The configuration {@code namespace} runs under, without recording one (for read-only calls). */
  private MemLoopConfig configInEffect(String namespace) {
    MemLoopConfig resolved = configs.get(namespace);
    return resolved != null ? resolved : plannedConfig(namespace);
  }

  /** What the {@link RankingSignal}s know of one retrieval's pool: the task's key and each signal's annotations. */
  private record SignalState(String task, Map<String, Annotations> stored, Annotations.@Nullable Entry[][] state) {}

  private SignalState signalState(String namespace, Intent intent, float[] query, List<PoolEntry> pool) {
    List<String> ids = new ArrayList<>(pool.size());
    for (PoolEntry e : pool) {
      ids.add(e.id());
    }
    Map<String, Annotations> stored = store.annotations(namespace, ids);
    Annotations.@Nullable Entry[][] state = new Annotations.Entry[rankingSignals.size()][pool.size()];
    for (int s = 0; s < rankingSignals.size(); s++) {
      String name = rankingSignals.get(s).annotation();
      for (int i = 0; i < pool.size(); i++) {
        Annotations a = stored.get(pool.get(i).id());
        state[s][i] = a == null ? null : a.get(name).orElse(null);
      }
    }
    return new SignalState(TaskLedger.taskKey(intent, query), stored, state);
  }

  /** Writes back the annotations the ranking signals changed for the retrieval's pool (one store call). */
  private void annotateAfter(String namespace, List<PoolEntry> pool, SignalState signals, Selection selection) {
    java.util.Set<String> shown = new java.util.HashSet<>(selection.selectedIds());
    Map<String, Annotations> changed = new java.util.LinkedHashMap<>();
    for (int i = 0; i < pool.size(); i++) {
      PoolEntry e = pool.get(i);
      Annotations current = changed.getOrDefault(e.id(), signals.stored().getOrDefault(e.id(), Annotations.EMPTY));
      Annotations next = current;
      for (int s = 0; s < rankingSignals.size(); s++) {
        RankingSignal signal = rankingSignals.get(s);
        Annotations.Entry before = signals.state()[s][i];
        Annotations.Entry after = signal.after(signals.task(), e, before, shown.contains(e.id()));
        if (after != null && !after.equals(before)) {
          next = next.with(signal.annotation(), after.version(), after.data());
        }
      }
      if (next != current) {
        changed.put(e.id(), next);
      }
    }
    if (!changed.isEmpty()) {
      store.annotate(namespace, changed);
    }
  }

  /**
   * Rewards the memories retrieval {@code retrievalId} selected, each with the same episode reward
   * (MemRL eq. 5, Monte-Carlo form: Q ← Q + α(r − Q)). Durable on return; a retrieval can be
   * rewarded once.
   *
   * @throws MemLoopException INVALID_ARGUMENT for a non-finite or out-of-range reward, NOT_FOUND for
   *     an unknown retrieval, CONFLICT for one already rewarded or expired
   */
  public RewardResult reward(String namespace, String retrievalId, double reward) {
    return reward(namespace, retrievalId, reward, null);
  }

  /**
   * {@link #reward(String, String, double)}, telling which of the selected memories the agent actually
   * used. Utilities are updated as without it; per-task learning ({@link MemLoopConfig.TaskLearning})
   * credits the reward to the used memories. Without this report it assumes the agent followed the
   * highest-ranked success experience it was shown, as agents mostly act on the first applicable example.
   *
   * @param usedMemoryIds ids among the retrieval's selected memories; empty if the agent used none;
   *     {@code null} if unknown
   * @throws MemLoopException INVALID_ARGUMENT naming {@code usedMemoryIds} for an id the retrieval did
   *     not select, besides the failures of {@link #reward(String, String, double)}
   */
  public RewardResult reward(String namespace, String retrievalId, double reward, @Nullable List<String> usedMemoryIds) {
    return reward(namespace, retrievalId, reward, usedMemoryIds, null);
  }

  /**
   * {@link #reward(String, String, double, List)} for one step of a multi-step episode: a Bellman/TD reward
   * whose target is {@code reward + γ·V'}, where V' is the highest current utility among the memories the
   * episode's next retrieval {@code nextRetrievalId} selected (0 when it selected none that still exist) and
   * γ the namespace's {@code gamma}. Reward every step but the last this way, with the step's own reward
   * (often 0), and the last step plainly: the final outcome then flows back to the memories of earlier steps,
   * discounted by γ per step. With {@code gamma = 0} the next retrieval is checked and ignored.
   *
   * @param nextRetrievalId the episode's next retrieval (it may be rewarded already); null for a plain reward
   * @throws MemLoopException NOT_FOUND naming {@code nextRetrievalId} when the store holds no such retrieval,
   *     INVALID_ARGUMENT when it is this very retrieval, besides the failures of the plain reward
   */
  public RewardResult reward(String namespace, String retrievalId, double reward, @Nullable List<String> usedMemoryIds,
      @Nullable String nextRetrievalId) {
    return applyReward(planReward(namespace, retrievalId, reward, usedMemoryIds, nextRetrievalId));
  }

  /** A reward checked against everything but its retrieval's state, which {@link #applyReward} checks as it claims it. */
  private record RewardPlan(String namespace, String retrievalId, double reward, @Nullable List<String> usedMemoryIds,
      MemLoopConfig config, UtilityRule rule, double target) {}

  /** The checks of {@link #reward(String, String, double, List, String)} that come before any write, and its target. */
  private RewardPlan planReward(String namespace, String retrievalId, double reward, @Nullable List<String> usedMemoryIds,
      @Nullable String nextRetrievalId) {
    Checks.requireNamespace(namespace);
    Checks.requireNonBlank(retrievalId, "retrievalId");
    Checks.requireFinite(reward, "reward");
    MemLoopConfig config = config(namespace);
    if (reward < config.rewardMin() || reward > config.rewardMax()) {
      throw MemLoopException.invalid(
          "reward", "must be in [" + config.rewardMin() + ", " + config.rewardMax() + "], got " + reward);
    }
    UtilityRule rule = UtilityRule.of(config);
    double target = rule.target(reward, nextValue(namespace, retrievalId, nextRetrievalId));
    if (usedMemoryIds != null) {
      for (String id : usedMemoryIds) {
        Checks.requireNonBlank(id, "usedMemoryIds");
      }
    }
    return new RewardPlan(namespace, retrievalId, reward, usedMemoryIds, config, rule, target);
  }

  /** Claims the retrieval and updates utilities (nothing is written if the retrieval cannot be rewarded). */
  private RewardResult applyReward(RewardPlan plan) {
    String namespace = plan.namespace();
    String retrievalId = plan.retrievalId();
    double reward = plan.reward();
    List<String> usedMemoryIds = plan.usedMemoryIds();
    MemLoopConfig config = plan.config();
    UtilityRule rule = plan.rule();
    double target = plan.target();
    RewardOutcome outcome =
        store.applyReward(
            namespace,
            retrievalId,
            clock.instant(),
            new UtilityUpdate() {
              @Override
              public Utility apply(String id, Utility u) {
                return rule.update(u, target);
              }

              @Override
              public void check(RetrievalRecord retrieval) {
                if (usedMemoryIds != null) {
                  List<String> selected = retrieval.selectedIds();
                  for (String id : usedMemoryIds) {
                    if (!selected.contains(id)) {
                      throw MemLoopException.invalid("usedMemoryIds",
                          "'" + id + "' was not selected by retrieval '" + retrievalId + "' (selected: " + selected + ")");
                    }
                  }
                }
              }
            });
    return switch (outcome) {
      case RewardOutcome.Applied a -> {
        if (config.taskLearning().perTask() && !TaskNote.of(a.retrieval().annotations()).isNone()) {
          taskLedger.learn(namespace, a.retrieval(), reward, usedMemoryIds, config);
        }
        RewardResult result = new RewardResult(retrievalId, reward, a.changes(), target);
        Instant at = clock.instant();
        reportConfig(namespace, config, at);
        events.rewarded(namespace, at, result, usedMemoryIds);
        yield result;
      }
      case RewardOutcome.Unknown u ->
          throw new MemLoopException(
              MemLoopException.Reason.NOT_FOUND, "retrievalId",
              "retrievalId: no retrieval '" + retrievalId + "' in namespace '" + namespace + "'");
      case RewardOutcome.AlreadyRewarded a ->
          throw new MemLoopException(
              MemLoopException.Reason.CONFLICT, "retrievalId",
              "retrievalId: retrieval '" + retrievalId + "' was already rewarded at " + a.rewardedAt());
      case RewardOutcome.Expired e ->
          throw new MemLoopException(
              MemLoopException.Reason.CONFLICT, "retrievalId",
              "retrievalId: retrieval '" + retrievalId + "' expired at " + e.expiredAt()
                  + " (retrievalTtl=" + config.retrievalTtl() + ")");
    };
  }

  /** V' of a Bellman/TD reward: the highest current utility among what the next retrieval selected. */
  private java.util.OptionalDouble nextValue(String namespace, String retrievalId, @Nullable String nextRetrievalId) {
    if (nextRetrievalId == null) {
      return java.util.OptionalDouble.empty();
    }
    Checks.requireNonBlank(nextRetrievalId, "nextRetrievalId");
    if (nextRetrievalId.equals(retrievalId)) {
      throw MemLoopException.invalid("nextRetrievalId", "is the rewarded retrieval itself ('" + retrievalId + "')");
    }
    RetrievalRecord next = store.retrieval(namespace, nextRetrievalId).orElseThrow(() -> new MemLoopException(
        MemLoopException.Reason.NOT_FOUND, "nextRetrievalId",
        "nextRetrievalId: no retrieval '" + nextRetrievalId + "' in namespace '" + namespace + "'"));
    double best = Double.NEGATIVE_INFINITY;
    for (String id : next.selectedIds()) {
      Optional<Memory> m = store.get(namespace, id);
      if (m.isPresent()) {
        best = Math.max(best, m.get().q());
      }
    }
    return java.util.OptionalDouble.of(best == Double.NEGATIVE_INFINITY ? 0 : best);
  }

  /**
   * Stores an experience. Its initial utility comes from the config ({@code qInit*} by outcome); its
   * intent joins an existing intent group when their cosine is ≥ the merge threshold.
   *
   * <p>With {@link MemLoopConfig#maxMemories()} set, storing past the bound evicts the namespace's
   * lowest-utility memory (lowest Q, then fewest visits, then oldest), never the one just stored.
   *
   * <p>Under {@link MemLoopConfig.Consolidation#EXACT_DUPLICATES} (the default preset), an experience
   * whose text and outcome equal those of a memory of the group it would join is not stored again:
   * that memory is returned unchanged, with the utility it has learned. Consolidation is best-effort
   * under concurrency: two identical experiences remembered at the same instant may both be stored.
   *
   * @return the stored memory, or the existing one it duplicates
   */
  public Memory remember(String namespace, Intent intent, String experience, Outcome outcome) {
    return remember(namespace, intent, experience, outcome, null);
  }

  /**
   * As {@link #remember(String, Intent, String, Outcome)}, naming the retrieval whose episode produced this
   * experience. The link is not checked against the store (the retrieval may have expired); it goes to the
   * event log, where export pairs each rewarded retrieval with what the agent did (docs/event-log.md).
   *
   * @param retrievalId the episode's retrieval, or null when the experience comes from no retrieval
   */
  public Memory remember(String namespace, Intent intent, String experience, Outcome outcome, @Nullable String retrievalId) {
    return applyRemember(planRemember(namespace, intent, experience, outcome, retrievalId));
  }

  /** A remember checked and embedded, ready to store. */
  private record RememberPlan(String namespace, Intent intent, String experience, Outcome outcome,
      @Nullable String retrievalId, float[] embedding, MemLoopConfig config) {}

  /** The checks of {@link #remember(String, Intent, String, Outcome, String)} that come before any write. */
  private RememberPlan planRemember(String namespace, Intent intent, String experience, Outcome outcome,
      @Nullable String retrievalId) {
    Checks.requireNamespace(namespace);
    Checks.requireIntentLength(intent, "intent");
    if (retrievalId != null) {
      Checks.requireNonBlank(retrievalId, "retrievalId");
    }
    Checks.requireNonBlank(experience, "experience");
    Objects.requireNonNull(outcome, "outcome");
    float[] embedding = embeddingOf(intent);
    MemLoopConfig config = config(namespace);
    return new RememberPlan(namespace, intent, experience, outcome, retrievalId, embedding, config);
  }

  /** Stores a planned remember: consolidation, merge, eviction and events. */
  private Memory applyRemember(RememberPlan plan) {
    String namespace = plan.namespace();
    Intent intent = plan.intent();
    String experience = plan.experience();
    Outcome outcome = plan.outcome();
    String retrievalId = plan.retrievalId();
    float[] embedding = plan.embedding();
    MemLoopConfig config = plan.config();
    NewMemory fresh = new NewMemory(
        namespace, intent.optionalText().orElse(""), embedding, experience, outcome,
        config.initialQ(outcome), clock.instant());
    Memory stored;
    // mergeScope=RETRIEVED: the episode's retrieval already found the nearest intent for this very query
    Recalled episode = retrievalId == null || config.mergeScope() != MemLoopConfig.MergeScope.RETRIEVED ? null
        : recalled.remove(namespace + "\n" + retrievalId);
    if (episode != null && !java.util.Arrays.equals(episode.query(), embedding)) {
      episode = null; // another intent than the retrieval's: search
    }
    // where the memory goes (io.memloop.policy.Grouping): decided here, the store obeys
    String episodeJoins = episode == null ? null
        : io.memloop.policy.Grouping.join(episode.intentId(), episode.similarity(), config.mergeThreshold());
    boolean joins = episodeJoins != null;
    if (config.consolidation() != MemLoopConfig.Consolidation.NONE) {
      // one nearest-intent search (or the retrieval's) serves both consolidation and where the memory goes
      Retention.Decision decision;
      String nearestId;
      if (episode != null) {
        nearestId = episodeJoins;
        decision = Retention.decide(config.consolidation(), joins ? episode.members() : List.of(),
            id -> store.get(namespace, id), experience, outcome);
      } else {
        var nearest = store.recall(namespace, embedding, 1, config.mergeThreshold());
        nearestId = io.memloop.policy.Grouping.join(nearest, config.mergeThreshold());
        decision = Retention.decide(config.consolidation(), nearest.isEmpty() ? List.of() : nearest.getFirst().memories(),
            embedding, experience, outcome);
      }
      switch (decision) {
        case Retention.Duplicate d -> {
          if (retrievalId != null && outcome == Outcome.FAILURE && config.taskLearning().perTask()) {
            repeatedHiddenAttempt(namespace, retrievalId, d, config);
          }
          reportConfig(namespace, config, fresh.createdAt());
          events.remembered(namespace, fresh.createdAt(), d.existing(), true, retrievalId);
          return d.existing();
        }
        case Retention.Merge merge -> {
          return mergeFailure(merge, fresh, config, retrievalId);
        }
        case Retention.Store s -> stored = store.insert(fresh, config.mergeThreshold(), nearestId);
      }
    } else if (episode != null) {
      stored = store.insert(fresh, config.mergeThreshold(), episodeJoins);
    } else {
      stored = store.insert(fresh, config.mergeThreshold());
    }
    reportConfig(namespace, config, fresh.createdAt());
    events.remembered(namespace, fresh.createdAt(), stored, false, retrievalId);
    if (config.maxMemories() > 0) {
      evictBeyond(namespace, config.maxMemories(), stored.id());
    }
    return stored;
  }

  /**
   * Ends an episode in one call: {@link #reward(String, String, double, List, String)} of the episode's
   * retrieval, then {@link #remember(String, Intent, String, Outcome, String)} of the experience linked to that
   * retrieval, with exactly their effects (utilities, per-task learning, consolidation, merge, eviction, events),
   * made durable as one write ({@link MemoryStore#durablyTogether}: one fsync on {@code LuceneStore}, where a
   * crash before the return keeps both or neither).
   *
   * <p>Every argument is checked before anything is written: a bad reward, a blank experience, a missing
   * outcome, a bad intent, an unknown next retrieval, and a retrieval that is unknown, already rewarded,
   * expired or did not select a used id all fail with the error {@code reward} or {@code remember} gives, and
   * store nothing. (As with those calls, the namespace's configuration is recorded on its first use.)
   *
   * @return the reward's result and the stored memory (or the existing one it duplicates)
   */
  public EpisodeEnd endEpisode(String namespace, String retrievalId, double reward, @Nullable List<String> usedMemoryIds,
      @Nullable String nextRetrievalId, Intent intent, String experience, Outcome outcome) {
    Checks.requireNamespace(namespace);
    Checks.requireNonBlank(retrievalId, "retrievalId");
    Checks.requireFinite(reward, "reward");
    Checks.requireIntentLength(intent, "intent");
    Checks.requireNonBlank(experience, "experience");
    if (outcome == null) {
      throw MemLoopException.invalid("outcome", "is required");
    }
    RewardPlan rewardPlan = planReward(namespace, retrievalId, reward, usedMemoryIds, nextRetrievalId);
    RememberPlan rememberPlan = planRemember(namespace, intent, experience, outcome, retrievalId);
    // the reward writes first and throws before writing for a retrieval it cannot claim: then nothing is stored
    return store.durablyTogether(() -> {
      RewardResult rewarded = applyReward(rewardPlan);
      return new EpisodeEnd(rewarded, applyRemember(rememberPlan));
    });
  }

  /**
   * A failed attempt that repeats one its task's failure note already lists: if retrieval {@code retrievalId}
   * showed that note shortened to its newest k2 attempts (the note-depth draw) and the repeated attempt is one
   * it left out, the agent repeated a failure it was not shown, which counts against shortened notes in the
   * namespace's comparison ({@link TaskLedger#hiddenAttemptRepeated}), once per retrieval however often it is
   * remembered. Needs the remember to name its episode's retrieval.
   */
  private void repeatedHiddenAttempt(
      String namespace, String retrievalId, Retention.Duplicate repeat, MemLoopConfig config) {
    if (repeat.attempt() < config.k2()) {
      return; // among the newest k2, shown whatever the depth: nothing was hidden from the agent
    }
    store.retrieval(namespace, retrievalId)
        .filter(r -> TaskNote.of(r.annotations()).noteDepth() == TaskNote.NEWEST && r.selectedIds().contains(repeat.existing().id()))
        .filter(r -> repeatsCounted.putIfAbsent(namespace + "\n" + retrievalId, Boolean.TRUE) == null)
        .ifPresent(r -> taskLedger.hiddenAttemptRepeated(namespace));
  }

  /** Carries out a {@link Retention.Merge}: the merged note joins the old note's group with its utility, the old one goes. */
  private Memory mergeFailure(Retention.Merge merge, NewMemory fresh, MemLoopConfig config, @Nullable String retrievalId) {
    Memory note = merge.note();
    Memory stored = store.insert(
        new NewMemory(fresh.namespace(), fresh.intentText(), fresh.intentEmbedding(), merge.merged(), Outcome.FAILURE,
            note.q(), fresh.createdAt()),
        config.mergeThreshold(), note.intentId());
    reportConfig(fresh.namespace(), config, fresh.createdAt());
    events.remembered(fresh.namespace(), fresh.createdAt(), stored, false, retrievalId);
    if (store.delete(fresh.namespace(), note.id())) { // false if a concurrent merge or forget took it first
      events.forgot(fresh.namespace(), clock.instant(), note.id());
    }
    if (config.maxMemories() > 0) {
      evictBeyond(fresh.namespace(), config.maxMemories(), stored.id());
    }
    return stored;
  }

  private void evictBeyond(String namespace, long max, String keepId) {
    Retention.evictBeyond(store, namespace, max, keepId, clock, id -> events.forgot(namespace, clock.instant(), id));
  }

  /**
   * Stores memories an importer built (embedded, each with the utility the import gives it), all of
   * {@code namespace}, in one batch as {@link MemoryStore#insertAll} does (grouped by intent at the
   * namespace's merge threshold; no consolidation, no eviction), and reports each to the event sink as a
   * {@code remember}, so that this process's history holds what the store now holds (docs/event-log.md).
   * Durable on return, the events too.
   *
   * @return the stored memories, in the order given
   * @throws MemLoopException INVALID_ARGUMENT naming {@code intent} for an intent text over
   *     {@link Checks#MAX_INTENT_CHARS}, or naming {@code namespace} for a memory of another namespace
   */
  public List<Memory> importAll(String namespace, List<NewMemory> batch) {
    Checks.requireNamespace(namespace);
    for (NewMemory m : batch) {
      if (!m.namespace().equals(namespace)) {
        throw MemLoopException.invalid("namespace", "a memory of namespace '" + m.namespace() + "' in a batch of '" + namespace + "'");
      }
      Checks.intentLengthProblem(m.intentText()).ifPresent(p -> {
        throw MemLoopException.invalid("intent", p);
      });
    }
    if (batch.isEmpty()) {
      return List.of();
    }
    MemLoopConfig config = config(namespace);
    List<Memory> stored = store.insertAll(batch, config.mergeThreshold());
    Instant now = clock.instant();
    reportConfig(namespace, config, now);
    events.rememberedAll(namespace, now, stored);
    return stored;
  }

  /**
   * Deletes a memory (durable on return). Used by pruning policies (e.g. MemP's rule: drop a memory
   * once it has been used ≥ 3 times with a success rate below 0.5) and by users.
   *
   * @throws MemLoopException NOT_FOUND if the namespace has no such memory
   */
  public void forget(String namespace, String memoryId) {
    Checks.requireNamespace(namespace);
    Checks.requireNonBlank(memoryId, "memoryId");
    // docs/event-log.md: a namespace's configuration comes before its first event, a forget too; resolved
    // before the delete, so that a configuration conflict refuses the call instead of failing it half done
    MemLoopConfig config = events == io.memloop.events.EventSink.NONE ? null : config(namespace);
    if (!store.delete(namespace, memoryId)) {
      throw noSuchMemory(namespace, memoryId);
    }
    Instant now = clock.instant();
    if (config != null) {
      reportConfig(namespace, config, now);
    }
    events.forgot(namespace, now, memoryId);
  }

  /**
   * Replaces the experience text of a memory in place (a user correcting or completing a note): id, intent, intent
   * group, outcome, Q, visits and creation time stay; updated-at becomes now. Durable on return; reported to the
   * event sink as an {@code edit} (docs/event-log.md).
   *
   * @return the memory as now stored
   * @throws MemLoopException INVALID_ARGUMENT naming {@code experience} for a blank text, NOT_FOUND naming
   *     {@code memoryId} if the namespace has no such memory
   */
  public Memory edit(String namespace, String memoryId, String experience) {
    Checks.requireNamespace(namespace);
    Checks.requireNonBlank(memoryId, "memoryId");
    Checks.requireNonBlank(experience, "experience");
    // as forget: the configuration comes before the namespace's first event, resolved before the write
    MemLoopConfig config = events == io.memloop.events.EventSink.NONE ? null : config(namespace);
    Instant now = clock.instant();
    Memory edited = store.updateExperience(namespace, memoryId, experience, now)
        .orElseThrow(() -> noSuchMemory(namespace, memoryId));
    if (config != null) {
      reportConfig(namespace, config, now);
    }
    events.edited(namespace, now, edited);
    return edited;
  }

  private static MemLoopException noSuchMemory(String namespace, String memoryId) {
    return new MemLoopException(MemLoopException.Reason.NOT_FOUND, "memoryId",
        "memoryId: no memory '" + memoryId + "' in namespace '" + namespace + "'");
  }

  /**
   * One page of a namespace's memories that pass {@code query}'s filters, in its order (see {@link MemoryQuery}):
   * pass the page's {@link MemoryPage#next()} as {@link MemoryQuery#after()} for the next one. Pages are stable
   * under concurrent writes: a memory that exists throughout and whose sort key does not change appears exactly
   * once over all pages.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code after} for a cursor of another query, sort or namespace
   */
  public MemoryPage list(String namespace, MemoryQuery query) {
    Checks.requireNamespace(namespace);
    Objects.requireNonNull(query, "query");
    return store.search(namespace, query);
  }

  public Optional<Memory> get(String namespace, String memoryId) {
    Checks.requireNamespace(namespace);
    return store.get(namespace, memoryId);
  }

  /** Counts and the utility distribution of a namespace (scans its memories), and the store's embedding model. */
  public Stats stats(String namespace) {
    Checks.requireNamespace(namespace);
    StoreCounts counts = store.counts(namespace, clock.instant());
    io.memloop.store.MemorySummary sum = store.summary(namespace);
    return new Stats(
        namespace, counts.memories(), counts.intents(), counts.pendingRetrievals(), sum.successes(), sum.failures(),
        sum.meanQ(), sum.minQ(), sum.maxQ(), sum.totalVisits(), store.model().orElse(null));
  }

  /** Embeds many texts in one batch with the configured model (for callers that cache embeddings). */
  public List<float[]> embedAll(List<String> texts) {
    return requireEmbedder("intent.embedding").embedAll(texts);
  }

  private float[] embeddingOf(Intent intent) {
    float[] given = intent.embedding();
    if (given != null) {
      requireDimension(given.length, "intent.embedding");
      return Vectors.normalized(given, "intent.embedding");
    }
    String text = Objects.requireNonNull(intent.text());
    float[] v = requireEmbedder("intent.embedding").embed(text);
    requireDimension(v.length, "intent.embedding");
    return Vectors.normalized(v, "intent.embedding");
  }

  private Embedder requireEmbedder(String field) {
    if (embedder == null) {
      throw MemLoopException.invalid(field, "is required: no embedding model is configured");
    }
    return embedder;
  }

  private void requireDimension(int length, String field) {
    if (length != store.dimension()) {
      throw MemLoopException.invalid(
          field, "has " + length + " dimensions but the store holds " + store.dimension() + "-d vectors");
    }
  }

  /** Tells the event sink a namespace's configuration before its first event (and after a change). */
  private void reportConfig(String namespace, MemLoopConfig config, Instant at) {
    if (events != io.memloop.events.EventSink.NONE && configReported.add(namespace)) {
      events.configured(namespace, at, config, taskLedger.embedderBlocks());
    }
  }

  /**
   * Waits until the learning queued on the background thread so far has run ({@link Builder#learnInBackground}); returns
   * at once without one. For a caller that wants what the rewards so far taught before it reads or copies the store.
   */
  public void awaitLearning() {
    taskLedger.awaitBackground();
  }

  /** Lets background learning finish (up to a minute), then closes the event sink, the store and the embedder. */
  @Override
  public void close() {
    taskLedger.close();
    try {
      events.close();
    } catch (Exception e) {
      // the sink reports its own failures; closing the store matters more
    }
    try {
      store.close();
    } finally {
      if (embedder != null) {
        embedder.close();
      }
    }
  }

  /** Builder; only the store is required. */
  public static final class Builder {
    private @Nullable MemoryStore store;
    private @Nullable Embedder embedder;
    private MemLoopConfig config = MemLoopConfig.preset(Preset.DEFAULT);
    private boolean configExplicit;
    private boolean reconfigure;
    private InstantSource clock = InstantSource.system();
    private long seed = 0x5EED_ADD5L;
    private final List<RankingSignal> rankingSignals = new ArrayList<>();
    private io.memloop.events.EventSink events = io.memloop.events.EventSink.NONE;
    private boolean learnInBackground;

    private Builder() {}

    /**
     * Runs the refits of the learned similarity ({@link MemLoopConfig#similarityDirections()}) on a thread of the
     * engine's own, after the reward that triggers one returns, instead of inside it: a reward's latency no longer
     * includes a refit (about 11 ms at 384 dimensions and eight directions, one reward in 32), and the retrievals
     * made before the refit lands rank with the previous fit. {@link MemLoop#close()} waits for it;
     * {@link MemLoop#awaitLearning()} waits without closing. Off by default, because with it which retrieval first
     * ranks with a new fit depends on timing: the same seed and the same calls no longer make the same selections
     * (the benchmark and tests keep it off). {@code memloop serve} and {@code memloop mcp} turn it on.
     */
    public Builder learnInBackground() {
      this.learnInBackground = true;
      return this;
    }

    /**
     * Where to report every completed operation (an execution history, see {@link io.memloop.events.EventSink});
     * closed with the engine.
     */
    public Builder events(io.memloop.events.EventSink sink) {
      this.events = Objects.requireNonNull(sink, "events");
      return this;
    }

    public Builder store(MemoryStore store) {
      this.store = store;
      return this;
    }

    /**
     * The model that embeds intent texts; without one, every intent must carry an embedding. {@link #build()}
     * checks it against the model the store recorded ({@link MemoryStore#model()}): a store with none adopts this
     * one, a store recorded with another model is refused. Without a model nothing is checked or recorded: the
     * engine cannot tell which model made the embeddings its callers supply (only their dimension is checked).
     */
    public Builder embedder(@Nullable Embedder embedder) {
      this.embedder = embedder;
      return this;
    }

    /**
     * The configuration for namespaces the store has none recorded for; where it has one that
     * differs, the engine fails with CONFLICT (see {@link MemLoop#config(String)}). Without this
     * call the engine uses each namespace's recorded configuration, and {@link Preset#DEFAULT} for
     * new namespaces.
     */
    public Builder config(MemLoopConfig config) {
      this.config = Objects.requireNonNull(config, "config");
      this.configExplicit = true;
      return this;
    }

    /** Records the {@link #config} in every namespace this engine uses, replacing what was recorded. */
    public Builder reconfigure() {
      this.reconfigure = true;
      return this;
    }

    /** Clock for timestamps and retrieval expiry; tests inject a fixed or stepping one. */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Adds a ranking signal to Phase B ({@link RankingSignal}): it reorders the eligible candidates, after the
     * signals added before it, and keeps its state as an annotation on each memory. Without one, retrieval makes
     * no annotation reads or writes.
     *
     * @throws MemLoopException INVALID_ARGUMENT naming {@code rankingSignal} for an invalid annotation name or
     *     one another added signal owns
     */
    public Builder rankingSignal(RankingSignal signal) {
      Objects.requireNonNull(signal, "rankingSignal");
      String name = signal.annotation();
      try {
        Annotations.of(name, 0, new byte[0]);
      } catch (RuntimeException e) {
        throw MemLoopException.invalid("rankingSignal", "annotation name: " + e.getMessage());
      }
      for (RankingSignal other : rankingSignals) {
        if (other.annotation().equals(name)) {
          throw MemLoopException.invalid("rankingSignal", "annotation '" + name + "' is owned by another signal");
        }
      }
      rankingSignals.add(signal);
      return this;
    }

    /** Seed of the exploration randomness: same seed, same calls, same selections. */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /**
     * The engine. With an {@link #embedder}, the store must hold that model's vectors: a store that has no model
     * recorded records it now (a store made before models were recorded adopts the model it is first opened
     * with), a store recorded with another model is refused.
     *
     * @throws MemLoopException INVALID_ARGUMENT when no store is given or the model's dimension is not the
     *     store's; CONFLICT naming {@code embedder} when the store records another model (the message names both)
     */
    public MemLoop build() {
      if (store == null) {
        throw MemLoopException.invalid("store", "is required");
      }
      return new MemLoop(this);
    }
  }
}
