package io.memloop.policy;

import java.util.random.RandomGenerator;

/** Test randomness: none at all, or scripted answers. */
final class Draws {
  private Draws() {}

  /** Fails on any draw: proves a step consumed no randomness. */
  static final RandomGenerator NONE = () -> {
    throw new AssertionError("a draw where none was expected");
  };

  /** Every {@code nextDouble} is {@code value}; counts them. */
  static final class Fixed implements RandomGenerator {
    private final double value;
    int doubles;

    Fixed(double value) {
      this.value = value;
    }

    @Override
    public double nextDouble() {
      doubles++;
      return value;
    }

    @Override
    public long nextLong() {
      throw new AssertionError("only nextDouble is scripted");
    }
  }
}
