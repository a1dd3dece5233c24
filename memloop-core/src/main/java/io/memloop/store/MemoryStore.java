package io.memloop.store;

import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Where memories, utilities and pending retrievals live.
 *
 * <p><b>Thread safety:</b> every method may be called from many threads at once. {@link #insert}
 * is atomic with respect to other inserts of the same namespace (the merge decision and the write
 * happen as one step); {@link #applyReward} claims a retrieval exactly once and applies the update to
 * each selected memory under that memory's lock.
 *
 * <p><b>Durability:</b> a method that returns normally has made its write durable as far as the
 * implementation promises ({@link #isDurable()}); durable stores survive {@code kill -9} after return.
 *
 * <p>Embeddings handed to and returned by a store are unit length and of {@link #dimension()}
 * components; the engine checks both before calling.
 */
public interface MemoryStore extends AutoCloseable {

  /** Number of components of every stored embedding. */
  int dimension();

  /** Whether acknowledged writes survive a crash of the process. */
  boolean isDurable();

  /**
   * The embedding model recorded as having made this store's vectors; empty while none is recorded (a store
   * made before models were recorded, or used only with caller-supplied embeddings).
   */
  Optional<EmbeddingModel> model();

  /**
   * Records {@code model} as the store's embedding model if none is recorded yet; a recorded model is never
   * replaced (the first record wins, also between processes sharing the store). Durable on return for a
   * durable store.
   *
   * @return the model recorded now: {@code model}, or the one recorded before
   * @throws io.memloop.MemLoopException INVALID_ARGUMENT if the model's dimension is not {@link #dimension()}
   */
  EmbeddingModel recordModel(EmbeddingModel model);

  /**
   * Stores a memory where {@link io.memloop.policy.Grouping} says: if an intent of the namespace has cosine
   * ≥ {@code mergeThreshold} to the new intent, the memory joins the nearest such intent's group (ties to the
   * older group); otherwise it starts a new group whose representative embedding is its own.
   */
  Memory insert(NewMemory memory, double mergeThreshold);

  /**
   * {@link #insert(NewMemory, double)} when the caller has just searched for the nearest intent itself
   * ({@link #recall} with k = 1 at the same threshold, for the same embedding): the memory joins intent
   * {@code nearestIntentId}'s group, or starts a new group when it is null, and the store spares itself a
   * second search. The store obeys the hint as it is (it does not check the similarity). If that intent has
   * been deleted since, the store decides as {@link #insert(NewMemory, double)} does. Under concurrency a new group may duplicate one created in between (best-effort, as
   * the caller's search was). The default ignores the hint.
   */
  default Memory insert(NewMemory memory, double mergeThreshold, @org.jspecify.annotations.Nullable String nearestIntentId) {
    return insert(memory, mergeThreshold);
  }

  /**
   * Phase A: the intent groups of {@code namespace} with cosine ≥ {@code minSimilarity} to {@code
   * query}, the {@code k} most similar, in {@link io.memloop.policy.Recall} order (most similar first, ties
   * by the intent id's sequence number, the older group first).
   */
  List<IntentMatch> recall(String namespace, float[] query, int k, double minSimilarity);

  Optional<Memory> get(String namespace, String memoryId);

  /**
   * Which of {@code memoryIds} name a memory {@code namespace} holds now (ids of another form, of deleted memories or
   * of another namespace do not). Consistent with {@link #get}: a memory inserted before the call is seen. The default
   * looks each one up; stores answer from what they keep in RAM, or in one request per batch.
   */
  default Set<String> existing(String namespace, Collection<String> memoryIds) {
    Set<String> out = new java.util.HashSet<>();
    for (String id : memoryIds) {
      if (get(namespace, id).isPresent()) {
        out.add(id);
      }
    }
    return out;
  }

  /**
   * Keeps a retrieval until it is rewarded or expires; assigns and returns its id.
   *
   * <p>Durability is weaker than for the other writes: a durable store may return before the record
   * is on disk (it sits on the retrieval-to-reward round trip of every request). A retrieval record
   * may be lost by a crash before the store's next durable write or within the store's bound (for
   * {@code LuceneStore}, {@code retrievalSyncDelayMillis}, 50 ms by default); a later reward then
   * reports it unknown. An acknowledged reward of a retrieval implies the retrieval was durable.
   */
  RetrievalRecord saveRetrieval(RetrievalRecordDraft draft);

  /**
   * Claims retrieval {@code retrievalId} of {@code namespace} and applies {@code update} to each
   * memory it selected, all or nothing, durable on return.
   */
  RewardOutcome applyReward(String namespace, String retrievalId, Instant now, UtilityUpdate update);

  /**
   * A saved retrieval, rewarded or not, as long as the store keeps it (at least until it expires); empty for
   * an unknown id. For a Bellman/TD reward, whose target includes what the next retrieval of the episode
   * selected.
   */
  Optional<RetrievalRecord> retrieval(String namespace, String retrievalId);

  /**
   * Removes a memory, durable on return. Its intent group goes too once it has no memories left.
   * Pending retrievals that selected it still reward their other memories.
   *
   * @return whether the memory existed
   */
  boolean delete(String namespace, String memoryId);

  /** Visits every memory of the namespace (oldest first). */
  void forEachMemory(String namespace, Consumer<Memory> visitor);

  /**
   * The namespace's memories added up for {@link io.memloop.MemLoop#stats} (oldest first, as {@link #forEachMemory}
   * visits them, so that the sum of utilities is the same in every store). By default one pass of
   * {@link #forEachMemory}; a store that keeps outcomes, utilities and visits apart from the memories' text and
   * vectors (the embedded store) adds them up from there without reading a memory.
   */
  default MemorySummary summary(String namespace) {
    MemorySummary.Adder sum = new MemorySummary.Adder();
    forEachMemory(namespace, sum::add);
    return sum.result();
  }

  StoreCounts counts(String namespace, Instant now);

  Set<String> namespaces();

  /**
   * The configuration recorded for {@code namespace} (knob name to value, as
   * {@link io.memloop.MemLoopConfig#toSettings()} writes it), if one was recorded.
   */
  Optional<Map<String, String>> settings(String namespace);

  /**
   * Records {@code settings} as {@code namespace}'s configuration, replacing any earlier one; durable
   * on return for a durable store. Keys and values are single-line text.
   */
  void saveSettings(String namespace, Map<String, String> settings);

  /**
   * Per-task learning statistics of {@code namespace} ({@link io.memloop.MemLoopConfig.TaskLearning}):
   * the values stored under each of {@code keys}; keys never stored are absent from the result.
   * Keys are single-line text; values are finite numbers.
   */
  Map<String, double[]> ledger(String namespace, Collection<String> keys);

  /** The most numbers one ledger value holds ({@link #putLedger} refuses more): a vector of the largest dimension. */
  int MAX_LEDGER_VALUE = 4096;

  /**
   * Refuses a ledger value longer than {@link #MAX_LEDGER_VALUE}, as every store's {@link #putLedger} does before it
   * stores anything.
   *
   * @throws IllegalArgumentException naming {@code key} when {@code value} is longer
   */
  static void requireLedgerValue(String key, double[] value) {
    if (value.length > MAX_LEDGER_VALUE) {
      throw new IllegalArgumentException("ledger value " + key + " holds " + value.length + " numbers, more than "
          + MAX_LEDGER_VALUE);
    }
  }

  /**
   * Stores {@code values} (absolute, replacing what each key held) all or nothing; each value holds at most {@link
   * #MAX_LEDGER_VALUE} numbers. Durability is that
   * of {@link #saveRetrieval}: a durable store may return before the values are on disk, and a crash
   * within its bound may lose the latest updates (they are learning statistics, kept in step with
   * rewards that are themselves durable). The engine serialises read-modify-write of a namespace's
   * entries itself.
   */
  void putLedger(String namespace, Map<String, double[]> values);

  /**
   * Every key of {@code namespace}'s ledger, in no particular order (empty for a namespace that has none): what the
   * engine sweeps to drop the entries of memories that are gone and of tasks long unseen. Keys put or deleted while
   * it runs may or may not be listed.
   */
  Set<String> ledgerKeys(String namespace);

  /**
   * Removes the listed keys from {@code namespace}'s ledger, all or nothing; keys it does not hold are skipped.
   * Durability is that of {@link #putLedger}. The engine serialises it with its read-modify-write of the namespace's
   * entries.
   */
  void deleteLedger(String namespace, Collection<String> keys);

  /**
   * The annotations of the listed memories of {@code namespace} (learning state core keeps per memory; the store
   * keeps the bytes without interpreting them): one entry per listed memory that exists and has annotations;
   * memories without any, and ids that name no memory, are absent.
   */
  Map<String, Annotations> annotations(String namespace, Collection<String> memoryIds);

  /**
   * Replaces the annotations of each listed memory of {@code namespace} with the given ones ({@link
   * Annotations#EMPTY} removes them), all or nothing. Ids that name no memory of the namespace (never stored, or
   * deleted meanwhile) are skipped: a memory's annotations never outlive it, and {@link #delete} removes them with
   * it. Durability is that of {@link #putLedger}.
   */
  void annotate(String namespace, Map<String, Annotations> byMemoryId);

  /**
   * Up to {@code limit} memories of {@code namespace}, oldest first, after memory {@code afterId} (null:
   * from the first). For paging through a namespace; the default scans it, durable stores seek.
   */
  default List<Memory> page(String namespace, @org.jspecify.annotations.Nullable String afterId, int limit) {
    long after = afterId == null ? -1 : sequenceOf(afterId);
    List<Memory> out = new java.util.ArrayList<>(Math.min(limit, 1024));
    forEachMemory(namespace, m -> {
      if (out.size() < limit && sequenceOf(m.id()) > after) {
        out.add(m);
      }
    });
    return out;
  }

  /** The sequence number in a memory id {@code m<digits>}; -1 for another form (or one past {@code Long.MAX_VALUE}). */
  static long sequenceOf(String memoryId) {
    return sequenceOf(memoryId, 'm');
  }

  /**
   * The sequence number in an id {@code <kind><digits>} (stores name intent groups {@code i}, memories {@code m},
   * retrievals {@code r}); -1 for another form (or one past {@code Long.MAX_VALUE}).
   */
  static long sequenceOf(String id, char kind) {
    int n = id.length();
    if (n < 2 || n > 20 || id.charAt(0) != kind) {
      return -1;
    }
    long v = 0;
    for (int i = 1; i < n; i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
      if (v < 0) {
        return -1;
      }
    }
    return v;
  }

  /**
   * Stores {@code memories} in order, as {@link #insert(NewMemory, double)} would one by one (each may
   * join a group created earlier in the batch). Durable stores may log and sync the batch once; the default
   * inserts one at a time.
   */
  default List<Memory> insertAll(List<NewMemory> memories, double mergeThreshold) {
    List<Memory> out = new java.util.ArrayList<>(memories.size());
    for (NewMemory m : memories) {
      out.add(insert(m, mergeThreshold));
    }
    return out;
  }

  /**
   * Runs {@code unit} on the calling thread and returns its result; every write it makes to this store is
   * durable when this returns, as if each had been made alone. A durable store may sync once, at the end,
   * instead of after each write, and may promise more ({@code LuceneStore}: a crash before the return leaves
   * all of the unit's writes or none). The default runs the unit as it is: each write is durable on its own
   * return, so a crash in the middle may keep the writes made so far.
   *
   * <p>The writes are visible to other threads as they are made, as single writes are. If {@code unit}
   * throws, the writes it made stay, are made durable, and the exception propagates. Units nest: an inner
   * one is part of the outer. A unit must be short and must not wait for other threads that write to the
   * store: a durable store may hold back their acknowledgements until the unit ends.
   */
  default <T> T durablyTogether(java.util.function.Supplier<T> unit) {
    return unit.get();
  }

  /**
   * Tells {@code listener} the duration in nanoseconds of every fsync that makes acknowledged writes
   * durable (a group commit), for latency metrics; replaces any earlier listener. It runs on the
   * writing thread and must be quick. Stores without a log (in memory) never call it.
   */
  default void onDurableSync(java.util.function.LongConsumer listener) {}

  /**
   * The memory of {@code namespace} a capacity bound evicts first, by {@link io.memloop.policy.Eviction}: the
   * lowest Q, then the fewest visits, then the oldest; never {@code keepId}. Empty if the namespace holds no
   * other memory. Implementations should not read memory texts for this (it runs on every bounded {@code
   * remember}).
   */
  default Optional<String> evictionCandidate(String namespace, String keepId) {
    Memory[] best = {null};
    forEachMemory(namespace, m -> {
      if (m.id().equals(keepId)) {
        return;
      }
      Memory b = best[0];
      if (b == null || io.memloop.policy.Eviction.ORDER.compare(m, b) < 0) {
        best[0] = m;
      }
    });
    return Optional.ofNullable(best[0]).map(Memory::id);
  }

  /**
   * Replaces the experience text of memory {@code memoryId} of {@code namespace} in place: id, intent, intent group,
   * outcome, Q, visits and creation time stay; updated-at becomes {@code now}. Durable on return for a durable store.
   *
   * @return the memory as now stored; empty if the namespace holds no such memory
   */
  Optional<Memory> updateExperience(String namespace, String memoryId, String experience, Instant now);

  /**
   * One page of the memories of {@code namespace} that pass {@code query}'s filters, in its order, after its
   * cursor ({@link io.memloop.MemoryQuery} states the rules; {@link PageCursor} the cursors). The default scans
   * the namespace ({@link #forEachMemory}) keeping the {@code limit + 1} first after the cursor; stores that hold
   * many memories override it with an index.
   *
   * @throws io.memloop.MemLoopException INVALID_ARGUMENT naming {@code after} for a cursor of another query
   */
  default io.memloop.MemoryPage search(String namespace, io.memloop.MemoryQuery query) {
    PageCursor.Position from = PageCursor.decode(namespace, query);
    List<String> words = query.words();
    int keep = query.limit() + 1;
    // the worst kept position on top: a bounded heap of the first limit + 1 after the cursor
    java.util.Comparator<PageCursor.Position> order =
        query.descending() ? PageCursor::compare : (a, b) -> PageCursor.compare(b, a);
    java.util.PriorityQueue<Map.Entry<PageCursor.Position, Memory>> heap =
        new java.util.PriorityQueue<>(keep + 1, (a, b) -> order.compare(a.getKey(), b.getKey()));
    long[] total = {0};
    forEachMemory(namespace, m -> {
      if (!query.matches(m, words)) {
        return;
      }
      total[0]++;
      PageCursor.Position p = PageCursor.of(query.sort(), m);
      if (from != null && !PageCursor.isAfter(query, p, from)) {
        return;
      }
      heap.add(Map.entry(p, m));
      if (heap.size() > keep) {
        heap.poll();
      }
    });
    List<Map.Entry<PageCursor.Position, Memory>> page = new java.util.ArrayList<>(heap);
    page.sort((a, b) -> -order.compare(a.getKey(), b.getKey()));
    return PageCursor.page(namespace, query, page.stream().map(Map.Entry::getValue).toList(), total[0]);
  }

  /** Flushes and releases resources; further calls fail. */
  @Override
  void close();
}
