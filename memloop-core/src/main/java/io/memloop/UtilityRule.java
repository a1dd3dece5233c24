package io.memloop;

/**
 * How a reward moves a memory's utility: one explicit, separately tested piece of the loop.
 *
 * <p>The rule is MemRL's (arXiv 2601.03192, eq. 5, Monte-Carlo form): {@code Q ← Q + α(target − Q)},
 * an exponential moving average of the targets, whose expectation converges to the mean target for a
 * stationary reward and which weights recent evidence more, so a memory that stops working loses its
 * utility at rate α. The target is the episode's reward.
 *
 * <p>The update never leaves the interval between the old Q and the target (so Q stays inside the reward
 * range when it starts there) and gives a finite result for every finite input: where {@code target − Q}
 * overflows a double, it is computed as {@code (1−α)Q + α·target} instead. For every other input it is
 * exactly {@code Q + α(target − Q)}, the reference code's arithmetic, so replays are byte-identical.
 *
 * @param alpha the learning rate α in [0, 1]
 */
public record UtilityRule(double alpha) {
  public UtilityRule {
    Checks.requireInRange(alpha, 0, 1, "alpha");
  }

  /** The rule of a configuration. */
  public static UtilityRule of(MemLoopConfig config) {
    return new UtilityRule(config.alpha());
  }

  /** {@code q} moved towards {@code target}. */
  public double update(double q, double target) {
    double next = q + alpha * (target - q);
    if (!Double.isFinite(next)) { // target − q overflowed
      next = (1 - alpha) * q + alpha * target;
    }
    return Math.max(Math.min(q, target), Math.min(Math.max(q, target), next));
  }

  /** {@code u} after one reward whose target is {@code target}: Q moved, one more visit. */
  public Utility update(Utility u, double target) {
    return new Utility(update(u.q(), target), u.visits() + 1);
  }
}
