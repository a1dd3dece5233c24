package io.memloop.policy;

import io.memloop.store.Annotations;
import org.jspecify.annotations.Nullable;

/**
 * What the namespace-level two-armed draws of Phase B ({@link Doubt}, {@link DirectionsUse}) share: the arm kept with
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
   * The record after one episode of the first arm ({@code first}) or the second, rewarded {@code unit} (in [0, 1]);
   * {@code entry} null (or not of four) is an empty record.
   */
  static double[] add(double @Nullable [] entry, boolean first, double unit) {
    double[] e = entry != null && entry.length == 4 ? entry.clone() : new double[4];
    int at = first ? 0 : 2;
    e[at]++;
    e[at + 1] += unit;
    return e;
  }
}
