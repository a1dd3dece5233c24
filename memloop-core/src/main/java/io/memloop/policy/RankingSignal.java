package io.memloop.policy;

import io.memloop.store.Annotations;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A ranking signal added to Phase B without any change to the stores: it reorders the eligible candidates and
 * keeps whatever it learns as one {@link Annotations annotation} on each memory, which every store persists
 * without reading it. It runs after {@link QMinFilter} and before {@link TaskOrder}: per-task learning's tiers,
 * exploration and the note-depth draw act on the order it leaves (a stable reorder keeps the greedy order among
 * the candidates it does not distinguish).
 *
 * <p>Per retrieval the engine reads the signal's annotation of every pooled memory (one store call for all
 * signals), calls {@link #reorder}, and once the selection is made asks {@link #after} what each pooled memory's
 * annotation becomes, writing the changed ones back (one store call). Concurrent retrievals of one namespace read
 * and write annotations without a lock between them: the last write of a memory's annotation wins, so a signal's
 * state is advisory, as a ranking hint should be. Add signals with {@code MemLoop.Builder#rankingSignal}.
 */
public interface RankingSignal {

  /** The annotation this signal owns on each memory ({@code [a-z0-9.-]{1,64}}, not used by another signal). */
  String annotation();

  /**
   * Reorders the eligible candidates.
   *
   * @param task the asking task's key (the same task asked again has the same key)
   * @param pool the candidate pool, by pool index
   * @param state by pool index, the memory's annotation of this signal; null where it has none
   * @param order pool indexes: {@code order[0..eligible)} the eligible candidates in greedy order, to be permuted
   *     in place; the rest must not be touched
   * @param eligible how many of {@code order} are eligible
   */
  void reorder(String task, List<PoolEntry> pool, Annotations.@Nullable Entry[] state, int[] order, int eligible);

  /**
   * What a pooled memory's annotation becomes once the retrieval has decided.
   *
   * @param before the annotation it had (null if none)
   * @param shown whether the retrieval selected it
   * @return the new annotation, or null to leave it as it is
   */
  Annotations.@Nullable Entry after(String task, PoolEntry entry, Annotations.@Nullable Entry before, boolean shown);

  /** Runs {@code signal}'s reorder and checks that it only permuted the eligible candidates. */
  static void reorderChecked(RankingSignal signal, String task, List<PoolEntry> pool,
      Annotations.@Nullable Entry[] state, int[] order, int eligible) {
    int[] before = Arrays.copyOf(order, order.length);
    signal.reorder(task, pool, state, order, eligible);
    int[] a = Arrays.copyOf(before, eligible);
    int[] b = Arrays.copyOf(order, eligible);
    Arrays.sort(a);
    Arrays.sort(b);
    if (!Arrays.equals(a, b) || !Arrays.equals(before, eligible, before.length, order, eligible, order.length)) {
      throw new IllegalStateException("ranking signal '" + signal.annotation()
          + "' did not permute the eligible candidates only: " + Arrays.toString(before) + " became " + Arrays.toString(order));
    }
  }
}
