package io.memloop.store;

import io.memloop.Candidate;
import java.time.Instant;
import java.util.List;

/** A retrieval record before the store has given it an id. */
public record RetrievalRecordDraft(
    String namespace, Instant createdAt, Instant expiresAt, List<Candidate> candidates, Annotations annotations) {
  public RetrievalRecordDraft {
    candidates = List.copyOf(candidates);
    java.util.Objects.requireNonNull(annotations, "annotations");
  }

  /** A draft without annotations. */
  public RetrievalRecordDraft(String namespace, Instant createdAt, Instant expiresAt, List<Candidate> candidates) {
    this(namespace, createdAt, expiresAt, candidates, Annotations.EMPTY);
  }

  public RetrievalRecord withId(String id) {
    return new RetrievalRecord(id, namespace, createdAt, expiresAt, candidates, annotations);
  }
}
