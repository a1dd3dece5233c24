package io.memloop.store;

import io.memloop.Candidate;
import io.memloop.EmbeddingModel;
import io.memloop.LedgerKeys;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.embed.Embedder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongConsumer;
import org.jspecify.annotations.Nullable;

/**
 * Copies a namespace from one {@link MemoryStore} to another through the store SPI alone, so any two stores work
 * (the embedded store to SolrCloud when a tenant outgrows one machine, or back). What is copied is exact: every
 * memory with its texts, embedding, outcome, creation time, Q, visit count and last update time, the intent groups
 * (memories grouped together stay together, in the same order), each memory's {@link Annotations}, the namespace's
 * per-task learning ledger ({@link MemoryStore#ledger}: what each task learned of the memories it used, each memory's
 * record of uses, whether exploring pays there, …), its entries that name a memory renamed to the memory's copy, and the
 * namespace's recorded configuration. Ledger entries of memories that are gone from the source (left for its next
 * sweep) are not copied.
 *
 * <p>Not copied: retrievals still waiting for their reward (a reward sent later to the new store is reported
 * unknown). When re-embedding, neither are the ledger entries that hold numbers of the old model's vectors
 * ({@link LedgerKeys#ofTheModel}: the learned weight of each block of a vector, the cosines of a memory's uses); the
 * new model's are learned from new rewards. Memory and group ids are the target store's. The visit counts and update
 * times are set by one already-rewarded retrieval per {@value #UTILITY_BATCH} memories, which stays in the target
 * store as a record of the copy.
 *
 * <p><b>Embedding models.</b> Vectors are only comparable with vectors of the same model
 * ({@link MemoryStore#model()}), so {@link #copy} refuses stores recorded with different models, and a target that
 * records a model the source does not; a target with no model adopts the source's. Between models, {@link #reEmbed}
 * copies the same way but embeds every memory's intent text again with the target's model; a memory without an
 * intent text (remembered with an embedding only) cannot be re-embedded, and the call then refuses before writing.
 */
public final class StoreCopy {
  /** Memories whose utility one copy retrieval restores. */
  static final int UTILITY_BATCH = 256;
  /** Intent texts embedded per call to the model when re-embedding. */
  static final int EMBED_BATCH = 64;

  private StoreCopy() {}

  /** What one namespace's copy did. */
  public record Result(String namespace, long memories, long groups, long ledgerEntries, boolean settings) {}

  /**
   * Copies {@code namespace} from {@code from} into {@code to}, where it must not hold any memory yet.
   * {@code progress} hears the number of memories copied so far, after each one.
   */
  public static Result copy(MemoryStore from, MemoryStore to, String namespace, LongConsumer progress) {
    requireCopyable(from, to);
    requireEmptyTarget(to, namespace);
    List<Memory> memories = new ArrayList<>();
    from.forEachMemory(namespace, memories::add);
    from.model().ifPresent(to::recordModel);
    return write(from, to, namespace, memories, null, progress);
  }

  /**
   * Copies {@code namespace} as {@link #copy} does, but with each memory's intent embedding made again from its intent
   * text by {@code embedder}, the target's model (recorded in {@code to} if it has none). Every text is embedded before
   * anything is written, so a refusal or a failing model leaves the target as it was.
   *
   * @throws MemLoopException INVALID_ARGUMENT naming {@code --re-embed} when memories of the namespace have no intent
   *     text, or naming {@code --to} when the target holds vectors of another dimension or records another model
   */
  public static Result reEmbed(MemoryStore from, MemoryStore to, String namespace, Embedder embedder, LongConsumer progress) {
    EmbeddingModel model = EmbeddingModel.of(embedder);
    requireReEmbeddable(to, model);
    requireEmptyTarget(to, namespace);
    long missing = withoutIntentText(from, namespace);
    if (missing > 0) {
      throw MemLoopException.invalid("--re-embed", missing + " memories of namespace " + namespace + " have no intent text "
          + "(remembered with an embedding only), so they cannot be re-embedded; nothing was copied");
    }
    List<Memory> memories = new ArrayList<>();
    from.forEachMemory(namespace, memories::add);
    float[][] embeddings = new float[memories.size()][];
    for (int start = 0; start < memories.size(); start += EMBED_BATCH) {
      List<Memory> batch = memories.subList(start, Math.min(memories.size(), start + EMBED_BATCH));
      List<float[]> vectors = embedder.embedAll(batch.stream().map(Memory::intentText).toList());
      if (vectors.size() != batch.size()) {
        throw new MemLoopException(MemLoopException.Reason.EMBEDDING_FAILED, "--embedder", "--embedder: model " + model
            + " returned " + vectors.size() + " embeddings for " + batch.size() + " texts");
      }
      for (int i = 0; i < batch.size(); i++) {
        float[] v = vectors.get(i);
        if (v.length != model.dimension()) {
          throw new MemLoopException(MemLoopException.Reason.EMBEDDING_FAILED, "--embedder", "--embedder: model " + model
              + " returned a " + v.length + "-d embedding");
        }
        embeddings[start + i] = Vectors.normalized(v, "--embedder");
      }
    }
    to.recordModel(model);
    return write(from, to, namespace, memories, embeddings, progress);
  }

  /**
   * Refuses (INVALID_ARGUMENT naming {@code --to}) a {@link #copy} whose vectors would land among another model's:
   * stores of different dimensions, stores recorded with different models, or a target recording a model the source
   * does not (which model made the source's vectors is then unknown).
   */
  public static void requireCopyable(MemoryStore from, MemoryStore to) {
    if (from.dimension() != to.dimension()) {
      throw MemLoopException.invalid("--to", "holds " + to.dimension() + "-d vectors, the source " + from.dimension() + "-d"
          + " (copy between models with --re-embed and the target's --embedder)");
    }
    Optional<EmbeddingModel> source = from.model();
    Optional<EmbeddingModel> target = to.model();
    if (target.isPresent() && !target.equals(source)) {
      throw MemLoopException.invalid("--to", "its vectors were made by model " + target.get() + ", the source's "
          + source.map(m -> "by model " + m).orElse("by a model it does not record")
          + "; copying would mix two models' vectors, which find nothing together; re-embed the memories with the "
          + "target's model instead (--re-embed with the target's --embedder)");
    }
  }

  /**
   * Refuses (INVALID_ARGUMENT naming {@code --to}) a {@link #reEmbed} with {@code model} into {@code to}: a target of
   * another dimension, or one recorded with another model.
   */
  public static void requireReEmbeddable(MemoryStore to, EmbeddingModel model) {
    if (model.dimension() != to.dimension()) {
      throw MemLoopException.invalid("--to", "holds " + to.dimension() + "-d vectors but model " + model + " gives "
          + model.dimension() + "-d vectors");
    }
    Optional<EmbeddingModel> target = to.model();
    if (target.isPresent() && !target.get().equals(model)) {
      throw MemLoopException.invalid("--to", "its vectors were made by model " + target.get() + ", not by model " + model
          + "; re-embed with the target's model (its --embedder), or into a new store");
    }
  }

  /** How many memories of {@code namespace} have no intent text, and so cannot be re-embedded ({@link #reEmbed}). */
  public static long withoutIntentText(MemoryStore from, String namespace) {
    long[] n = {0};
    from.forEachMemory(namespace, m -> {
      if (m.intentText().isBlank()) {
        n[0]++;
      }
    });
    return n[0];
  }

  private static void requireEmptyTarget(MemoryStore to, String namespace) {
    if (to.counts(namespace, Instant.now()).memories() > 0 || !to.page(namespace, null, 1).isEmpty()) {
      throw new MemLoopException(MemLoopException.Reason.CONFLICT, "--to",
          "--to: namespace " + namespace + " already holds memories there; copy into a namespace that is empty");
    }
  }

  /** Writes {@code memories} into {@code to}, with {@code embeddings[i]} for memory i when given. */
  private static Result write(MemoryStore from, MemoryStore to, String namespace, List<Memory> memories,
      float @Nullable [][] embeddings, LongConsumer progress) {
    Map<String, String> groups = new HashMap<>(); // source intent id -> target intent id
    Map<String, Utility> restore = new HashMap<>(); // target memory id -> its utility
    Map<String, Instant> updated = new HashMap<>();
    Map<String, String> ids = new LinkedHashMap<>(); // source memory id -> target memory id
    long copied = 0;
    for (Memory m : memories) {
      float[] embedding = embeddings == null ? m.intentEmbedding() : embeddings[(int) copied];
      NewMemory nm = new NewMemory(namespace, m.intentText(), embedding, m.experience(), m.outcome(), m.q(),
          m.createdAt());
      String group = groups.get(m.intentId());
      // a group's first memory starts a new group (no threshold is met); the others join it by name
      Memory stored = group == null ? to.insert(nm, Double.POSITIVE_INFINITY) : to.insert(nm, Double.POSITIVE_INFINITY, group);
      groups.putIfAbsent(m.intentId(), stored.intentId());
      ids.put(m.id(), stored.id());
      if (m.visits() > 0 || !m.updatedAt().equals(m.createdAt())) {
        restore.put(stored.id(), m.utility());
        updated.put(stored.id(), m.updatedAt());
      }
      progress.accept(++copied);
    }
    restoreUtilities(to, namespace, restore, updated);
    copyAnnotations(from, to, namespace, ids);
    long ledgerEntries = copyLedger(from, to, namespace, ids, embeddings != null);
    boolean settings = false;
    var recorded = from.settings(namespace);
    if (recorded.isPresent()) {
      to.saveSettings(namespace, recorded.get());
      settings = true;
    }
    return new Result(namespace, copied, groups.size(), ledgerEntries, settings);
  }

  /**
   * Copies the namespace's ledger a batch of keys at a time, each entry that names a memory ({@link LedgerKeys#memory})
   * renamed to the memory's copy and dropped if the memory was not copied (gone from the source); with {@code
   * reEmbedded}, the entries of the old model's vectors are left behind. Returns how many entries were written.
   */
  private static long copyLedger(MemoryStore from, MemoryStore to, String ns, Map<String, String> ids, boolean reEmbedded) {
    List<String> keys = new ArrayList<>();
    for (String key : from.ledgerKeys(ns)) {
      String memory = LedgerKeys.memory(key);
      if ((memory == null || ids.containsKey(memory)) && !(reEmbedded && LedgerKeys.ofTheModel(key))) {
        keys.add(key);
      }
    }
    keys.sort(null); // a copy's order does not depend on the source's hashing
    long written = 0;
    for (int at = 0; at < keys.size(); at += UTILITY_BATCH) {
      Map<String, double[]> batch = new LinkedHashMap<>();
      from.ledger(ns, keys.subList(at, Math.min(keys.size(), at + UTILITY_BATCH))).forEach((key, value) -> {
        String memory = LedgerKeys.memory(key);
        batch.put(memory == null ? key : LedgerKeys.renamed(key, ids.get(memory)), value.clone());
      });
      if (!batch.isEmpty()) {
        to.putLedger(ns, batch);
        written += batch.size();
      }
    }
    return written;
  }

  /** Copies the memories' annotations ({@link MemoryStore#annotations}) to their copies, a batch at a time. */
  private static void copyAnnotations(MemoryStore from, MemoryStore to, String ns, Map<String, String> ids) {
    List<String> sources = new ArrayList<>(ids.keySet());
    for (int at = 0; at < sources.size(); at += UTILITY_BATCH) {
      Map<String, Annotations> byTarget = new HashMap<>();
      from.annotations(ns, sources.subList(at, Math.min(sources.size(), at + UTILITY_BATCH)))
          .forEach((id, a) -> byTarget.put(ids.get(id), a));
      if (!byTarget.isEmpty()) {
        to.annotate(ns, byTarget);
      }
    }
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
