package io.memloop.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The metrics of the MemRL evaluation over one run, computed from its success matrix
 * {@code solved[epoch][task]} (epoch 0-based here, every task once per epoch). Definitions follow
 * the research digest; where the reference code has none, the definition is stated here.
 */
public final class Metrics {
  private Metrics() {}

  /** The success matrix of a run: rows grouped by epoch, tasks in order of first appearance. */
  static boolean[][] solved(List<EpisodeRow> rows, int epochs) {
    Map<String, Integer> taskIndex = new LinkedHashMap<>();
    for (EpisodeRow r : rows) {
      taskIndex.putIfAbsent(r.taskId(), taskIndex.size());
    }
    int tasks = taskIndex.size();
    boolean[][] solved = new boolean[epochs][tasks];
    int[][] seen = new int[epochs][tasks];
    for (EpisodeRow r : rows) {
      if (r.epoch() > epochs) {
        throw new IllegalArgumentException("row of epoch " + r.epoch() + " in a run of " + epochs + " epochs");
      }
      int e = r.epoch() - 1;
      int t = taskIndex.get(r.taskId());
      seen[e][t]++;
      solved[e][t] = r.success();
    }
    for (int e = 0; e < epochs; e++) {
      for (int t = 0; t < tasks; t++) {
        if (seen[e][t] != 1) {
          throw new IllegalArgumentException(
              "task " + List.copyOf(taskIndex.keySet()).get(t) + " ran " + seen[e][t] + " times in epoch " + (e + 1)
                  + " (expected once)");
        }
      }
    }
    return solved;
  }

  /** Epoch accuracy: the mean success of each epoch. */
  static List<Double> epochAccuracy(boolean[][] solved) {
    List<Double> out = new ArrayList<>(solved.length);
    for (boolean[] epoch : solved) {
      out.add(fraction(count(epoch), epoch.length));
    }
    return out;
  }

  /** Last-epoch accuracy, the headline number of MemRL's tables. */
  static double lastEpochAccuracy(boolean[][] solved) {
    if (solved.length == 0) {
      throw new IllegalArgumentException("no epochs");
    }
    boolean[] last = solved[solved.length - 1];
    return fraction(count(last), last.length);
  }

  /** CSR after each epoch: the fraction of tasks solved at least once up to and including it. */
  static List<Double> cumulativeSuccess(boolean[][] solved) {
    List<Double> out = new ArrayList<>(solved.length);
    if (solved.length == 0) {
      return out;
    }
    boolean[] ever = new boolean[solved[0].length];
    for (boolean[] epoch : solved) {
      for (int t = 0; t < epoch.length; t++) {
        ever[t] |= epoch[t];
      }
      out.add(fraction(count(ever), ever.length));
    }
    return out;
  }

  /**
   * Forgetting rate, conditional form: for each epoch t ≥ 2 in which some task was solved in t − 1,
   * the fraction of those tasks failed in t; averaged over such t. Empty when no such t exists. (The
   * unconditional form, failed-after-solved over all tasks, grows with accuracy and so punishes
   * learning.)
   */
  static OptionalDouble forgettingRate(boolean[][] solved) {
    double sum = 0;
    int terms = 0;
    for (int e = 1; e < solved.length; e++) {
      int before = 0;
      int lost = 0;
      for (int t = 0; t < solved[e].length; t++) {
        if (solved[e - 1][t]) {
          before++;
          lost += solved[e][t] ? 0 : 1;
        }
      }
      if (before > 0) {
        sum += (double) lost / before;
        terms++;
      }
    }
    return terms == 0 ? OptionalDouble.empty() : OptionalDouble.of(sum / terms);
  }

  /** Transfer accuracy: mean success on the held-out tasks with frozen memory; empty without any. */
  static OptionalDouble transferAccuracy(List<EpisodeRow> transferRows) {
    if (transferRows.isEmpty()) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(fraction((int) transferRows.stream().filter(EpisodeRow::success).count(), transferRows.size()));
  }

  /**
   * Misled rate: among training episodes that showed a memory and could be judged, the fraction whose
   * top-ranked memory misled (a success experience that does not fit the task: a distractor's or a
   * stale one). Measures how often distractors fool a strategy; empty when nothing could be judged.
   */
  static OptionalDouble misledRate(List<EpisodeRow> rows) {
    long judged = rows.stream().filter(r -> r.firstShown() == EpisodeRow.FirstShown.HELPS
        || r.firstShown() == EpisodeRow.FirstShown.MISLEADS || r.firstShown() == EpisodeRow.FirstShown.NEUTRAL).count();
    long misled = rows.stream().filter(r -> r.firstShown() == EpisodeRow.FirstShown.MISLEADS).count();
    return judged == 0 ? OptionalDouble.empty() : OptionalDouble.of((double) misled / judged);
  }

  /**
   * Whether Q predicts outcomes (MemRL reports a Q-critic r = 0.861, but between a memory's final Q and
   * the success rate of the very episodes that produced that Q, which is circular): Pearson r between
   * the top-ranked memory's Q at retrieval time, learned from earlier episodes only, and the success of
   * the episode that followed, over training episodes whose top memory had been rewarded at least
   * once. Empty when fewer than 3 such episodes or either side has no variance (e.g. strategies whose
   * Q never moves).
   */
  static OptionalDouble qPredictsNext(List<EpisodeRow> rows) {
    List<double[]> pairs = new ArrayList<>();
    for (EpisodeRow r : rows) {
      if (Double.isFinite(r.firstShownQ())) {
        pairs.add(new double[] {r.firstShownQ(), r.success() ? 1 : 0});
      }
    }
    return pearson(pairs);
  }

  /** Pearson correlation of the pairs' two coordinates; empty if under 3 pairs or no variance. */
  static OptionalDouble pearson(List<double[]> pairs) {
    int n = pairs.size();
    if (n < 3) {
      return OptionalDouble.empty();
    }
    double mx = 0;
    double my = 0;
    for (double[] p : pairs) {
      mx += p[0];
      my += p[1];
    }
    mx /= n;
    my /= n;
    double sxy = 0;
    double sxx = 0;
    double syy = 0;
    for (double[] p : pairs) {
      sxy += (p[0] - mx) * (p[1] - my);
      sxx += (p[0] - mx) * (p[0] - mx);
      syy += (p[1] - my) * (p[1] - my);
    }
    if (sxx <= 1e-12 || syy <= 1e-12) {
      return OptionalDouble.empty();
    }
    return OptionalDouble.of(sxy / Math.sqrt(sxx * syy));
  }

  /** All of the above for one run. */
  public static LearningCurve curve(RunResult run) {
    boolean[][] s = solved(run.rows(), run.epochs());
    return new LearningCurve(
        run.strategy(), run.seed(), epochAccuracy(s), cumulativeSuccess(s), forgettingRate(s), run.memoryCounts(),
        transferAccuracy(run.transferRows()), qPredictsNext(run.rows()),
        misledRate(run.rows()), run.wallNanos() / 1e9,
        run.rows().stream().mapToInt(EpisodeRow::shownChars).average().orElse(0));
  }

  private static int count(boolean[] xs) {
    int n = 0;
    for (boolean x : xs) {
      n += x ? 1 : 0;
    }
    return n;
  }

  private static double fraction(int n, int of) {
    return of == 0 ? 0 : (double) n / of;
  }
}
