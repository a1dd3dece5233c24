package io.memloop.bench;

import io.memloop.MemLoopException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.random.RandomGenerator;

/**
 * How the environments lay out a stream ({@link StreamSource}): how many instances each kind gets, in what order
 * they come, and which kinds drift. Shared so that every environment's stream has the same shape of recurrence.
 *
 * <p>Stateless; every choice comes from the generator passed in.
 */
public final class StreamKinds {
  private StreamKinds() {}

  /**
   * Instances per kind for a stream of {@code length}: as equal as the kinds' capacities allow (water-filling: a
   * kind that cannot supply its share gives all it has and the rest is shared among the others), the remainder
   * going to the kinds first in {@code capacities}' order.
   *
   * @param capacities how many never-seen instances each kind can supply
   * @throws MemLoopException INVALID_ARGUMENT on {@code streamLength} when all kinds together supply fewer
   */
  public static int[] quotas(int length, int[] capacities) {
    long total = Arrays.stream(capacities).asLongStream().sum();
    if (total < length) {
      throw MemLoopException.invalid("streamLength", "this environment supplies at most " + total
          + " never-seen instances at this size, got " + length);
    }
    int[] out = new int[capacities.length];
    int left = length;
    while (left > 0) {
      int open = 0;
      for (int k = 0; k < capacities.length; k++) {
        if (out[k] < capacities[k]) {
          open++;
        }
      }
      int share = Math.max(1, left / open);
      for (int k = 0; k < capacities.length && left > 0; k++) {
        int add = Math.min(Math.min(share, capacities[k] - out[k]), left);
        out[k] += add;
        left -= add;
      }
    }
    return out;
  }

  /**
   * The play order of a stream with {@code quotas[k]} instances of kind {@code k}: the list of kind indices, each
   * kind's instances spread evenly over the whole stream (the j-th of n at about {@code (j + u) / n} of the way,
   * u uniform in [0, 1)), so that every kind recurs from the start to the end and on both sides of the drift.
   */
  public static List<Integer> order(int[] quotas, RandomGenerator rnd) {
    record Slot(double at, int kind) {}
    List<Slot> slots = new ArrayList<>();
    for (int k = 0; k < quotas.length; k++) {
      for (int j = 0; j < quotas[k]; j++) {
        slots.add(new Slot((j + rnd.nextDouble()) / quotas[k], k));
      }
    }
    // Ties (practically never) go to the lower kind index: the order is total.
    slots.sort(Comparator.comparingDouble(Slot::at).thenComparingInt(Slot::kind));
    return slots.stream().map(Slot::kind).toList();
  }

  /**
   * The kinds that drift: {@code round(share × kinds)} of them, at least one, chosen uniformly among {@code kinds}
   * indices.
   */
  public static Set<Integer> drifting(int kinds, double share, RandomGenerator rnd) {
    if (kinds < 1) {
      throw new IllegalArgumentException("a stream needs at least one kind, got " + kinds);
    }
    int n = Math.clamp(Math.round(share * kinds), 1, kinds);
    List<Integer> all = new ArrayList<>();
    for (int k = 0; k < kinds; k++) {
      all.add(k);
    }
    Collections.shuffle(all, rnd);
    return Collections.unmodifiableSet(new TreeSet<>(all.subList(0, n)));
  }
}
