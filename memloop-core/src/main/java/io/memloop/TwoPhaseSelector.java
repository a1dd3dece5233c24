package io.memloop;

import io.memloop.policy.TaskNote;
import io.memloop.store.IntentMatch;
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
      double margin, double fullNoteProbability) {}

  /**
   * @param note what per-task learning needs at the reward, the note-depth draw ({@link TaskNote#noteDepth})
   *     included
   */
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
   * into memories proven for the task, then the rest, then memories that failed it; a task that keeps failing
   * sees its own record, and another intent's untried success experience in second place when it explores
   * ({@link #learnedOrder}); a long merged failure note is shown whole or shortened by a draw ({@link #noteDepth}).
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
    Learned learned = task == null ? null : learnedOrder(query, pool, eligible, config.k2(), task, config, random);
    TaskNote note = learned == null ? TaskNote.NONE : learned.note();
    int m = eligible.size();
    int take = learned == null ? Math.min(config.k2(), m) : learned.take();
    boolean[] greedy = new boolean[n];
    double[] greedyP = new double[n]; // the chance of being in the greedy selection, over the exploration draw
    for (int r = 0; r < take; r++) {
      greedy[eligible.get(r)] = true;
      greedyP[eligible.get(r)] = 1;
    }
    if (learned != null && learned.inclusion() != null) {
      greedyP = learned.inclusion();
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
    // the draw needs per-task learning's record: without it a LEARNED depth shows notes whole
    MemLoopConfig.NoteDepth depth =
        task == null && config.noteDepth() == MemLoopConfig.NoteDepth.LEARNED ? MemLoopConfig.NoteDepth.WHOLE
            : config.noteDepth();
    int drawn = noteDepth(selected, config.k2(), depth, task == null ? 1 : task.fullNoteProbability(), random);
    if (task != null) {
      note = note.withNoteDepth(drawn);
    }
    return new Selection(candidates, selected, note);
  }

  /**
   * How much of a long merged failure note the task is shown ({@link MemLoopConfig.Consolidation#MERGE_FAILURES}):
   * every attempt it lists, or only the newest k2, as many as k2 separate notes would show, as
   * {@link MemLoopConfig#noteDepth} says. Older attempts are more evidence and also older: which serves the agent
   * better differs from one kind of task to another, so under {@link MemLoopConfig.NoteDepth#LEARNED} each
   * namespace learns it, by a draw with the probability {@code pFull} that the full note succeeds more often
   * ({@link TaskView#fullNoteProbability}). Replaces the shortened notes in {@code selected}.
   *
   * @return {@link TaskNote#WHOLE} or {@link TaskNote#NEWEST} as drawn, or {@link TaskNote#NO_DRAW} when there
   *     was no draw (a fixed depth, or no selected note lists more than k2 attempts)
   */
  private static int noteDepth(
      List<Memory> selected, int k2, MemLoopConfig.NoteDepth depth, double pFull, RandomGenerator random) {
    if (depth == MemLoopConfig.NoteDepth.WHOLE) {
      return TaskNote.NO_DRAW;
    }
    List<List<String>> attempts = new ArrayList<>(selected.size()); // of each selected failure note, once
    boolean anyLong = false;
    for (Memory mem : selected) {
      List<String> parts = mem.outcome() == Outcome.FAILURE ? mem.parts() : List.of();
      attempts.add(parts);
      anyLong |= parts.size() > k2;
    }
    if (!anyLong) {
      return TaskNote.NO_DRAW;
    }
    boolean learned = depth == MemLoopConfig.NoteDepth.LEARNED;
    if (learned && random.nextDouble() < pFull) {
      return TaskNote.WHOLE;
    }
    for (int i = 0; i < selected.size(); i++) {
      if (attempts.get(i).size() > k2) {
        selected.set(i, selected.get(i).withExperience(Memory.joinParts(attempts.get(i), k2)));
      }
    }
    return learned ? TaskNote.NEWEST : TaskNote.NO_DRAW;
  }

  /**
   * What per-task learning did to one selection.
   *
   * @param note the retrieval's note
   * @param take how many of the reordered eligible candidates are selected (at most k2)
   * @param inclusion by pool index, each candidate's chance of being selected over the exploration draw; null
   *     when there was no draw (the first {@code take} are selected for certain)
   */
  private record Learned(TaskNote note, int take, double @Nullable [] inclusion) {}

  /**
   * Reorders {@code eligible} in place for per-task learning and says how many of them are shown: memories
   * proven for the task first, then the rest, then memories that failed it. A task that keeps failing with
   * nothing proven is shown its own record (memories of its own intent) and no other intent's memories, except
   * when it explores: then one success experience of another intent that it has not tried, in second place,
   * with the probability that exploring pays in the namespace. Its own failure notes stay in view instead of
   * being crowded out by look-alike tasks' experiences that have not helped it.
   */
  private static Learned learnedOrder(
      float[] query, List<Memory> pool, List<Integer> eligible, int k2, TaskView task, MemLoopConfig config,
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
    boolean[] foreign = new boolean[pool.size()]; // another intent's memory shown to a failing task (nothing is proven)
    int explored = -1; // the failing task's first untried success experience of another intent
    for (int i : eligible) {
      Memory mem = pool.get(i);
      foreign[i] = failing && Vectors.dot(query, mem.intentEmbedding()) < SAME_INTENT;
      if (explored < 0 && foreign[i] && tier[i] == 1 && !task.net().containsKey(mem.id())
          && mem.outcome() == Outcome.SUCCESS) {
        explored = i;
      }
    }
    boolean canExplore = explored >= 0 && k2 > 0 && task.explorations() < config.exploreBudget();
    // the arm without exploring: a failing task sees its own record and what is proven for it
    List<Integer> stay = new ArrayList<>(eligible.size());
    List<Integer> withheld = new ArrayList<>();
    for (int i : eligible) {
      (foreign[i] ? withheld : stay).add(i);
    }
    int takeStay = Math.min(k2, stay.size());
    if (!canExplore) {
      eligible.clear();
      eligible.addAll(stay);
      eligible.addAll(withheld);
      return new Learned(new TaskNote(task.context(), "", false), takeStay, null);
    }
    // the exploring arm: the same with the explored memory in second place
    List<Integer> go = new ArrayList<>(eligible.size());
    List<Integer> goWithheld = new ArrayList<>();
    for (int i : eligible) {
      (foreign[i] && i != explored ? goWithheld : go).add(i);
    }
    int at = go.indexOf(explored);
    int slot = Math.min(1, k2 - 1);
    if (at > slot) {
      go.remove(at);
      go.add(slot, explored);
    }
    int takeGo = Math.min(k2, go.size());
    double p = task.explorationProbability();
    double[] inclusion = new double[pool.size()];
    for (int r = 0; r < takeStay; r++) {
      inclusion[stay.get(r)] += 1 - p;
    }
    for (int r = 0; r < takeGo; r++) {
      inclusion[go.get(r)] += p;
    }
    // Only a task that could explore draws: a randomised, logged choice, so that the namespace's
    // comparison of exploring with not exploring is between like episodes.
    boolean explore = random.nextDouble() < p;
    eligible.clear();
    if (explore) {
      eligible.addAll(go);
      eligible.addAll(goWithheld);
    } else {
      eligible.addAll(stay);
      eligible.addAll(withheld);
    }
    return new Learned(new TaskNote(task.context(), explore ? pool.get(explored).id() : "", true),
        explore ? takeGo : takeStay, inclusion);
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
