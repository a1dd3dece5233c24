package io.memloop;

import io.memloop.store.IntentMatch;
import io.memloop.store.TaskNote;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Phase B of MemRL's two-phase retrieval (arXiv 2601.03192 §4.2): given the Phase A pool, score each
 * candidate by {@code (1−λ)·norm(sim) + λ·norm(Q)}, drop candidates with {@code Q < q_min}, and
 * select the top k2, or under ε-greedy a uniform k2-subset of the eligible pool with probability ε.
 *
 * <p>A candidate's similarity is the cosine to its intent group's representative (MemRL) or to the
 * memory's own intent ({@link MemLoopConfig.SimilarityScope}). Candidates with equal score are ordered
 * by similarity, then by the configured {@link MemLoopConfig.TieBreak}: oldest first as the reference
 * (its store lists a group oldest first and its sort is stable), or newest first (creation time, then
 * the store's order within the group).
 *
 * <p>Normalisation follows the reference code: Q is z-scored over the pool with the population
 * standard deviation, clipped to ±3, and std := 1 when ≤ 1e-9; similarity is either z-scored the same
 * way over the pool or with fixed user-set constants.
 *
 * <p>Stateless and thread-safe; randomness comes from the caller.
 */
final class TwoPhaseSelector {
  static final double Z_CLIP = 3.0;
  static final double STD_FLOOR = 1e-9;

  private TwoPhaseSelector() {}

  /** Cosine at or above which a memory's own intent is the query's (the same task asked again). */
  static final double SAME_INTENT = 1 - 1e-6;

  /**
   * What per-task learning knows about the asking task ({@link MemLoopConfig.TaskLearning}).
   *
   * @param context the task's key
   * @param consecutiveFailures the task's failures since its last success
   * @param explorations how often the task has explored
   * @param explorationProbability the chance that a task able to explore does: ½ while the namespace is
   *     still comparing exploring with not exploring, then high where exploring paid off and low where not
   * @param net each memory's net centred reward when the task used it (memories it never used are absent)
   * @param margin net reward beyond which a memory counts as proven (or, below its negative, as failed)
   */
  record TaskView(
      String context, int consecutiveFailures, int explorations, double explorationProbability, Map<String, Double> net,
      double margin) {}

  record Selection(List<Candidate> candidates, List<Memory> selected, TaskNote note) {
    Selection(List<Candidate> candidates, List<Memory> selected) {
      this(candidates, selected, TaskNote.NONE);
    }
  }

  static Selection select(float[] query, List<IntentMatch> matches, MemLoopConfig config, RandomGenerator random) {
    return select(query, matches, config, null, random);
  }

  /**
   * Phase B. With a {@code task} view (per-task learning on), eligible candidates are reordered, stably,
   * into memories proven for the task, then the rest, then memories that failed it; and a failing task
   * with exploration left gets its first untried success experience of another intent in second place.
   */
  static Selection select(
      float[] query, List<IntentMatch> matches, MemLoopConfig config, @Nullable TaskView task, RandomGenerator random) {
    List<Memory> pool = new ArrayList<>();
    List<Double> poolSims = new ArrayList<>();
    boolean ownIntent = config.similarityScope() == MemLoopConfig.SimilarityScope.MEMORY;
    for (IntentMatch match : matches) {
      for (Memory m : match.memories()) {
        pool.add(m);
        poolSims.add(ownIntent ? (double) Vectors.dot(query, m.intentEmbedding()) : match.similarity());
      }
    }
    int n = pool.size();
    if (n == 0) {
      return new Selection(List.of(), List.of());
    }
    double[] sim = new double[n];
    double[] q = new double[n];
    for (int i = 0; i < n; i++) {
      sim[i] = poolSims.get(i);
      q[i] = pool.get(i).q();
    }
    double[] normQ = zScoreClipped(q);
    double[] normSim =
        switch (config.similarityNormalization()) {
          case POOL -> zScoreClipped(sim);
          case FIXED -> fixed(sim, config.simMean(), config.simStd());
        };
    double lambda = config.lambda();
    double[] score = new double[n];
    for (int i = 0; i < n; i++) {
      score[i] = (1 - lambda) * normSim[i] + lambda * normQ[i];
    }

    // Eligible candidates in greedy order: score, then similarity, then the tie-break.
    Integer[] order = new Integer[n];
    Arrays.setAll(order, i -> i);
    Comparator<Integer> byScore =
        Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingDouble(i -> -sim[i]);
    byScore = switch (config.tieBreak()) {
      case OLDEST_FIRST -> byScore; // the sort is stable: pool order, a group's memories oldest first
      case NEWEST_FIRST ->
          byScore.thenComparing((Integer i) -> pool.get(i).createdAt(), Comparator.reverseOrder())
              .thenComparing(i -> -i);
    };
    Arrays.sort(order, byScore);
    List<Integer> eligible = new ArrayList<>();
    List<Integer> dropped = new ArrayList<>();
    for (int i : order) {
      (q[i] >= config.qMin() ? eligible : dropped).add(i);
    }
    int m = eligible.size();
    int take = Math.min(config.k2(), m);
    Learned learned = task == null ? Learned.NONE : learnedOrder(query, pool, eligible, take, task, config, random);
    TaskNote note = learned.note();
    boolean[] greedy = new boolean[n];
    double[] greedyP = new double[n]; // the chance of being in the greedy selection, over the exploration draw
    for (int r = 0; r < take; r++) {
      greedy[eligible.get(r)] = true;
      greedyP[eligible.get(r)] = 1;
    }
    if (learned.drawIn() >= 0) {
      greedyP[learned.drawIn()] = learned.p();
      greedyP[learned.drawOut()] = 1 - learned.p();
    }
    boolean[] chosen = greedy;
    double epsilon = config.exploration() == MemLoopConfig.Exploration.EPSILON_GREEDY ? config.epsilon() : 0;
    // Draw only when exploring is possible, so greedy configurations consume no randomness.
    if (epsilon > 0 && m > 0 && random.nextDouble() < epsilon) {
      chosen = new boolean[n];
      int[] idx = eligible.stream().mapToInt(Integer::intValue).toArray();
      for (int r = 0; r < take; r++) { // partial Fisher-Yates: a uniform take-subset
        int j = r + random.nextInt(m - r);
        int t = idx[r];
        idx[r] = idx[j];
        idx[j] = t;
        chosen[idx[r]] = true;
      }
    }
    if (chosen != greedy && !note.explored().isEmpty()) { // the uniform draw replaced the exploration
      note = new TaskNote(note.context(), "", note.explorable());
    }
    double uniformShare = m == 0 ? 0 : (double) take / m;
    List<Candidate> candidates = new ArrayList<>(n);
    List<Memory> selected = new ArrayList<>(take);
    for (int i : eligible) {
      double p = (1 - epsilon) * greedyP[i] + epsilon * uniformShare;
      candidates.add(new Candidate(pool.get(i).id(), sim[i], q[i], score[i], chosen[i], p));
      if (chosen[i]) {
        selected.add(pool.get(i));
      }
    }
    for (int i : dropped) {
      candidates.add(new Candidate(pool.get(i).id(), sim[i], q[i], score[i], false, 0));
    }
    assert selected.size() == take : "selected=" + selected.size() + " take=" + take;
    if (task != null) {
      for (Memory mem : selected) { // in the order shown
        if (mem.outcome() == Outcome.SUCCESS) {
          note = note.withAssumedUsed(mem.id());
          break;
        }
      }
    }
    return new Selection(candidates, selected, note);
  }

  /**
   * What per-task learning did to one selection.
   *
   * @param note the retrieval's note
   * @param drawIn pool index of the memory the exploration draw let in ({@code p}), or -1 when the draw
   *     could not change which memories were selected
   * @param drawOut pool index of the memory it pushed out ({@code 1 − p})
   * @param p the chance of exploring
   */
  private record Learned(TaskNote note, int drawIn, int drawOut, double p) {
    static final Learned NONE = new Learned(TaskNote.NONE, -1, -1, 0);
  }

  /** Reorders {@code eligible} in place for per-task learning. */
  private static Learned learnedOrder(
      float[] query, List<Memory> pool, List<Integer> eligible, int take, TaskView task, MemLoopConfig config,
      RandomGenerator random) {
    int[] tier = new int[pool.size()]; // by pool index: 0 proven for the task, 1 unknown, 2 failed it
    boolean proven = false;
    for (int i : eligible) {
      Double net = task.net().get(pool.get(i).id());
      tier[i] = net == null ? 1 : net > task.margin() ? 0 : net < -task.margin() ? 2 : 1;
      proven |= tier[i] == 0;
    }
    eligible.sort(Comparator.comparingInt(i -> tier[i])); // stable: the greedy order within a tier
    boolean failing = !proven && task.consecutiveFailures() >= config.exploreAfterFailures();
    int explored = -1;
    if (failing && take > 0 && task.explorations() < config.exploreBudget()) {
      for (int i : eligible) {
        Memory mem = pool.get(i);
        if (tier[i] == 1 && !task.net().containsKey(mem.id()) && mem.outcome() == Outcome.SUCCESS
            && Vectors.dot(query, mem.intentEmbedding()) < SAME_INTENT) {
          explored = i;
          break;
        }
      }
    }
    if (explored < 0) {
      return new Learned(new TaskNote(task.context(), "", false), -1, -1, 0);
    }
    // Only a task that could explore draws: a randomised, logged choice, so that the namespace's
    // comparison of exploring with not exploring is between like episodes.
    int at = eligible.indexOf(explored);
    boolean changesSelection = at >= take; // else it is shown either way, perhaps lower
    int drawIn = changesSelection ? explored : -1;
    int drawOut = changesSelection ? eligible.get(take - 1) : -1;
    double p = task.explorationProbability();
    boolean explore = random.nextDouble() < p;
    int slot = Math.min(1, take - 1);
    if (explore && at > slot) {
      eligible.remove(at);
      eligible.add(slot, explored);
    }
    return new Learned(new TaskNote(task.context(), explore ? pool.get(explored).id() : "", true), drawIn, drawOut, p);
  }

  /** z-score with population std, clipped to ±{@link #Z_CLIP}; std := 1 when ≤ {@link #STD_FLOOR}. */
  static double[] zScoreClipped(double[] x) {
    double mean = 0;
    for (double v : x) {
      mean += v;
    }
    mean /= x.length;
    double var = 0;
    for (double v : x) {
      var += (v - mean) * (v - mean);
    }
    double std = Math.sqrt(var / x.length);
    if (std <= STD_FLOOR) {
      std = 1;
    }
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = Math.max(-Z_CLIP, Math.min(Z_CLIP, (x[i] - mean) / std));
    }
    return out;
  }

  private static double[] fixed(double[] x, double mean, double std) {
    double[] out = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      out[i] = (x[i] - mean) / std;
    }
    return out;
  }
}
