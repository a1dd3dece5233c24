package io.memloop.bench;

/**
 * One task as a strategy sees it: an id and the natural-language intent that is embedded and
 * stored. The correct answer stays inside the {@link Environment}, so nothing a strategy can read
 * leaks it.
 */
public record Task(String id, String intent) {
  public Task {
    if (id.isBlank()) {
      throw new IllegalArgumentException("id must not be blank");
    }
    if (intent.isBlank()) {
      throw new IllegalArgumentException("intent of task " + id + " must not be blank");
    }
  }
}
