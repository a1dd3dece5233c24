package io.memloop.bench;

import io.memloop.Outcome;

/**
 * An experience already in memory before the first epoch: an imported runbook entry, or what an
 * older deployment learned. Strategies with memory load it as is; whether it still helps is for the
 * learning to find out.
 */
public record PriorExperience(String intent, String experience, Outcome outcome) {
  public PriorExperience {
    if (intent.isBlank() || experience.isBlank()) {
      throw new IllegalArgumentException("intent and experience must not be blank: " + intent + " / " + experience);
    }
  }
}
