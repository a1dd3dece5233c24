package io.memloop;

import io.memloop.policy.TaskOrder;
import io.memloop.store.MemoryStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The retention policy of the loop, one explicit piece: what {@code remember} does with an experience the
 * intent group it joins may already hold ({@link MemLoopConfig.Consolidation}), and what a namespace gives up
 * past its capacity bound ({@link MemLoopConfig#maxMemories()}). The engine carries out the decisions.
 * Stateless and thread-safe.
 */
final class Retention {
  private Retention() {}

  /**
   * A member of the intent group a new memory joins, enough to decide without holding the memory.
   *
   * @param sameIntent whether the member is a failure note of the new memory's own intent (the same task): what
   *     a failure merges into; false for every success
   */
  record Member(String id, Outcome outcome, int experienceHash, boolean sameIntent) {
    static Member of(Memory m, float[] intent) {
      // every retrieval of a consolidating namespace builds these: the dot product only where it can matter
      return new Member(m.id(), m.outcome(), m.experience().hashCode(),
          m.outcome() == Outcome.FAILURE && Vectors.dot(intent, m.intentEmbedding()) >= TaskOrder.SAME_INTENT);
    }
  }

  /** What to do with a new experience. */
  sealed interface Decision {}

  /**
   * Store nothing: {@code existing} already holds this experience, as attempt {@code attempt} of its
   * {@link Memory#parts()} (newest first; 0 when the experience is its whole text).
   */
  record Duplicate(Memory existing, int attempt) implements Decision {}

  /** Replace the task's failure note {@code note} by one listing {@code merged}'s attempts. */
  record Merge(Memory note, String merged) implements Decision {}

  /** Store the experience as a new memory. */
  record Store() implements Decision {}

  /**
   * The decision for {@code experience} with {@code outcome} joining a group whose members are {@code group}
   * (oldest first); {@code load} reads a member back.
   */
  static Decision decide(MemLoopConfig.Consolidation consolidation, List<Member> group,
      Function<String, Optional<Memory>> load, String experience, Outcome outcome) {
    if (consolidation == MemLoopConfig.Consolidation.NONE) {
      return new Store();
    }
    int hash = experience.hashCode();
    for (int i = group.size() - 1; i >= 0; i--) { // the newest copy
      Member m = group.get(i);
      if (m.outcome() == outcome && m.experienceHash() == hash) {
        Optional<Memory> found = load.apply(m.id()).filter(x -> x.experience().equals(experience));
        if (found.isPresent()) {
          return new Duplicate(found.get(), 0);
        }
      }
    }
    if (consolidation == MemLoopConfig.Consolidation.MERGE_FAILURES && outcome == Outcome.FAILURE) {
      for (int i = group.size() - 1; i >= 0; i--) { // the task's newest failure note
        Member m = group.get(i);
        if (m.outcome() == Outcome.FAILURE && m.sameIntent()) {
          Optional<Memory> note = load.apply(m.id());
          if (note.isPresent()) {
            List<String> attempts = note.get().parts();
            int at = attempts.indexOf(experience);
            return at >= 0 ? new Duplicate(note.get(), at) : new Merge(note.get(), merged(attempts, experience));
          }
        }
      }
    }
    return new Store();
  }

  /** {@link #decide} over a group read whole from the store. */
  static Decision decide(MemLoopConfig.Consolidation consolidation, List<Memory> group, float[] intent, String experience,
      Outcome outcome) {
    Map<String, Memory> byId = new HashMap<>();
    List<Member> members = new ArrayList<>(group.size());
    for (Memory m : group) {
      byId.put(m.id(), m);
      members.add(Member.of(m, intent));
    }
    return decide(consolidation, members, id -> Optional.ofNullable(byId.get(id)), experience, outcome);
  }

  /**
   * The text of a note listing {@code noteAttempts} (a note's {@link Memory#parts()}) with {@code attempt} as its
   * newest attempt, at most the newest {@code MAX_MERGED_ATTEMPTS}.
   */
  static String merged(List<String> noteAttempts, String attempt) {
    List<String> attempts = new ArrayList<>(List.of(attempt));
    attempts.addAll(noteAttempts);
    return Memory.joinParts(attempts, MemLoopConfig.Consolidation.MAX_MERGED_ATTEMPTS);
  }

  /**
   * Eviction under a capacity bound: while {@code namespace} holds more than {@code max} memories, deletes
   * the lowest-utility one ({@link MemoryStore#evictionCandidate}: lowest Q, then fewest visits, then oldest),
   * never {@code keepId}; {@code forgot} hears of each deletion.
   */
  static void evictBeyond(MemoryStore store, String namespace, long max, String keepId, java.time.InstantSource clock,
      Consumer<String> forgot) {
    while (store.counts(namespace, clock.instant()).memories() > max) {
      Optional<String> victim = store.evictionCandidate(namespace, keepId);
      if (victim.isEmpty()) {
        return;
      }
      if (store.delete(namespace, victim.get())) { // false if a concurrent eviction took it first: look again
        forgot.accept(victim.get());
      }
    }
  }
}
