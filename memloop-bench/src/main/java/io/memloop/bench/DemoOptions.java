package io.memloop.bench;

import io.memloop.MemLoopException;
import io.memloop.bench.ops.RecurringTasksEnvironment;

/**
 * Knobs of {@link Demo#run}; start from {@link #defaults()} and change what the user set.
 *
 * @param seed generates the tasks and drives every random choice: same seed, same table
 * @param epochs passes over the task list; memory persists across them
 * @param families task families (template × subject) of the recurring-ops environment
 * @param twinsPerFamily look-alike phrasings per family, each its own task with its own correct
 *     answer (1 means no distractor twins)
 * @param staleShare fraction of tasks whose memory starts with a stale experience: a "what worked"
 *     under the task's exact intent whose procedure no longer works
 */
public record DemoOptions(long seed, int epochs, int families, int twinsPerFamily, double staleShare) {
  public static final int MAX_EPOCHS = 100;

  public DemoOptions {
    if (epochs < 1 || epochs > MAX_EPOCHS) {
      throw MemLoopException.invalid("epochs", "must be in [1, " + MAX_EPOCHS + "], got " + epochs);
    }
    int maxFamilies = RecurringTasksEnvironment.maxFamilies();
    if (families < 1 || families > maxFamilies) {
      throw MemLoopException.invalid("families", "must be in [1, " + maxFamilies + "], got " + families);
    }
    int maxTwins = RecurringTasksEnvironment.maxTwinsPerFamily();
    if (twinsPerFamily < 1 || twinsPerFamily > maxTwins) {
      throw MemLoopException.invalid("twinsPerFamily", "must be in [1, " + maxTwins + "], got " + twinsPerFamily);
    }
    if (!(staleShare >= 0 && staleShare <= 1)) {
      throw MemLoopException.invalid("staleShare", "must be in [0, 1], got " + staleShare);
    }
  }

  /**
   * Seed 1, 5 epochs, 20 families × 3 twins = 60 tasks, a quarter of them with a stale memory: a
   * couple of seconds with MiniLM on two cores, most of it loading the model.
   *
   * <p>Why stale memories by default: a twin's memory is a distractor for its twins but the right
   * memory for its own task, so it is not a memory "that does not help"; stale memories are.
   */
  public static DemoOptions defaults() {
    return new DemoOptions(1, 8, 20, 3, 0.25);
  }

  public DemoOptions withSeed(long seed) {
    return new DemoOptions(seed, epochs, families, twinsPerFamily, staleShare);
  }

  public DemoOptions withEpochs(int epochs) {
    return new DemoOptions(seed, epochs, families, twinsPerFamily, staleShare);
  }

  public DemoOptions withSize(int families, int twinsPerFamily) {
    return new DemoOptions(seed, epochs, families, twinsPerFamily, staleShare);
  }

  public DemoOptions withStaleShare(double staleShare) {
    return new DemoOptions(seed, epochs, families, twinsPerFamily, staleShare);
  }

  /** Tasks per epoch. */
  public int tasks() {
    return families * twinsPerFamily;
  }
}
