package io.memloop.store;

import io.memloop.Candidate;
import java.time.Instant;
import java.util.List;

/**
 * A retrieval the store keeps until it is rewarded or expires, so that {@code retrieve} and
 * {@code reward} can come from different processes. The whole candidate pool with its selection
 * probabilities is kept: it is the log from which a new policy can later be evaluated. Candidates are
 * in the order the policy ranked them; {@link #annotations} carry what the learning policies need at the reward
 * (per-task learning's {@code io.memloop.policy.TaskNote}, for one), kept by the store as they are.
 */
public record RetrievalRecord(
    String id, String namespace, Instant createdAt, Instant expiresAt, List<Candidate> candidates, Annotations annotations) {
  public RetrievalRecord {
    candidates = List.copyOf(candidates);
    java.util.Objects.requireNonNull(annotations, "annotations");
  }

  /** A retrieval without annotations. */
  public RetrievalRecord(String id, String namespace, Instant createdAt, Instant expiresAt, List<Candidate> candidates) {
    this(id, namespace, createdAt, expiresAt, candidates, Annotations.EMPTY);
  }

  /** Ids of the memories the policy selected. */
  public List<String> selectedIds() {
    return candidates.stream().filter(Candidate::selected).map(Candidate::memoryId).toList();
  }
}
