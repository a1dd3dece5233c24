package io.memloop.bench.strategy;

import io.memloop.Memory;
import java.util.List;

/**
 * What a strategy retrieved for one task.
 *
 * @param retrievalId the engine's retrieval to reward, {@code ""} when the strategy keeps none
 * @param shown the experiences shown to the policy, in rank order
 * @param candidates size of the candidate pool the strategy chose from
 */
public record Recall(String retrievalId, List<Memory> shown, int candidates) {
  static final Recall NONE = new Recall("", List.of(), 0);

  public Recall {
    shown = List.copyOf(shown);
    if (candidates < shown.size()) {
      throw new IllegalArgumentException("candidates=" + candidates + " < shown=" + shown.size());
    }
  }
}
