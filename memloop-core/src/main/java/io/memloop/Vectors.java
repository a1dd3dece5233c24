package io.memloop;

/**
 * Cosine similarity on unit vectors. Public because store implementations and benchmark environments
 * compute the same similarity the engine does; everything MemLoop stores is L2-normalised on entry,
 * so cosine is a dot product.
 */
public final class Vectors {
  private Vectors() {}

  /**
   * Returns a unit-length copy of {@code embedding}.
   *
   * @throws MemLoopException naming {@code field} if the vector is empty, has a non-finite component
   *     or is all zeros
   */
  public static float[] normalized(float[] embedding, String field) {
    if (embedding.length == 0) {
      throw MemLoopException.invalid(field, "must not be empty");
    }
    double sumSquares = 0;
    for (int i = 0; i < embedding.length; i++) {
      float v = embedding[i];
      if (!Float.isFinite(v)) {
        throw MemLoopException.invalid(field, "component " + i + " is not a finite number (" + v + ")");
      }
      sumSquares += (double) v * v;
    }
    if (sumSquares == 0) {
      throw MemLoopException.invalid(field, "must not be the zero vector");
    }
    double inv = 1.0 / Math.sqrt(sumSquares);
    float[] out = new float[embedding.length];
    for (int i = 0; i < embedding.length; i++) {
      out[i] = (float) (embedding[i] * inv);
    }
    return out;
  }

  /** Dot product; equals cosine similarity for unit vectors. */
  public static double dot(float[] a, float[] b) {
    assert a.length == b.length : "a.length=" + a.length + " b.length=" + b.length;
    double sum = 0;
    for (int i = 0; i < a.length; i++) {
      sum += a[i] * b[i];
    }
    return sum;
  }
}
