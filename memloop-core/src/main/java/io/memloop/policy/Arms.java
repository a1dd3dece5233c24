package io.memloop.policy;

import io.memloop.store.Annotations;
import org.jspecify.annotations.Nullable;

/**
 * What the namespace-level two-armed draws of Phase B ({@link Doubt}, {@link DirectionsUse}, {@link TextAlone}) share: the arm kept with
 * the retrieval as a one-byte annotation (0 or 1), and the ledger record {@code [first arm's episodes, their summed
 * reward, second arm's episodes, their summed reward]}. Stateless and thread-safe.
 */
final class Arms {
  /** No draw: no annotation, or one this build does not read. */
  static final int NO_DRAW = -1;

  private Arms() {}

  /** {@code annotations} with {@code arm} (0 or 1) kept as annotation {@code name}, version {@code version}. */
  static Annotations into(Annotations annotations, String name, int version, int arm) {
    return annotations.with(name, version, new byte[] {(byte) arm});
  }

  /** The arm (0 or 1) annotation {@code name} holds, or {@link #NO_DRAW} when there is none of {@code version}. */
  static int drawn(Annotations annotations, String name, int version) {
    var entry = annotations.get(name);
    if (entry.isEmpty() || entry.get().version() != version || entry.get().data().length != 1) {
      return NO_DRAW;
    }
    int arm = entry.get().data()[0];
    return arm == 0 || arm == 1 ? arm : NO_DRAW;
  }

  /**
   * The weight each rewarded draw leaves on the record before it: a record counts about the latest
   * {@code 1 / (1 − KEEP)} = 256 draws. An arm's success rate rises as the namespace fills with memories (and moves
   * when the world drifts), so an arm that lost the early draws would otherwise keep its early rate against the other
   * arm's later one, be drawn ever less, and never show that it pays now.
   */
  static final double KEEP = 1 - 1.0 / 256;

  /**
   * The record after one episode of the first arm ({@code first}) or the second, rewarded {@code unit} (in [0, 1]);
   * {@code entry} null (or not of four) is an empty record. Both arms' record is first weighed by {@link #KEEP}: the
   * record counts each episode with weight {@code KEEP^k}, k the number of rewarded draws after it, so an arm that
   * stopped being drawn loses its weight as the other is drawn, and probability matching draws it again.
   */
  static double[] add(double @Nullable [] entry, boolean first, double unit) {
    double[] e = entry != null && entry.length == 4 ? entry.clone() : new double[4];
    for (int i = 0; i < 4; i++) {
      e[i] *= KEEP;
    }
    int at = first ? 0 : 2;
    e[at]++;
    e[at + 1] += unit;
    return e;
  }

  /**
   * Whether two arms would show different memories: another count, another memory or order among the first
   * {@code take} of their orders, or other chances of showing a candidate (beyond rounding).
   */
  static boolean differ(int[] orderA, int takeA, double[] chanceA, int[] orderB, int takeB, double[] chanceB) {
    if (takeA != takeB) {
      return true;
    }
    for (int r = 0; r < takeA; r++) {
      if (orderA[r] != orderB[r]) {
        return true;
      }
    }
    for (int i = 0; i < chanceA.length; i++) {
      if (Math.abs(chanceA[i] - chanceB[i]) > 1e-12) {
        return true;
      }
    }
    return false;
  }
}
