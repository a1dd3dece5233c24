package io.memloop.policy;

import io.memloop.Candidate;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.store.Annotations;
import io.memloop.store.IntentMatch;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Phase B of MemRL's two-phase retrieval (arXiv 2601.03192 §4.2) as a pipeline of named steps, each stating its
 * own order and tie rule: {@link Score} (the normalised similarity/Q mix) → {@link TieBreak} (the greedy order)
 * → {@link QMinFilter} (the utility floor) → any {@link RankingSignal}s a user added → {@link TaskOrder} (per-task tiers and the exploring arm, only with a
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
    int n = pool.size();
    if (n == 0) {
      return Selection.EMPTY;
    }
    double[] sim = new double[n];
    double[] q = new double[n];
    for (int i = 0; i < n; i++) {
      PoolEntry e = pool.get(i);
      sim[i] = e.similarity();
      q[i] = e.q();
    }
    double[] score = Score.of(sim, q, config);
    int[] order = TieBreak.order(score, sim, pool, config.tieBreak());
    int m = QMinFilter.apply(order, q, config.qMin()); // order[0..m) eligible, order[m..n) dropped
    for (int s = 0; s < signals.size(); s++) {
      RankingSignal.reorderChecked(signals.get(s), taskKey, pool, state[s], order, m);
    }
    TaskOrder.Result learned = task == null ? null : TaskOrder.apply(query, pool, order, m, config.k2(), task, config, random);
    TaskNote note = learned == null ? TaskNote.NONE : learned.note();
    int take = learned == null ? Math.min(config.k2(), m) : learned.take();
    boolean[] greedy = new boolean[n];
    for (int r = 0; r < take; r++) {
      greedy[order[r]] = true;
    }
    // the chance of being in the greedy selection, over TaskOrder's draw
    double[] greedyP = learned != null && learned.inclusion() != null ? learned.inclusion() : toProbability(greedy);
    double epsilon = Explore.epsilon(config);
    boolean[] chosen = Explore.draw(order, m, take, greedy, epsilon, random);
    if (chosen != greedy && !note.explored().isEmpty()) { // the uniform draw replaced the exploration
      note = new TaskNote(note.context(), "", note.explorable());
    }
    double uniformShare = Explore.uniformShare(take, m);
    List<Candidate> candidates = new ArrayList<>(n);
    List<Memory> selected = new ArrayList<>(take);
    PoolEntry firstSuccess = null; // the first selected success experience, in the order shown
    for (int r = 0; r < m; r++) {
      int i = order[r];
      PoolEntry e = pool.get(i);
      double p = Explore.inclusion(epsilon, greedyP[i], uniformShare);
      candidates.add(new Candidate(e.id(), sim[i], q[i], score[i], chosen[i], p));
      if (chosen[i]) {
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
    return new Selection(candidates, selected, note);
  }

  private static double[] toProbability(boolean[] greedy) {
    double[] p = new double[greedy.length];
    for (int i = 0; i < p.length; i++) {
      if (greedy[i]) {
        p[i] = 1;
      }
    }
    return p;
  }
}
