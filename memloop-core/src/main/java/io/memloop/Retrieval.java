package io.memloop;

import java.util.List;

/**
 * The answer to {@link MemLoop#retrieve}: an id to reward later, the whole candidate pool in score
 * order, and the selected memories (with their experience text) in the order to show the agent.
 * An empty {@link #selected()} means nothing passed the similarity gate: run without memory.
 */
public record Retrieval(String id, String namespace, List<Candidate> candidates, List<Memory> selected) {
  public Retrieval {
    candidates = List.copyOf(candidates);
    selected = List.copyOf(selected);
  }
}
