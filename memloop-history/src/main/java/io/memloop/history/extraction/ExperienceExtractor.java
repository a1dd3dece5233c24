package io.memloop.history.extraction;

/** Turns a finished trajectory into the experience text to remember. */
@FunctionalInterface
public interface ExperienceExtractor {
  /** What was extracted, and whether it was distilled by the model or is the raw trajectory (fallback). */
  record Extraction(String experience, boolean distilled, String note) {}

  Extraction extract(Trajectory trajectory);
}
