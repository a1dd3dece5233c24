package io.memloop;

/** How the episode that produced a memory ended. Drives {@code Q_init} when it is set per outcome. */
public enum Outcome {
  SUCCESS,
  FAILURE,
  UNKNOWN;

  /** Outcome of an episode whose reward is known: positive rewards count as success. */
  public static Outcome ofReward(double reward) {
    return reward > 0 ? SUCCESS : FAILURE;
  }
}
