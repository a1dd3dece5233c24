package io.memloop.store;

import io.memloop.Candidate;
import java.time.Instant;
import java.util.List;

/**
 * A retrieval the store keeps until it is rewarded or expires, so that {@code retrieve} and
 * {@code reward} can come from different processes. The whole candidate pool with its selection
 * probabilities is kept: it is the log from which a new policy can later be evaluated.
 */
public record RetrievalRecord(
    String id, String namespace, Instant createdAt, Instant expiresAt, List<Candidate> candidates) {
  public RetrievalRecord {
    candidates = List.copyOf(candidates);
  }

  /** Ids of the memories the policy selected. */
  public List<String> selectedIds() {
    return candidates.stream().filter(Candidate::selected).map(Candidate::memoryId).toList();
  }
}
