package io.memloop;

import org.jspecify.annotations.Nullable;

/**
 * Size and utility distribution of one namespace.
 *
 * @param meanQ mean utility over all memories (0 when there are none)
 * @param model the embedding model the store records ({@link io.memloop.store.MemoryStore#model()}); null while
 *     none is recorded (a store only ever used with caller-supplied embeddings)
 */
public record Stats(
    String namespace,
    long memories,
    long intents,
    long pendingRetrievals,
    long successes,
    long failures,
    double meanQ,
    double minQ,
    double maxQ,
    long totalVisits,
    @Nullable EmbeddingModel model) {}
