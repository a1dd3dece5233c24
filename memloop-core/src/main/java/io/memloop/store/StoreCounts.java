package io.memloop.store;

/** Cheap counts a store keeps per namespace. */
public record StoreCounts(long memories, long intents, long pendingRetrievals) {}
