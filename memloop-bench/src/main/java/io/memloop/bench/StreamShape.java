package io.memloop.bench;

import io.memloop.MemLoopException;

/**
 * The shape of a stream ({@link StreamSource}).
 *
 * @param length instances played, each once
 * @param driftAt where the drift happens, as a fraction of {@code length} (the first changed instance is
 *     {@code floor(driftAt × length)})
 * @param driftedShare the share of kinds whose right procedure or answer changes at the drift, rounded to whole
 *     kinds, at least one
 */
public record StreamShape(int length, double driftAt, double driftedShare) {
  /** Instances per run unless {@code --stream-length} says otherwise. */
  public static final int DEFAULT_LENGTH = 2000;

  public StreamShape {
    if (length < 100 || length > 100_000) {
      throw MemLoopException.invalid("streamLength", "must be in [100, 100000], got " + length);
    }
    if (!(driftAt > 0 && driftAt < 1)) {
      throw MemLoopException.invalid("driftAt", "must be in (0, 1), got " + driftAt);
    }
    if (!(driftedShare > 0 && driftedShare <= 1)) {
      throw MemLoopException.invalid("driftedShare", "must be in (0, 1], got " + driftedShare);
    }
  }

  /** {@link #DEFAULT_LENGTH} instances, the drift halfway, a third of the kinds drifting. */
  public static StreamShape defaults() {
    return new StreamShape(DEFAULT_LENGTH, 0.5, 1.0 / 3);
  }

  /** Index of the first instance played in the changed world. */
  public int driftIndex() {
    return (int) Math.floor(driftAt * length);
  }
}
