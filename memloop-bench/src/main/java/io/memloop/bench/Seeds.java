package io.memloop.bench;

import java.nio.charset.StandardCharsets;

/**
 * Derives independent seeds from a run seed, so every random stream of a run is reproducible and
 * adding a stream does not shift the others.
 */
public final class Seeds {
  private Seeds() {}

  /** A seed for the stream named {@code label} under {@code seed}. */
  public static long derive(long seed, String label) {
    long h = seed;
    for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
      h = mix(h ^ b);
    }
    return mix(h);
  }

  /** A seed for item {@code (a, b)} under {@code seed}, e.g. (epoch, task index). */
  static long derive(long seed, int a, int b) {
    return mix(mix(mix(seed) ^ a) ^ b);
  }

  /** SplitMix64's finaliser (Steele, Lea, Flood 2014): a bijection that scrambles every bit. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
