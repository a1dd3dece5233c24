package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Vectors;
import java.util.List;
import java.util.random.RandomGenerator;
import org.jspecify.annotations.Nullable;

/**
 * Step 4 of Phase B, with per-task learning on ({@link MemLoopConfig.TaskLearning#ON}): reorders the eligible
 * candidates for the asking task and says how many are shown.
 *
 * <p>Tiers, each keeping the greedy order within it (a stable partition): memories proven for the task (net
 * reward above the margin), then the rest, then memories that failed it (net below minus the margin). A task
 * that keeps failing ({@link MemLoopConfig#exploreAfterFailures} failures since its last success) with nothing
 * proven is shown its own record (memories of its own intent, cosine ≥ {@link #SAME_INTENT}) and no other
 * intent's memories, which go after every shown one, in greedy order. When it can explore (within
 * {@link MemLoopConfig#exploreBudget}, or past it while the probability that exploring pays in the namespace is above
 * {@link MemLoopConfig#exploreBeyondBudget}: where exploring has shown that it pays, a task keeps searching until
 * something works or its pool holds no untried success) it draws, with the probability that exploring pays in the namespace
 * ({@link TaskView#explorationProbability}): the exploring arm shows the first (in the tiered order) success
 * experience of another intent that the task has not tried, in second place (first when k2 = 1). Its own failure
 * notes stay in view instead of being crowded out by look-alike tasks' experiences that have not helped it.
 *
 * <p>Randomness: one {@code nextDouble} exactly when the task can explore, none otherwise. Stateless and
 * thread-safe.
 */
public final class TaskOrder {
  /** Cosine at or above which a memory's own intent is the query's (the same task asked again). */
  public static final double SAME_INTENT = 1 - 1e-6;

  private TaskOrder() {}

  /**
   * What per-task learning did to one selection.
   *
   * @param note the retrieval's note
   * @param take how many of the reordered eligible candidates are selected (at most k2)
   * @param inclusion by pool index, each candidate's chance of being selected over the exploration draw; null
   *     when there was no draw (the first {@code take} are selected for certain)
   * @param tier by pool index, for the eligible candidates: {@link #PROVEN}, {@link #UNKNOWN} or {@link #FAILED}
   * @param withheld by pool index: another intent's memory that a failing task is not shown
   * @param explored the pool index of the exploring arm's memory, or -1 when the task cannot explore
   */
  record Result(TaskNote note, int take, double @Nullable [] inclusion, int[] tier, boolean[] withheld, int explored) {}

  /** Tiers of {@link Result#tier}, in the order shown. */
  static final int PROVEN = 0;
  /**
   * Proven for the neighbouring tasks ({@link TaskView#neighbourNet}) and never used by this one; also the task's own
   * memories (of its own intent) that it has no evidence about, which a neighbour's evidence must not overtake.
   */
  static final int NEIGHBOURS_PROVEN = 1;
  static final int UNKNOWN = 2;
  /** Failed the neighbouring tasks that used it, never used by this one. */
  static final int NEIGHBOURS_FAILED = 3;
  static final int FAILED = 4;
  /** How many tiers there are. */
  static final int TIERS = 5;

  /**
   * Reorders the eligible pool indices {@code order[0..m)} in place.
   *
   * @param query the query's embedding, for the same-intent test
   */
  static Result apply(
      float[] query, List<PoolEntry> pool, int[] order, int m, int k2, TaskView task, MemLoopConfig config,
      RandomGenerator random) {
    int n = pool.size();
    int[] tier = new int[n]; // by pool index: PROVEN ... FAILED
    boolean proven = false;
    boolean neighbours = !task.neighbourNet().isEmpty();
    for (int r = 0; r < m; r++) {
      int i = order[r];
      PoolEntry e = pool.get(i);
      Double own = task.net().get(e.id());
      if (own != null) {
        tier[i] = own > task.margin() ? PROVEN : own < -task.margin() ? FAILED : UNKNOWN;
      } else if (neighbours && sameIntent(query, e)) {
        tier[i] = NEIGHBOURS_PROVEN;
      } else {
        Double near = task.neighbourNet().get(e.id());
        tier[i] = near == null ? UNKNOWN
            : near > task.margin() ? NEIGHBOURS_PROVEN : near < -task.margin() / 2 ? NEIGHBOURS_FAILED : UNKNOWN;
      }
      proven |= tier[i] == PROVEN;
    }
    int[] scratch = new int[m];
    int s = 0;
    for (int t = 0; t < TIERS; t++) { // a stable partition by tier: the greedy order within a tier
      for (int r = 0; r < m; r++) {
        if (tier[order[r]] == t) {
          scratch[s++] = order[r];
        }
      }
    }
    System.arraycopy(scratch, 0, order, 0, m);
    boolean failing = !proven && task.consecutiveFailures() >= config.exploreAfterFailures();
    boolean[] foreign = new boolean[n]; // another intent's memory shown to a failing task (nothing is proven)
    int explored = -1; // the failing task's first untried success experience of another intent
    int foreignCount = 0;
    for (int r = 0; r < m; r++) {
      int i = order[r];
      PoolEntry e = pool.get(i);
      float[] intent = e.intentEmbedding();
      foreign[i] = failing && (intent == null || Vectors.dot(query, intent) < SAME_INTENT);
      if (foreign[i]) {
        foreignCount++;
      }
      if (explored < 0 && foreign[i] && (tier[i] == UNKNOWN || tier[i] == NEIGHBOURS_PROVEN) && !task.net().containsKey(e.id())
          && e.outcome() == Outcome.SUCCESS) {
        explored = i;
      }
    }
    boolean canExplore = explored >= 0 && k2 > 0 && (task.explorations() < config.exploreBudget()
        || (config.exploreBudget() > 0 && task.explorationProbability() > config.exploreBeyondBudget()));
    // the arm without exploring: a failing task sees its own record and what is proven for it
    int[] stay = new int[m]; // the stay arm's order: its shown candidates, then the withheld foreign ones
    int stayCount = m - foreignCount;
    partition(order, m, foreign, -1, stay, stayCount);
    int takeStay = Math.min(k2, stayCount);
    if (!canExplore) {
      System.arraycopy(stay, 0, order, 0, m);
      return new Result(new TaskNote(task.context(), "", false), takeStay, null, tier, foreign, -1);
    }
    // the exploring arm: the same with the explored memory in second place
    int[] go = new int[m];
    int goCount = stayCount + 1;
    partition(order, m, foreign, explored, go, goCount);
    int at = indexOf(go, goCount, explored);
    int slot = Math.min(1, k2 - 1);
    if (at > slot) {
      System.arraycopy(go, slot, go, slot + 1, at - slot);
      go[slot] = explored;
    }
    int takeGo = Math.min(k2, goCount);
    double p = task.explorationProbability();
    double[] inclusion = new double[n];
    for (int r = 0; r < takeStay; r++) {
      inclusion[stay[r]] += 1 - p;
    }
    for (int r = 0; r < takeGo; r++) {
      inclusion[go[r]] += p;
    }
    // Only a task that could explore draws: a randomised, logged choice, so that the namespace's
    // comparison of exploring with not exploring is between like episodes.
    boolean explore = random.nextDouble() < p;
    System.arraycopy(explore ? go : stay, 0, order, 0, m);
    return new Result(new TaskNote(task.context(), explore ? pool.get(explored).id() : "", true),
        explore ? takeGo : takeStay, inclusion, tier, foreign, explored);
  }

  static boolean sameIntent(float[] query, PoolEntry e) {
    float[] intent = e.intentEmbedding();
    return intent != null && Vectors.dot(query, intent) >= SAME_INTENT;
  }

  /**
   * Writes {@code order[0..m)} into {@code out}, stably: first the candidates shown ({@code keep} of them: the
   * not foreign ones, and {@code except}), then the withheld ones.
   */
  private static void partition(int[] order, int m, boolean[] foreign, int except, int[] out, int keep) {
    int a = 0;
    int b = keep;
    for (int r = 0; r < m; r++) {
      int i = order[r];
      if (foreign[i] && i != except) {
        out[b++] = i;
      } else {
        out[a++] = i;
      }
    }
    assert a == keep && b == m : "shown=" + a + " keep=" + keep + " all=" + b + " m=" + m;
  }

  private static int indexOf(int[] a, int length, int value) {
    for (int r = 0; r < length; r++) {
      if (a[r] == value) {
        return r;
      }
    }
    return -1;
  }
}
