package io.memloop.policy;

import io.memloop.Candidate;
import io.memloop.Explanation;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.store.Annotations;
import io.memloop.store.IntentMatch;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Phase B of MemRL's two-phase retrieval (arXiv 2601.03192 §4.2) as a pipeline of named steps, each stating its
 * own order and tie rule: {@link Blocks} (with vectors of several models, the similarity as their cosines weighed by
 * what the namespace learned) and {@link TextChannel} (for a task with no record, the words of the texts too) →
 * {@link Score} (the normalised similarity/Q mix) → {@link TieBreak} (the greedy order)
 * → {@link QMinFilter} (the utility floor) → any {@link RankingSignal}s a user added → {@link Freshness} (newer first
 * where a success went stale, for a task with no record) → {@link TaskOrder} (per-task tiers and the exploring arm, only with a
 * {@link TaskView}) → {@link Explore} (ε-greedy and the inclusion probabilities) → {@link NoteDepth} (how much
 * of a long failure note is shown).
 *
 * <p>The same code serves the engine (a pool of stored memories) and offline selection (a logged pool of
 * {@link PoolEntry} values without memories). Randomness comes from the caller, drawn in this order:
 * {@link TaskOrder}'s exploring draw, then {@link Explore}'s, then {@link NoteDepth}'s; each only when it can
 * matter, so a greedy configuration without per-task learning draws nothing.
 *
 * <p>Stateless and thread-safe (a caller sharing one {@link RandomGenerator} synchronises on it).
 */
public final class SelectionPipeline {
  private SelectionPipeline() {}

  /**
   * Phase B over Phase A's {@code matches} ({@link PoolEntry#pool}).
   *
   * @param task what per-task learning knows of the asking task; null when it is off
   */
  public static Selection select(
      float[] query, List<IntentMatch> matches, MemLoopConfig config, @Nullable TaskView task, RandomGenerator random) {
    return select(PoolEntry.pool(query, matches, config.similarityScope()), query, config, task, random);
  }

  /**
   * Phase B over {@code pool}, in the store's order (a group's memories oldest first): the order
   * {@link MemLoopConfig.TieBreak#OLDEST_FIRST} keeps ties in.
   *
   * @param query the query's embedding ({@link TaskOrder}'s same-intent test; unused without a task)
   * @param task what per-task learning knows of the asking task; null when it is off
   */
  public static Selection select(
      List<PoolEntry> pool, float[] query, MemLoopConfig config, @Nullable TaskView task, RandomGenerator random) {
    return select(pool, query, config, task, random, "", List.of(), new Annotations.Entry[0][]);
  }

  /**
   * Phase B over {@code pool} with added {@link RankingSignal ranking signals}, which reorder the eligible
   * candidates, in the order given, after {@link QMinFilter} and before {@link TaskOrder}.
   *
   * @param taskKey the asking task's key, for the signals
   * @param state by signal, then by pool index: the memory's annotation of that signal (null if none)
   */
  public static Selection select(List<PoolEntry> pool, float[] query, MemLoopConfig config, @Nullable TaskView task,
      RandomGenerator random, String taskKey, List<RankingSignal> signals, Annotations.@Nullable Entry[][] state) {
    if (pool.isEmpty()) {
      return Selection.EMPTY;
    }
    Ranked ranked = rank(pool, query, config, task, random, taskKey, signals, state);
    int n = pool.size();
    double[] sim = ranked.sim();
    double[] q = ranked.q();
    double[] score = ranked.scored().score();
    int[] order = ranked.order();
    int m = ranked.m();
    TaskOrder.Result learned = ranked.learned();
    TaskNote note = learned == null ? TaskNote.NONE : learned.note();
    int take = ranked.take();
    boolean[] greedy = ranked.greedy();
    double[] greedyP = ranked.greedyP();
    double epsilon = Explore.epsilon(config);
    boolean[] chosen = Explore.draw(order, m, take, greedy, epsilon, random);
    if (chosen != greedy && !note.explored().isEmpty()) { // the uniform draw replaced the exploration
      note = new TaskNote(note.context(), "", note.explorable());
    }
    double uniformShare = Explore.uniformShare(take, m);
    List<Candidate> candidates = new ArrayList<>(n);
    List<Memory> selected = new ArrayList<>(take);
    List<double[]> selectedZ = new ArrayList<>(take);
    List<double[]> selectedText = new ArrayList<>(take);
    PoolEntry firstSuccess = null; // the first selected success experience, in the order shown
    for (int r = 0; r < m; r++) {
      int i = order[r];
      PoolEntry e = pool.get(i);
      double p = Explore.inclusion(epsilon, greedyP[i], uniformShare);
      candidates.add(new Candidate(e.id(), sim[i], q[i], score[i], chosen[i], p));
      if (chosen[i]) {
        if (ranked.blockZ() != null) {
          selectedZ.add(ranked.blockZ()[i]);
        }
        if (ranked.textZ() != null) {
          selectedText.add(ranked.textZ()[i]);
        }
        if (e.memory() != null) {
          selected.add(e.memory());
        }
        if (firstSuccess == null && e.outcome() == Outcome.SUCCESS) {
          firstSuccess = e;
        }
      }
    }
    for (int r = m; r < n; r++) {
      int i = order[r];
      candidates.add(new Candidate(pool.get(i).id(), sim[i], q[i], score[i], false, 0));
    }
    if (task != null && firstSuccess != null) {
      note = note.withAssumedUsed(firstSuccess.id());
    }
    int drawn = NoteDepth.apply(selected, config, task, random);
    if (task != null) {
      note = note.withNoteDepth(drawn);
    }
    Annotations kept = ranked.blockZ() == null ? Annotations.EMPTY
        : Blocks.into(Annotations.EMPTY, selectedZ, task.blockWeights().length);
    if (task != null && Directions.on(config, task.blockWeights().length)) { // the reward learns from the query
      kept = Directions.withQuery(kept, query);
    }
    if (ranked.textZ() != null) {
      kept = TextChannel.into(kept, selectedText);
    }
    if (ranked.doubtArm() != Doubt.NO_DRAW) {
      kept = Doubt.into(kept, ranked.doubtArm());
    }
    if (ranked.directionsArm() != DirectionsUse.NO_DRAW) {
      kept = DirectionsUse.into(kept, ranked.directionsArm());
    }
    if (ranked.textArm() != TextAlone.NO_DRAW) {
      kept = TextAlone.into(kept, ranked.textArm());
    }
    return new Selection(candidates, selected, note, kept);
  }

  /**
   * What {@link #select} and {@link #explain} share: steps 1-4 (score, greedy order, utility floor, ranking
   * signals, per-task order) over the pool, by pool index.
   *
   * @param order pool indices in the order shown: {@code order[0..m)} eligible, then the dropped ones
   * @param take how many of the eligible are selected when exploration keeps the greedy selection
   * @param greedy by pool index: in the greedy selection ({@code order[0..take)})
   * @param greedyP by pool index: the chance of being in the greedy selection, over {@link TaskOrder}'s draw
   * @param firstEncounter whether the task is shown {@link MemLoopConfig#firstEncounterK2()} for having no record
   * @param stale the stale success that made {@link Freshness} reorder the eligible; null when it did not
   * @param blockZ by pool index, each block's z-scored cosine ({@link Blocks}); null when vectors are not split
   * @param textZ by pool index, the z-scored vectors' and texts' similarity ({@link TextChannel}); null when not mixed
   * @param doubtArm the arm {@link Doubt} drew, or {@link Doubt#NO_DRAW}
   * @param directionsArm the arm {@link DirectionsUse} drew, or {@link DirectionsUse#NO_DRAW}
   * @param textArm the arm {@link TextAlone} drew, or {@link TextAlone#NO_DRAW}
   */
  private record Ranked(double[] sim, double[] q, Score.Scored scored, int[] order, int m,
      TaskOrder.@Nullable Result learned, int take, boolean[] greedy, double[] greedyP, boolean firstEncounter,
      @Nullable PoolEntry stale, double @Nullable [][] blockZ, double @Nullable [][] textZ, int doubtArm,
      int directionsArm, int textArm) {

    /** This ranking as one arm of {@link DirectionsUse}'s draw: {@code arm} drawn, chances over both arms. */
    Ranked asArm(int arm, double[] mixedP) {
      return new Ranked(sim, q, scored, order, m, learned, take, greedy, mixedP, firstEncounter, stale, blockZ, textZ,
          doubtArm, arm, textArm);
    }

    /** This ranking as one arm of {@link TextAlone}'s draw: {@code arm} drawn, chances over both arms. */
    Ranked asTextArm(int arm, double[] mixedP) {
      return new Ranked(sim, q, scored, order, m, learned, take, greedy, mixedP, firstEncounter, stale, blockZ, textZ,
          doubtArm, directionsArm, arm);
    }

    /** Whether ranking again with a real random source could give another order: this ranking holds a draw. */
    boolean draws() {
      return doubtArm != Doubt.NO_DRAW || directionsArm != DirectionsUse.NO_DRAW;
    }
  }

  /**
   * A task with no record of its own: it never used a memory, never failed, never explored, and no memory of its own
   * intent (the same task, remembered without a retrieval, or imported) is in the pool. Such a task is shown
   * {@link MemLoopConfig#firstEncounterK2()} memories, recalled from {@link MemLoopConfig#firstEncounterK1()} intents.
   *
   * @param pool the candidate pool
   * @param query the task's query embedding
   */
  public static boolean firstEncounter(TaskView task, List<PoolEntry> pool, float[] query) {
    if (!task.noRecord()) {
      return false;
    }
    for (PoolEntry e : pool) {
      if (TaskOrder.sameIntent(query, e)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Phase B's ranking: for a task with no record of its own whose query has text, in a namespace that draws
   * ({@link TextAlone}), by the texts' similarity alone or by the vectors' ranking ({@link #rankByVectors}), as
   * {@link #drawBetween} draws; else by the vectors' ranking.
   */
  private static Ranked rank(List<PoolEntry> pool, float[] query, MemLoopConfig config, @Nullable TaskView task,
      RandomGenerator random, String taskKey, List<RankingSignal> signals, Annotations.@Nullable Entry[][] state) {
    boolean first = task != null && firstEncounter(task, pool, query);
    PoolSimilarities memo = new PoolSimilarities(pool, query, task);
    if (!first || !TextAlone.on(config) || !TextChannel.active(task)) {
      return rankByVectors(pool, query, config, task, random, taskKey, signals, state, first, memo);
    }
    double p = task.textAloneProbability();
    Drawn drawn = drawBetween(r -> rankByVectors(pool, query, config, task, r, taskKey, signals, state, true, memo),
        r -> rank(pool, query, config, task, r, taskKey, signals, state, true, false, true, memo), p, 1 - p, random);
    return drawn.other() == null ? drawn.chosen()
        : drawn.chosen().asTextArm(drawn.other() ? TextAlone.ALONE : TextAlone.MIXED, drawn.chances());
  }

  /**
   * What {@link #drawBetween} made: the ranking shown; whether the draw took the other arm (null: the two arms would
   * show the same, and no draw was made); by pool index, each candidate's chance over both arms (null without a draw).
   */
  private record Drawn(Ranked chosen, @Nullable Boolean other, double @Nullable [] chances) {}

  /**
   * One of the namespace-level two-armed draws over whole rankings ({@link DirectionsUse}, {@link TextAlone}): ranks
   * the pool by each arm without drawing; where the two would show the same memories in the same order, the first arm
   * ranks with {@code random}, with no draw; else one {@code nextDouble} below {@code pOther} takes the other arm (so a
   * source that never draws keeps the first), and the arm taken ranks again with {@code random} only when its ranking
   * draws inside (doubt). The candidates' chances are {@code pFirst · first + pOther · other}.
   *
   * @param first ranks the pool by the arm a source that never draws keeps, with the random source given
   * @param other ranks it by the other arm
   */
  private static Drawn drawBetween(Function<RandomGenerator, Ranked> first,
      Function<RandomGenerator, Ranked> other, double pOther, double pFirst, RandomGenerator random) {
    Ranked a = first.apply(NO_DRAW);
    Ranked b = other.apply(NO_DRAW);
    if (!Arms.differ(a.order(), a.take(), a.greedyP(), b.order(), b.take(), b.greedyP())) {
      return new Drawn(drawsAgain(a, random) ? first.apply(random) : a, null, null);
    }
    boolean useOther = random.nextDouble() < pOther;
    Ranked probe = useOther ? b : a;
    Ranked chosen = drawsAgain(probe, random) ? (useOther ? other : first).apply(random) : probe;
    double[] chances = new double[a.greedyP().length];
    for (int i = 0; i < chances.length; i++) {
      chances[i] = pFirst * a.greedyP()[i] + pOther * b.greedyP()[i];
    }
    return new Drawn(chosen, useOther, chances);
  }

  /** Whether ranking again with {@code random} could change {@code probe}, ranked without drawing: it holds a draw. */
  private static boolean drawsAgain(Ranked probe, RandomGenerator random) {
    return random != NO_DRAW && probe.draws();
  }

  /**
   * A ranking by the vectors' similarity (mixed with the texts' as the namespace learned, for a first encounter): by
   * the learned similarity, or, for a task with no record of its own in a namespace that draws ({@link DirectionsUse}),
   * by the arm drawn where the two arms would show different memories or the same in another order.
   */
  private static Ranked rankByVectors(List<PoolEntry> pool, float[] query, MemLoopConfig config,
      @Nullable TaskView task, RandomGenerator random, String taskKey, List<RankingSignal> signals,
      Annotations.@Nullable Entry[][] state, boolean first, PoolSimilarities memo) {
    if (!first || !DirectionsUse.on(config) || !learnedSimilarity(task, query) || Blocks.active(task, query)) {
      return rank(pool, query, config, task, random, taskKey, signals, state, first, true, false, memo);
    }
    double p = task.directionsProbability();
    Drawn drawn = drawBetween(r -> rank(pool, query, config, task, r, taskKey, signals, state, true, true, false, memo),
        r -> rank(pool, query, config, task, r, taskKey, signals, state, true, false, false, memo), 1 - p, p, random);
    return drawn.other() == null ? drawn.chosen()
        : drawn.chosen().asArm(drawn.other() ? DirectionsUse.COSINE : DirectionsUse.LEARNED, drawn.chances());
  }

  /**
   * Steps 0-4 of Phase B over the pool.
   *
   * @param first whether the task is a first encounter ({@link #firstEncounter}), told once per retrieval
   * @param byLearnedSimilarity whether the similarity the namespace learned ranks, where it has one ({@link Directions})
   * @param textsAlone whether the texts' similarity alone ranks a first encounter ({@link TextAlone}), where the
   *     namespace mixes it in; else the learned mix
   * @param memo the pool's similarities that do not depend on the arm, shared by every pass of this retrieval
   */
  private static Ranked rank(List<PoolEntry> pool, float[] query, MemLoopConfig config, @Nullable TaskView task,
      RandomGenerator random, String taskKey, List<RankingSignal> signals, Annotations.@Nullable Entry[][] state,
      boolean first, boolean byLearnedSimilarity, boolean textsAlone, PoolSimilarities memo) {
    int n = pool.size();
    double[] sim = new double[n];
    double[] q = new double[n];
    for (int i = 0; i < n; i++) {
      PoolEntry e = pool.get(i);
      sim[i] = e.similarity();
      q[i] = e.q();
    }
    double[][] blockZ = null;
    if (Blocks.active(task, query)) {
      int blocks = task.blockWeights().length;
      double[][] cos = Blocks.cosines(query, pool, blocks);
      sim = Blocks.mix(cos, task.blockWeights());
      blockZ = Blocks.zScores(cos, blocks);
    } else if (byLearnedSimilarity && learnedSimilarity(task, query)) {
      sim = memo.learned(sim);
    }
    double[][] textZ = null;
    if (first && TextChannel.active(task)) { // a task with no record: the texts' words too, as the namespace learned
      double[][] two = TextChannel.similarities(memo.lexical(), sim);
      sim = Blocks.mix(two, textsAlone ? TextAlone.ALONE_WEIGHTS : task.textWeights());
      textZ = Blocks.zScores(two, TextChannel.CHANNELS);
    }
    Score.Scored scored = Score.scored(sim, q, config);
    int[] order = TieBreak.order(scored.score(), sim, pool, config.tieBreak());
    int m = QMinFilter.apply(order, q, config.qMin()); // order[0..m) eligible, order[m..n) dropped
    for (int s = 0; s < signals.size(); s++) {
      RankingSignal.reorderChecked(signals.get(s), taskKey, pool, state[s], order, m);
    }
    PoolEntry stale = null;
    double freshness = first ? Freshness.weight(config, task) : 0;
    if (freshness > 0) {
      stale = Freshness.stale(pool, order, m, config.shownAtMost(), task);
      if (stale != null) {
        Freshness.reorder(pool, order, m, scored.score(), freshness);
      }
    }
    TaskOrder.Result learned = task == null ? null : TaskOrder.apply(query, pool, order, m, config.k2(), task, config, random);
    int take = learned == null ? Math.min(config.k2(), m) : learned.take();
    boolean wide = first && config.firstEncounterK2() > take;
    if (wide) {
      take = Math.min(config.firstEncounterK2(), m); // no evidence of its own yet: show more of the greedy order
    }
    int doubtArm = Doubt.NO_DRAW;
    double[] doubtP = null; // by pool index, the chance of being shown over the doubt's draw
    if (first && Doubt.on(config) && learned.inclusion() == null) { // a first encounter has a view, so an order
      boolean notesFirst = Doubt.notesFirst(config);
      int[] demoted = Doubt.demoted(pool, order, m, task.doubted(), notesFirst);
      if (demoted != null && Doubt.differ(order, demoted, take)) {
        if (notesFirst && Doubt.newerFirstOnArm(stale, freshness)) {
          Doubt.newerFirstInParts(pool, demoted, m, scored.score(), freshness); // the arm as shown, for its chances
        }
        double p = task.doubtProbability();
        doubtP = new double[n];
        for (int r = 0; r < take; r++) {
          doubtP[order[r]] += 1 - p;
          doubtP[demoted[r]] += p;
        }
        // a randomised, logged choice: each arm's record in the namespace is of like episodes
        boolean demote = random.nextDouble() < p;
        if (demote) {
          System.arraycopy(demoted, 0, order, 0, n);
        }
        doubtArm = demote ? Doubt.DEMOTED : Doubt.KEPT;
      }
    }
    boolean[] greedy = new boolean[n];
    for (int r = 0; r < take; r++) {
      greedy[order[r]] = true;
    }
    double[] greedyP = learned != null && learned.inclusion() != null ? learned.inclusion()
        : doubtP != null ? doubtP : toProbability(greedy);
    return new Ranked(sim, q, scored, order, m, learned, take, greedy, greedyP, wide, stale, blockZ, textZ, doubtArm,
        DirectionsUse.NO_DRAW, TextAlone.NO_DRAW);
  }

  /**
   * Why {@link #select} would select what it selects from {@code pool}: the same steps, run with no draw (the
   * per-task exploring arm and ε-greedy's uniform subset are not drawn, the note depth is not drawn), each
   * candidate with its numbers and its inclusion probability over the draws a retrieval would make. Reads
   * nothing but its arguments and draws no randomness.
   *
   * @param recalledIntents how many intent groups Phase A recalled for the pool
   */
  public static Explanation explain(List<PoolEntry> pool, float[] query, MemLoopConfig config, @Nullable TaskView task,
      int recalledIntents, String taskKey, List<RankingSignal> signals, Annotations.@Nullable Entry[][] state) {
    int n = pool.size();
    List<Explanation.Step> steps = new ArrayList<>();
    if (n == 0) {
      int recalled = task != null && wideRecall(config) && firstEncounter(task, pool, query) ? config.firstEncounterK1() : config.k1();
      steps.add(new Explanation.Step("Score", "nothing was recalled (no intent with cosine ≥ "
          + config.similarityThreshold() + " among the top " + recalled + "): nothing to score or show"));
      return new Explanation(config, recalledIntents, 0, List.of(), steps, List.of());
    }
    Ranked ranked = rank(pool, query, config, task, NO_DRAW, taskKey, signals, state);
    int[] order = ranked.order();
    int m = ranked.m();
    double epsilon = Explore.epsilon(config);
    double uniformShare = Explore.uniformShare(ranked.take(), m);
    TaskOrder.Result learned = ranked.learned();
    List<Explanation.Entry> entries = new ArrayList<>(n);
    List<String> shown = new ArrayList<>(ranked.take());
    List<Memory> shownMemories = new ArrayList<>(ranked.take());
    for (int r = 0; r < n; r++) {
      int i = order[r];
      PoolEntry e = pool.get(i);
      boolean eligible = r < m;
      boolean greedy = ranked.greedy()[i];
      String tier = learned == null || !eligible ? null
          : learned.withheld()[i] && !greedy ? "withheld" : TIERS[learned.tier()[i]];
      double p = eligible ? Explore.inclusion(epsilon, ranked.greedyP()[i], uniformShare) : 0;
      entries.add(new Explanation.Entry(r + 1, e.id(), e.memory(), ranked.sim()[i], ranked.q()[i],
          ranked.scored().normSim()[i], ranked.scored().normQ()[i], ranked.scored().score()[i], eligible,
          eligible ? null : "below qMin", tier, greedy, p, greedy));
      if (greedy) {
        shown.add(e.id());
        if (e.memory() != null) {
          shownMemories.add(e.memory());
        }
      }
    }
    steps.add(new Explanation.Step("Score", String.format(Locale.ROOT,
        "score = (1−λ)·norm(similarity) + λ·norm(Q) with λ = %s over %d candidates from %d intent(s); Q z-scored over the "
            + "pool (clipped to ±3), similarity %s", num(config.lambda()), n, recalledIntents,
        config.similarityNormalization() == MemLoopConfig.SimilarityNormalization.POOL ? "z-scored over the pool (clipped to ±3)"
            : "as (similarity − " + num(config.simMean()) + ") / " + num(config.simStd()))
        + blocksDetail(task, query) + textDetail(ranked.textZ() != null ? task : null)
        + (ranked.directionsArm() == DirectionsUse.NO_DRAW ? "" : String.format(Locale.ROOT,
            "; for this task with no record of its own the similarity learned from rewards and the plain cosine would "
                + "show different memories: the learned one ranks with probability %s (the chance that it pays in "
                + "this namespace as its rewards tell it), else the cosine (directionsUse), shown here: the learned "
                + "one; chances are over both", num(task.directionsProbability())))
        + (ranked.textArm() == TextAlone.NO_DRAW ? "" : String.format(Locale.ROOT,
            "; for this task with no record of its own the texts' similarity alone and the learned mix would show "
                + "different memories: the texts alone rank with probability %s (the chance that they pay in this "
                + "namespace as its rewards tell it), else the mix (textAlone), shown here: the mix; chances are over "
                + "both", num(task.textAloneProbability())))));
    steps.add(new Explanation.Step("TieBreak", "ordered by score, then similarity, highest first; equal on both: "
        + (config.tieBreak() == MemLoopConfig.TieBreak.NEWEST_FIRST ? "the newer memory first" : "the older memory first")));
    steps.add(new Explanation.Step("QMinFilter", (n - m) + " of " + n + " candidate(s) dropped for Q below qMin = "
        + num(config.qMin()) + "; " + m + " eligible"));
    for (RankingSignal signal : signals) {
      steps.add(new Explanation.Step("RankingSignal", "signal '" + signal.annotation() + "' reordered the eligible candidates"));
    }
    String taskOrder = taskOrderDetail(learned, task, config, pool, order, m);
    if (ranked.firstEncounter()) {
      taskOrder += "; the task has no record of its own yet (no use, failure or exploration, no memory of its own "
          + "intent in view): shown up to firstEncounterK2 = " + config.firstEncounterK2() + " of this order instead of k2 = "
          + config.k2() + (wideRecall(config) ? ", recalled from up to firstEncounterK1 = " + config.firstEncounterK1()
              + " intents instead of k1 = " + config.k1() : "");
    }
    if (ranked.stale() != null) {
      taskOrder += String.format(Locale.ROOT, "; before the tiers, newer memories first (freshness): the success %s has "
          + "gone stale (it helped an episode that used it, and the last %d that used it failed) and bears on this task "
          + "(it is among the first %d it would be shown, or %d stale successes are in its pool), and only %s of this "
          + "namespace's rewarded retrievals came from a task rewarded before, so each eligible score gained %s × its "
          + "z-scored creation rank", ranked.stale().id(), TaskView.STALE_AFTER, config.shownAtMost(),
          Freshness.SEVERAL, num(task.recurrence()), num(Freshness.weight(config, task)));
    }
    if (ranked.doubtArm() != Doubt.NO_DRAW && Doubt.notesFirst(config)) {
      taskOrder += String.format(Locale.ROOT, "; with probability %s (the chance that showing the failure notes first "
          + "pays in this namespace as its rewards tell it, times the share %s of its rewarded retrievals made by new "
          + "tasks) every success goes after the notes, newer first within each part%s (doubt = NOTES_FIRST), not drawn "
          + "here", num(task.doubtProbability()), num(1 - task.recurrence()),
          Doubt.newerFirstOnArm(ranked.stale(), Freshness.weight(config, task))
              ? " (each eligible score gains " + num(Freshness.weight(config, task)) + " × its z-scored creation rank)"
              : "");
    } else if (ranked.doubtArm() != Doubt.NO_DRAW) {
      int doubted = 0;
      for (int r = 0; r < m; r++) {
        doubted += Doubt.isDoubted(pool.get(order[r]), task.doubted()) ? 1 : 0;
      }
      taskOrder += String.format(Locale.ROOT, "; %d success(es) in the pool are doubted (their latest use failed): with "
          + "probability %s (the chance that showing them last pays in this namespace as its rewards tell it, times the "
          + "share %s of its rewarded retrievals made by new tasks) they go after every other eligible candidate "
          + "(doubt), not drawn here", doubted, num(task.doubtProbability()), num(1 - task.recurrence()));
    }
    steps.add(new Explanation.Step("TaskOrder", taskOrder));
    steps.add(new Explanation.Step("Explore", epsilon > 0 && m > 0
        ? String.format(Locale.ROOT, "ε-greedy: with probability %s the %d shown are replaced by a uniform choice among the %d "
            + "eligible; shown here: the greedy selection", num(epsilon), ranked.take(), m)
        : "no ε-greedy exploration (exploration " + config.exploration() + ", ε = " + num(epsilon) + "): the greedy selection is shown"));
    steps.add(new Explanation.Step("NoteDepth", noteDepthDetail(shownMemories, config, task)));
    return new Explanation(config, recalledIntents, n, entries, steps, shown);
  }

  /** Whether {@code task}'s namespace has learned a similarity ({@link Directions}) for vectors like {@code query}. */
  private static boolean learnedSimilarity(@Nullable TaskView task, float[] query) {
    return task != null && task.directions() != null && task.directions().directions().length > 0
        && task.directions().directions()[0].length == query.length;
  }

  /** What {@link TextChannel} did, for a task whose ranking mixed in the texts (else null and ""). */
  private static String textDetail(@Nullable TaskView mixed) {
    if (mixed == null) {
      return "";
    }
    double[] w = mixed.textWeights();
    return "; the task has no record of its own, so its similarity also weighs the words, word pairs and trigrams its "
        + "text shares with each candidate's intent (put on the vectors' scale): weights " + num(w[0]) + " (vectors) and "
        + num(w[1]) + " (texts), as this namespace's rewards taught it (textSimilarity)";
  }

  private static String blocksDetail(@Nullable TaskView task, float[] query) {
    if (learnedSimilarity(task, query)) {
      Directions.Fit fit = task.directions();
      return "; similarity is the cosine after discounting the " + fit.directions().length + " directions in which "
          + "this namespace's successful episodes' queries differ most from the memories they used (learned from "
          + fit.pairs() + " such pairs; similarityDirections)";
    }
    int blocks = task == null ? 0 : task.blockWeights().length;
    if (blocks < 2) {
      return "";
    }
    if (!Blocks.active(task, query)) {
      return "; similarityBlocks = " + blocks + " is not used here (the query's " + query.length
          + " components do not split into " + blocks + " blocks): similarity is the whole vectors' cosine";
    }
    StringBuilder w = new StringBuilder();
    for (double v : task.blockWeights()) {
      w.append(w.isEmpty() ? "" : ", ").append(num(v));
    }
    return "; the vectors are " + blocks + " blocks, and similarity is each block's cosine weighed by what this "
        + "namespace's rewards taught it: weights " + w;
  }

  /** Whether a first encounter recalls more intents than k1 ({@link MemLoopConfig#firstEncounterK1()}). */
  public static boolean wideRecall(MemLoopConfig config) {
    return config.taskLearning().perTask() && config.firstEncounterK2() > config.k2()
        && config.firstEncounterK1() > config.k1();
  }

  /** Names of {@link TaskOrder.Result#tier}'s tiers, by tier. */
  private static final String[] TIERS = {"proven", "proven-by-neighbours", "unknown", "failed-by-neighbours", "failed"};

  private static String taskOrderDetail(
      TaskOrder.@Nullable Result learned, @Nullable TaskView task, MemLoopConfig config, List<PoolEntry> pool, int[] order,
      int m) {
    if (learned == null || task == null) {
      return "per-task learning is off: the greedy order stands";
    }
    int[] count = new int[TaskOrder.TIERS];
    int withheld = 0;
    for (int r = 0; r < m; r++) {
      count[learned.tier()[order[r]]]++;
      withheld += learned.withheld()[order[r]] ? 1 : 0;
    }
    String s = String.format(Locale.ROOT, "tiers for this task: %d proven, %d failed, the rest unknown; %d failure(s) since "
        + "its last success", count[TaskOrder.PROVEN], count[TaskOrder.FAILED], task.consecutiveFailures());
    if (!task.neighbourNet().isEmpty()) {
      s += String.format(Locale.ROOT, "; by its neighbours' evidence %d proven, %d failed",
          count[TaskOrder.NEIGHBOURS_PROVEN], count[TaskOrder.NEIGHBOURS_FAILED]);
    }
    if (withheld > 0) {
      s += "; failing with nothing proven, it is shown its own record, " + withheld + " other intent memory(ies) withheld";
    }
    if (learned.explored() >= 0) {
      s += String.format(Locale.ROOT, "; it may explore another intent's untried success experience with probability %s "
          + "(%d of %d explorations used%s), not drawn here", num(task.explorationProbability()), task.explorations(),
          config.exploreBudget(), task.explorations() >= config.exploreBudget()
              ? "; past the budget while that probability is above " + num(config.exploreBeyondBudget()) : "");
    }
    return s;
  }

  private static String noteDepthDetail(List<Memory> shown, MemLoopConfig config, @Nullable TaskView task) {
    boolean anyLong = false;
    for (Memory mem : shown) {
      anyLong |= mem.outcome() == Outcome.FAILURE && mem.parts().size() > config.k2();
    }
    if (!anyLong) {
      return "no shown failure note lists more than k2 = " + config.k2() + " attempts: shown as stored";
    }
    MemLoopConfig.NoteDepth depth = task == null && config.noteDepth() == MemLoopConfig.NoteDepth.LEARNED
        ? MemLoopConfig.NoteDepth.WHOLE : config.noteDepth();
    return switch (depth) {
      case WHOLE -> "long failure notes are shown whole";
      case NEWEST -> "long failure notes are shortened to their newest k2 = " + config.k2() + " attempts";
      case LEARNED -> "long failure notes are shown whole with probability " + num(task.fullNoteProbability())
          + ", else their newest k2 = " + config.k2() + " attempts (not drawn here)";
    };
  }

  private static String num(double v) {
    if (!Double.isFinite(v)) {
      return v > 0 ? "∞" : v < 0 ? "−∞" : "NaN"; // qMin may be -Infinity; BigDecimal takes finite values only
    }
    return BigDecimal.valueOf(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

  /**
   * The randomness {@link #explain} runs the steps with: it draws nothing. A {@code nextDouble} is the largest
   * double below 1, so a draw "x &lt; p" keeps the greedy choice unless it is certain (p = 1); a bounded int is 0.
   */
  private static final RandomGenerator NO_DRAW = new RandomGenerator() {
    @Override
    public long nextLong() {
      return -1L;
    }

    @Override
    public double nextDouble() {
      return Math.nextDown(1.0);
    }

    @Override
    public int nextInt(int bound) {
      return 0;
    }
  };

  private static double[] toProbability(boolean[] greedy) {
    double[] p = new double[greedy.length];
    for (int i = 0; i < p.length; i++) {
      if (greedy[i]) {
        p[i] = 1;
      }
    }
    return p;
  }

  /**
   * What every ranking pass of one retrieval computes alike over the pool, computed on first use and kept for the
   * others: the similarity the namespace learned ({@link Directions}) and the texts' lexical cosines
   * ({@link TextChannel#lexical}). A new task with text is ranked up to four times (the draws' probes and the arm
   * taken), and these two were most of each pass's cost. Not thread-safe: one retrieval's.
   */
  private static final class PoolSimilarities {
    private final List<PoolEntry> pool;
    private final float[] query;
    private final @Nullable TaskView task;
    private double @Nullable [] learned;
    private double @Nullable [] lexical;

    PoolSimilarities(List<PoolEntry> pool, float[] query, @Nullable TaskView task) {
      this.pool = pool;
      this.query = query;
      this.task = task;
    }

    /**
     * By pool index, the learned similarity of the query to each candidate's intent; {@code cosine}'s value where the
     * candidate has no intent embedding. A copy each time: a pass may keep or replace it.
     */
    double[] learned(double[] cosine) {
      if (learned == null) {
        Directions.Fit fit = Objects.requireNonNull(task).directions();
        double[] tq = fit.transform(query);
        double[] out = cosine.clone();
        for (int i = 0; i < out.length; i++) {
          float[] intent = pool.get(i).intentEmbedding();
          if (intent != null) {
            out[i] = Directions.cosine(tq, Directions.transformKept(fit, intent));
          }
        }
        learned = out;
      }
      return learned.clone();
    }

    /** By pool index, the query's text's lexical cosine to each candidate's intent text (NaN: no text). */
    double[] lexical() {
      if (lexical == null) {
        lexical = TextChannel.lexical(Objects.requireNonNull(Objects.requireNonNull(task).queryWords()), pool);
      }
      return lexical;
    }
  }
}
