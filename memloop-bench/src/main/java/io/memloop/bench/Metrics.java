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
final class Metrics {
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

  /** All of the above for one run. */
  static LearningCurve curve(RunResult run) {
    boolean[][] s = solved(run.rows(), run.epochs());
    return new LearningCurve(
        run.strategy(), run.seed(), epochAccuracy(s), cumulativeSuccess(s), forgettingRate(s), run.memoryCounts());
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
