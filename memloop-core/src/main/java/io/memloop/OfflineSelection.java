package io.memloop;

import io.memloop.store.IntentMatch;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Phase B of a configuration on a logged candidate pool, for off-policy evaluation: which memories the
 * configuration would have selected from the candidates a logged retrieval had, with the similarities and
 * utilities they had then. Greedy (exploration off: a deterministic policy is evaluated) and without
 * per-task learning (its ledger is replayed by {@link OfflineLearning}). Ties go by the memory id's sequence
 * ({@code m<n>} grows with time), oldest or newest first as the configuration says: never by the logged pool's
 * order, which is the logging policy's score order and would carry its utilities into a candidate that ignores them.
 */
public final class OfflineSelection {
  private OfflineSelection() {}

  /** Ids of the candidates {@code config} would select, in the order it would show them. */
  public static List<String> select(List<Candidate> pool, MemLoopConfig config) {
    MemLoopConfig greedy = config.toBuilder()
        .set("similarityScope", "INTENT_GROUP") // each candidate is its own group: its logged similarity is used
        .set("taskLearning", "OFF")
        .set("epsilon", "0")
        .set("exploration", "NONE")
        .build();
    List<IntentMatch> matches = new ArrayList<>(pool.size());
    float[] unit = {1f};
    for (Candidate c : oldestFirst(pool)) {
      // newest-first ties by the id's sequence number; ids of another form sort as oldest
      long seq = io.memloop.store.MemoryStore.sequenceOf(c.memoryId());
      Instant created = Instant.ofEpochSecond(Math.max(0, Math.min(seq, Instant.MAX.getEpochSecond())));
      Memory m = new Memory(c.memoryId(), "offline", c.memoryId(), "", unit, "-", Outcome.UNKNOWN, c.q(), 0, created, created);
      matches.add(new IntentMatch(c.memoryId(), c.similarity(), List.of(m)));
    }
    TwoPhaseSelector.Selection s = TwoPhaseSelector.select(unit, matches, greedy, new SplittableRandom(0));
    return s.selected().stream().map(Memory::id).toList();
  }

  /**
   * The pool in the order a store lists memories, oldest first (by the id's sequence; ids of another form first,
   * in their logged order): the order Phase B's stable sort leaves ties in.
   */
  static List<Candidate> oldestFirst(List<Candidate> pool) {
    List<Candidate> sorted = new ArrayList<>(pool);
    sorted.sort(java.util.Comparator.comparingLong(c -> io.memloop.store.MemoryStore.sequenceOf(c.memoryId())));
    return sorted;
  }
}
