package io.memloop;

/** A memory's learned utility {@code q} and the number of rewards that shaped it. */
public record Utility(double q, long visits) {
  public Utility {
    Checks.requireFinite(q, "q");
    if (visits < 0) {
      throw MemLoopException.invalid("visits", "must be >= 0, got " + visits);
    }
  }
}
