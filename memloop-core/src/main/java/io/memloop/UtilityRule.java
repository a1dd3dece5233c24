package io.memloop;

/**
 * How a reward moves a memory's utility: one explicit, separately tested piece of the loop.
 *
 * <p>The rule is MemRL's (arXiv 2601.03192, eq. 5): {@code Q ← Q + α(target − Q)}, an exponential moving
 * average of the targets, whose expectation converges to the mean target for a stationary reward and which
 * weights recent evidence more, so a memory that stops working loses its utility at rate α. The target is
 * the reward (Monte-Carlo, the reference code's γ = 0), or, for a step of a multi-step episode whose next
 * retrieval is named, the Bellman/TD target {@code r + γ·V'} with V' the highest utility among the memories
 * that next retrieval selected ({@link #target}).
 *
 * <p>The update never leaves the interval between the old Q and the target (so Q stays inside the reward
 * range when it starts there) and gives a finite result for every finite input: where {@code target − Q}
 * overflows a double, it is computed as {@code (1−α)Q + α·target} instead. For every other input it is
 * exactly {@code Q + α(target − Q)}, the reference code's arithmetic, so replays are byte-identical.
 *
 * @param alpha the learning rate α in [0, 1]
 * @param gamma the discount γ in [0, 1] of the next step's value
 */
public record UtilityRule(double alpha, double gamma) {
  public UtilityRule {
    Checks.requireInRange(alpha, 0, 1, "alpha");
    Checks.requireInRange(gamma, 0, 1, "gamma");
  }

  /** Monte-Carlo: the target is the reward. */
  public UtilityRule(double alpha) {
    this(alpha, 0);
  }

  /** The rule of a configuration. */
  public static UtilityRule of(MemLoopConfig config) {
    return new UtilityRule(config.alpha(), config.gamma());
  }

  /**
   * The target of a reward: {@code reward}, plus {@code γ·nextValue} when the next step's value is known
   * (a finite result for finite inputs: a sum that overflows is clamped to the largest finite double).
   */
  public double target(double reward, java.util.OptionalDouble nextValue) {
    if (nextValue.isEmpty() || gamma == 0) {
      return reward;
    }
    double t = reward + gamma * nextValue.getAsDouble();
    return Double.isFinite(t) ? t : Math.copySign(Double.MAX_VALUE, t);
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
