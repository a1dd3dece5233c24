package io.memloop.events;

import io.memloop.Intent;
import io.memloop.MemLoopConfig;
import io.memloop.Memory;
import io.memloop.Retrieval;
import io.memloop.RewardResult;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where the engine reports every operation it completed, for an execution history (the event log of
 * {@code memloop-history}: JSON Lines that can be imported, replayed, evaluated off-policy and exported).
 * Each method is called after the operation succeeded and before it returns to its caller, on the
 * caller's thread. The store made rewards, remembered, edited and forgotten memories durable before returning,
 * retrievals not (a store keeps them with a short delay): a sink that keeps records durably should do the
 * same. A failing sink fails the call after the store changed: sinks should only fail when their records
 * can no longer be kept.
 */
public interface EventSink extends AutoCloseable {
  /** Reports nothing. */
  EventSink NONE = new EventSink() {};

  /**
   * A sink that reports every event to each of {@code sinks}, in the order given (e.g. an event log and a server's
   * in-memory activity). Every sink is called even when one before it fails; the first failure is then thrown,
   * the others added to it as suppressed. Closing closes each.
   */
  static EventSink all(EventSink... sinks) {
    EventSink[] all = sinks.clone();
    for (EventSink s : all) {
      java.util.Objects.requireNonNull(s, "sinks");
    }
    return all.length == 1 ? all[0] : new Tee(all);
  }

  /** A namespace's configuration, before its first other event in this sink and whenever it changes. */
  default void configured(String namespace, Instant at, MemLoopConfig config) {}

  /**
   * {@link #configured(String, Instant, MemLoopConfig)}, with how many embedding models the engine's vectors
   * concatenate ({@code embedderBlocks}, 1 for one model): a namespace whose {@code similarityBlocks} is 0 weighs that
   * many blocks by learned weights. A log that keeps it lets an off-policy evaluation see that its logged
   * similarities are the blocks' mean, not what such a policy ranks by. By default the number is dropped.
   */
  default void configured(String namespace, Instant at, MemLoopConfig config, int embedderBlocks) {
    configured(namespace, at, config);
  }

  /**
   * A retrieval, with its whole candidate pool and selection probabilities; {@code embedding} is the
   * (normalised) query embedding the engine searched with, computed or given.
   */
  default void retrieved(String namespace, Instant at, Intent intent, float[] embedding, Retrieval retrieval) {}

  /** A reward applied to retrieval {@code result.retrievalId()}. */
  default void rewarded(String namespace, Instant at, RewardResult result, @Nullable List<String> usedMemoryIds) {}

  /**
   * A remembered experience; {@code duplicate} when consolidation returned an existing memory instead;
   * {@code retrievalId} the retrieval whose episode produced it, when the caller named one.
   */
  default void remembered(String namespace, Instant at, Memory memory, boolean duplicate, @Nullable String retrievalId) {}

  /**
   * Memories an import stored in one batch ({@link io.memloop.MemLoop#importAll}), each a remembered
   * experience that is no duplicate and names no retrieval. A durable sink may make them durable at once.
   */
  default void rememberedAll(String namespace, Instant at, List<Memory> memories) {
    for (Memory m : memories) {
      remembered(namespace, at, m, false, null);
    }
  }

  /** An edited memory ({@link io.memloop.MemLoop#edit}): {@code memory} as now stored, with its new experience. */
  default void edited(String namespace, Instant at, Memory memory) {}

  /** A deleted memory. */
  default void forgot(String namespace, Instant at, String memoryId) {}

  @Override
  default void close() {}
}
