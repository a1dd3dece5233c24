package io.memloop;

/**
 * Size and utility distribution of one namespace.
 *
 * @param meanQ mean utility over all memories (0 when there are none)
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
    long totalVisits) {}
