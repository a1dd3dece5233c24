package io.memloop.store;

import io.memloop.Candidate;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Utility;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Copies a namespace from one {@link MemoryStore} to another through the store SPI alone, so any two stores work
 * (the embedded store to SolrCloud when a tenant outgrows one machine, or back). What is copied is exact: every
 * memory with its texts, embedding, outcome, creation time, Q, visit count and last update time, the intent groups
 * (memories grouped together stay together, in the same order), and the namespace's recorded configuration.
 *
 * <p>Not copied: retrievals still waiting for their reward (a reward sent later to the new store is reported
 * unknown) and the per-task learning statistics (they are relearned from new rewards). Memory and group ids are
 * the target store's. The visit counts and update times are set by one already-rewarded retrieval per
 * {@value #UTILITY_BATCH} memories, which stays in the target store as a record of the copy.
 */
public final class StoreCopy {
  /** Memories whose utility one copy retrieval restores. */
  static final int UTILITY_BATCH = 256;

  private StoreCopy() {}

  /** What one namespace's copy did. */
  public record Result(String namespace, long memories, long groups, boolean settings) {}

  /**
   * Copies {@code namespace} from {@code from} into {@code to}, where it must not hold any memory yet.
   * {@code progress} hears the number of memories copied so far, after each one.
   */
  public static Result copy(MemoryStore from, MemoryStore to, String namespace, LongConsumer progress) {
    if (from.dimension() != to.dimension()) {
      throw MemLoopException.invalid("--to", "holds " + to.dimension() + "-d vectors, the source " + from.dimension() + "-d");
    }
    if (to.counts(namespace, Instant.now()).memories() > 0 || !to.page(namespace, null, 1).isEmpty()) {
      throw new MemLoopException(MemLoopException.Reason.CONFLICT, "--to",
          "--to: namespace " + namespace + " already holds memories there; copy into a namespace that is empty");
    }
    List<Memory> memories = new ArrayList<>();
    from.forEachMemory(namespace, memories::add);
    Map<String, String> groups = new HashMap<>(); // source intent id -> target intent id
    Map<String, Utility> restore = new HashMap<>(); // target memory id -> its utility
    Map<String, Instant> updated = new HashMap<>();
    long copied = 0;
    for (Memory m : memories) {
      NewMemory nm = new NewMemory(namespace, m.intentText(), m.intentEmbedding(), m.experience(), m.outcome(), m.q(),
          m.createdAt());
      String group = groups.get(m.intentId());
      // a group's first memory starts a new group (no threshold is met); the others join it by name
      Memory stored = group == null ? to.insert(nm, Double.POSITIVE_INFINITY) : to.insert(nm, Double.POSITIVE_INFINITY, group);
      groups.putIfAbsent(m.intentId(), stored.intentId());
      if (m.visits() > 0 || !m.updatedAt().equals(m.createdAt())) {
        restore.put(stored.id(), m.utility());
        updated.put(stored.id(), m.updatedAt());
      }
      progress.accept(++copied);
    }
    restoreUtilities(to, namespace, restore, updated);
    boolean settings = false;
    var recorded = from.settings(namespace);
    if (recorded.isPresent()) {
      to.saveSettings(namespace, recorded.get());
      settings = true;
    }
    return new Result(namespace, copied, groups.size(), settings);
  }

  /** Sets visit counts and update times (the copy already carried Q) with rewards whose rule returns them. */
  private static void restoreUtilities(MemoryStore to, String ns, Map<String, Utility> restore, Map<String, Instant> updated) {
    // memories last updated at the same instant share a retrieval: its reward's time becomes their update time
    Map<Instant, List<String>> byTime = new HashMap<>();
    restore.keySet().forEach(id -> byTime.computeIfAbsent(updated.get(id), t -> new ArrayList<>()).add(id));
    for (var e : byTime.entrySet()) {
      List<String> ids = e.getValue();
      for (int from = 0; from < ids.size(); from += UTILITY_BATCH) {
        List<Candidate> selected = new ArrayList<>();
        for (String id : ids.subList(from, Math.min(ids.size(), from + UTILITY_BATCH))) {
          selected.add(new Candidate(id, 1, restore.get(id).q(), 0, true, 1));
        }
        Instant at = e.getKey();
        RetrievalRecord r = to.saveRetrieval(new RetrievalRecordDraft(ns, at, at.plusSeconds(3600), selected));
        RewardOutcome out = to.applyReward(ns, r.id(), at, (id, u) -> restore.get(id));
        if (!(out instanceof RewardOutcome.Applied)) {
          throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "--to",
              "--to: restoring visit counts failed (" + out + ")");
        }
      }
    }
  }
}
