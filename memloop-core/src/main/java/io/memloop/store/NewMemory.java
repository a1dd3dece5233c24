package io.memloop.store;

import io.memloop.Outcome;
import java.time.Instant;

/**
 * A memory about to be stored; the store assigns its id and intent group. The engine has already
 * validated every field and normalised the embedding to unit length.
 */
public record NewMemory(
    String namespace,
    String intentText,
    float[] intentEmbedding,
    String experience,
    Outcome outcome,
    double initialQ,
    Instant createdAt) {}
