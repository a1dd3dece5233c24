package io.memloop.policy;

import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.IntentMatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One candidate of Phase B's pool: what {@link SelectionPipeline} needs to know of a memory, and nothing more,
 * so that a logged pool (off-policy evaluation) runs the same steps as the engine without a {@link Memory}.
 *
 * @param id the memory's id
 * @param similarity the similarity Phase B uses: the cosine to the query of the memory's intent group (MemRL) or
 *     of its own intent ({@link MemLoopConfig.SimilarityScope}), or a logged one
 * @param q the memory's utility
 * @param createdAt when the memory was created: the {@link MemLoopConfig.TieBreak#NEWEST_FIRST} tie-break
 * @param outcome how the producing episode ended (per-task learning explores success experiences; failure notes
 *     have a depth)
 * @param intentEmbedding the memory's own intent (per-task learning's same-task test), or null when unknown: such
 *     an entry counts as another intent's memory
 * @param memory the memory itself, when there is one: what the selection shows, and a failure note's attempts
 */
public record PoolEntry(
    String id, double similarity, double q, Instant createdAt, Outcome outcome, float @Nullable [] intentEmbedding,
    @Nullable Memory memory) {
  public PoolEntry {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(outcome, "outcome");
  }

  /** The entry of a stored memory, with the similarity Phase B uses for it. */
  public static PoolEntry of(Memory m, double similarity) {
    return new PoolEntry(m.id(), similarity, m.q(), m.createdAt(), m.outcome(), m.intentEmbedding(), m);
  }

  /**
   * Phase A's matches as Phase B's pool: every memory of every matched group, in the store's order (groups by
   * similarity, a group's memories oldest first), with its group's similarity or, under
   * {@link MemLoopConfig.SimilarityScope#MEMORY}, the cosine of its own intent to {@code query}.
   */
  public static List<PoolEntry> pool(float[] query, List<IntentMatch> matches, MemLoopConfig.SimilarityScope scope) {
    int n = 0;
    for (IntentMatch match : matches) {
      n += match.memories().size();
    }
    List<PoolEntry> pool = new ArrayList<>(n);
    boolean ownIntent = scope == MemLoopConfig.SimilarityScope.MEMORY;
    for (IntentMatch match : matches) {
      for (Memory m : match.memories()) {
        pool.add(of(m, ownIntent ? Vectors.dot(query, m.intentEmbedding()) : match.similarity()));
      }
    }
    return pool;
  }
}
