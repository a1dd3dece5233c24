package io.memloop;

/** Hand-made vectors for tests. */
final class TestVectors {
  private TestVectors() {}

  /** The unit vector along {@code components}, padded with zeros to {@code dim}. */
  static float[] unit(int dim, double... components) {
    float[] out = new float[dim];
    for (int i = 0; i < components.length; i++) {
      out[i] = (float) components[i];
    }
    return Vectors.normalized(out, "v");
  }
}
