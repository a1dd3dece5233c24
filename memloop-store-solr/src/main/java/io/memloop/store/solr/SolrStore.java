package io.memloop.store.solr;

import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.MemLoopException;
import io.memloop.store.Annotations;
import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import io.memloop.store.StoreCounts;
import io.memloop.store.UtilityUpdate;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.apache.solr.client.solrj.SolrClient;
import org.jspecify.annotations.Nullable;

/**
 * A {@link MemoryStore} on SolrCloud: one collection holds every namespace, each namespace's documents on one
 * shard (compositeId {@code namespace!id}), so Phase A is a kNN search routed to that shard and filtered by
 * tenant. Q, visits and the reward claim are docValues-only fields updated in place (the vector is not
 * re-indexed), and every read-modify-write carries the document's {@code _version_}: several MemLoop processes
 * may share one collection without losing an update.
 *
 * <p><b>What is real-time and what is not.</b> Reads by id — {@link #get}, a reward's claim and its memories'
 * utilities, {@link #settings}, {@link #ledger} — go through Solr's real-time get and see every acknowledged write.
 * Searches — {@link #recall}, {@link #counts}, {@link #page}, {@link #forEachMemory}, {@link #namespaces},
 * {@link #ledgerKeys} and {@link #evictionCandidate} — see a write once the collection's next soft commit opens a new
 * searcher ({@code memloop.autoSoftCommit.maxTime}, 1 s in the shipped config set), unless the store was opened with
 * {@link SolrStoreOptions.Visibility#IMMEDIATE}. A Q value inside a recall result may therefore be up to that
 * long old. An intent group this process created is remembered until searches can see it, so memories this
 * process inserts in quick succession still join the same group.
 *
 * <p><b>Durability.</b> A write is acknowledged once the shard leader has it in its update log and has forwarded
 * it to the shard's replicas. A reward is applied in two steps: the retrieval is claimed (exactly once across all
 * processes, by its version), then its memories' utilities are written in one request, each under its own version;
 * those that lost a race with another process's update are read again and retried. A process that dies between
 * the two steps leaves that one reward (which it never acknowledged) claimed with its utilities unchanged. A write
 * whose connection failed (before Solr saw it, or after Solr applied it) is read back and sent again only if it did
 * not land: the claim carries a token, a utility write a mark (see {@code Rewarder}), an insert its memory's id.
 *
 * <p>Thread-safe.
 */
public final class SolrStore implements MemoryStore {
  private final SolrIo io;
  private final SolrStoreOptions options;
  private final int dimension;
  /** Whether the schema has the listing fields (schema 2); a collection of an older build is listed by scanning. */
  private final boolean listingFields;
  private final Routing routing;
  private final CollectionMeta meta;
  private final Inserter inserter;
  private final MemoryReader reader;
  private final MemorySearch searcher;
  private final Editor editor;
  private final Deleter deleter;
  private final RetrievalBook retrievals;
  private final Rewarder rewarder;
  private final LedgerBook ledger;
  private final MemoryAnnotations annotations;
  private volatile boolean closed;

  private SolrStore(SolrIo io, SolrStoreOptions options, int dimension, long softCommitMillis, boolean listingFields,
      boolean annotationField, int tenantBits) {
    this.io = io;
    this.options = options;
    this.dimension = dimension;
    this.listingFields = listingFields;
    this.routing = new Routing(tenantBits);
    this.meta = new CollectionMeta(io);
    IdSequence sequence = new IdSequence(io);
    RecentIntents recent = new RecentIntents(io.immediate(), softCommitMillis);
    NamespaceLocks locks = new NamespaceLocks();
    IntentIndex intents = new IntentIndex(io, routing, recent);
    this.inserter = new Inserter(io, routing, sequence, intents, recent, locks, listingFields);
    this.reader = new MemoryReader(io, routing, intents);
    this.searcher = new MemorySearch(io, routing);
    this.editor = new Editor(io, routing, reader, listingFields);
    this.deleter = new Deleter(io, routing, intents, recent, locks);
    this.retrievals = new RetrievalBook(io, routing, sequence, !annotationField); // schema 3 stores payloads only
    this.rewarder = new Rewarder(io, routing);
    this.ledger = new LedgerBook(io, routing);
    this.annotations = new MemoryAnnotations(io, routing, annotationField);
  }

  /**
   * Opens the MemLoop collection named by {@code options}. An existing collection keeps its dimension ({@code
   * dimensionForNew} is then ignored; the engine checks the embeddings it is given); a missing one is created with {@code dimensionForNew} from the
   * config set MemLoop ships (uploaded as {@code memloop-v3-d<dimension>} if the cluster does not have it yet), or,
   * without a dimension, the call fails with {@link MemLoopException.Reason#NOT_FOUND}.
   */
  public static SolrStore open(SolrStoreOptions options, OptionalInt dimensionForNew) {
    return open(options, dimensionForNew, UnaryOperator.identity());
  }

  /** {@link #open}, with the client every read and write of the store goes through wrapped by {@code wrap} (tests). */
  static SolrStore open(SolrStoreOptions options, OptionalInt dimensionForNew, UnaryOperator<SolrClient> wrap) {
    JdkCloudSolrClient client = SolrClusterAdmin.connect(options);
    try {
      int dimension = SolrClusterAdmin.ensureCollection(client, options, dimensionForNew);
      long softCommit = SolrClusterAdmin.softCommitMillis(client, options.collection());
      boolean listingFields = SolrClusterAdmin.hasListingFields(client, options.collection());
      boolean annotationField = SolrClusterAdmin.hasAnnotations(client, options.collection());
      SolrIo io = new SolrIo(wrap.apply(client), options.collection(), options.visibility());
      int tenantBits = CollectionMeta.check(io, options, dimension);
      return new SolrStore(io, options, dimension, softCommit, listingFields, annotationField, tenantBits);
    } catch (RuntimeException e) {
      SolrIo.closeQuietly(client);
      throw e;
    }
  }

  /** The options this store was opened with. */
  public SolrStoreOptions options() {
    return options;
  }

  @Override
  public int dimension() {
    return dimension;
  }

  @Override
  public boolean isDurable() {
    return true;
  }

  // ---------------------------------------------------------------- inserts

  @Override
  public Memory insert(NewMemory memory, double mergeThreshold) {
    checkOpen();
    return inserter.insert(memory, mergeThreshold, null, false);
  }

  @Override
  public Memory insert(NewMemory memory, double mergeThreshold, @Nullable String nearestIntentId) {
    checkOpen();
    return inserter.insert(memory, mergeThreshold, nearestIntentId, true);
  }

  /**
   * Stores {@code memories} in order as {@link #insert(NewMemory, double)} would one by one, in three round trips per
   * namespace instead of two per memory: the nearest existing intent of every memory is searched concurrently, the
   * batch's own new groups are matched in memory, the member counts of the existing groups joined are raised in one
   * request (a group deleted meanwhile is reported and its memories decide again), and every new group and memory
   * is written in one more request.
   */
  @Override
  public List<Memory> insertAll(List<NewMemory> memories, double mergeThreshold) {
    checkOpen();
    return inserter.insertAll(memories, mergeThreshold);
  }

  // ---------------------------------------------------------------- edit and search

  /**
   * An atomic update of the memory's document under its version (the experience, its words and updated-at; Q,
   * visits and the rest are kept from the document); a reward in between is a version conflict, read again.
   */
  @Override
  public Optional<Memory> updateExperience(String namespace, String memoryId, String experience, Instant now) {
    checkOpen();
    return editor.updateExperience(namespace, memoryId, experience, now);
  }

  /**
   * A Solr query: each filter an {@code fq} (words as terms, the outcome, ranges on Q, visits, created-at and
   * updated-at), sorted by the key then {@code seq}; the cursor's position is one more {@code fq} (the key after the
   * position's, or equal with a later sequence), excluded from a facet query that counts the total. A collection
   * created by an older build (schema 1, without the fields) is scanned instead.
   */
  @Override
  public MemoryPage search(String namespace, MemoryQuery query) {
    checkOpen();
    if (!listingFields) {
      return MemoryStore.super.search(namespace, query);
    }
    return searcher.search(namespace, query);
  }

  // ---------------------------------------------------------------- recall and reads

  @Override
  public List<IntentMatch> recall(String namespace, float[] query, int k, double minSimilarity) {
    checkOpen();
    return reader.recall(namespace, query, k, minSimilarity);
  }

  @Override
  public Optional<Memory> get(String namespace, String memoryId) {
    checkOpen();
    return reader.get(namespace, memoryId);
  }

  /** By real-time get of the ids alone ({@value SolrIo#IDS_PER_GET} a request): it sees every acknowledged insert. */
  @Override
  public Set<String> existing(String namespace, Collection<String> memoryIds) {
    checkOpen();
    return reader.existing(namespace, memoryIds);
  }

  @Override
  public void forEachMemory(String namespace, Consumer<Memory> visitor) {
    checkOpen();
    reader.forEachMemory(namespace, visitor);
  }

  @Override
  public List<Memory> page(String namespace, @Nullable String afterId, int limit) {
    checkOpen();
    return reader.page(namespace, afterId, limit);
  }

  @Override
  public Optional<String> evictionCandidate(String namespace, String keepId) {
    checkOpen();
    return deleter.evictionCandidate(namespace, keepId);
  }

  @Override
  public StoreCounts counts(String namespace, Instant now) {
    checkOpen();
    return reader.counts(namespace, now);
  }

  @Override
  public Set<String> namespaces() {
    checkOpen();
    return reader.namespaces();
  }

  // ---------------------------------------------------------------- delete

  @Override
  public boolean delete(String namespace, String memoryId) {
    checkOpen();
    return deleter.delete(namespace, memoryId);
  }

  // ---------------------------------------------------------------- retrievals and rewards

  @Override
  public RetrievalRecord saveRetrieval(RetrievalRecordDraft draft) {
    checkOpen();
    return retrievals.save(draft);
  }

  @Override
  public Optional<RetrievalRecord> retrieval(String namespace, String retrievalId) {
    checkOpen();
    return retrievals.get(namespace, retrievalId);
  }

  @Override
  public RewardOutcome applyReward(String namespace, String retrievalId, Instant now, UtilityUpdate update) {
    checkOpen();
    return rewarder.applyReward(namespace, retrievalId, now, update);
  }

  // ---------------------------------------------------------------- embedding model

  @Override
  public Optional<EmbeddingModel> model() {
    checkOpen();
    return meta.model();
  }

  /**
   * Records the model in a document of its own, created only if absent ({@code _version_ = -1}): of two processes
   * recording at once, the first wins and the other answers with its model.
   */
  @Override
  public EmbeddingModel recordModel(EmbeddingModel m) {
    checkOpen();
    m.requireFits(dimension);
    return meta.recordModel(m);
  }

  // ---------------------------------------------------------------- settings and ledger

  @Override
  public Optional<Map<String, String>> settings(String namespace) {
    checkOpen();
    return ledger.settings(namespace);
  }

  @Override
  public void saveSettings(String namespace, Map<String, String> settings) {
    checkOpen();
    ledger.saveSettings(namespace, settings);
  }

  @Override
  public Map<String, double[]> ledger(String namespace, Collection<String> keys) {
    checkOpen();
    return ledger.ledger(namespace, keys);
  }

  @Override
  public void putLedger(String namespace, Map<String, double[]> values) {
    checkOpen();
    ledger.putLedger(namespace, values);
  }

  /**
   * A search over the namespace's ledger documents, paged by cursor: near-real-time, as the other searches are (a key
   * put or deleted just before may be missing or still listed until the next soft commit, unless the store was
   * opened with {@link SolrStoreOptions.Visibility#IMMEDIATE}).
   */
  @Override
  public Set<String> ledgerKeys(String namespace) {
    checkOpen();
    return ledger.ledgerKeys(namespace);
  }

  /** One request deleting the keys' documents by id, sent as {@link #putLedger}'s. */
  @Override
  public void deleteLedger(String namespace, Collection<String> keys) {
    checkOpen();
    ledger.deleteLedger(namespace, keys);
  }

  /** Stored in the memories' documents ({@link MemoryAnnotations}); empty on a collection of schema 1 or 2. */
  @Override
  public Map<String, Annotations> annotations(String namespace, Collection<String> memoryIds) {
    checkOpen();
    return annotations.read(namespace, memoryIds);
  }

  /**
   * One request ({@link MemoryAnnotations}), durable on return (stronger than {@link #putLedger}'s promise).
   *
   * @throws MemLoopException CONFLICT on a collection of schema 1 or 2, which has no field for them
   */
  @Override
  public void annotate(String namespace, Map<String, Annotations> byMemoryId) {
    checkOpen();
    annotations.annotate(namespace, byMemoryId);
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    io.close();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("store is closed");
    }
  }

  /** A document's compositeId: the namespace's routing prefix, then the store's own id (for tests). */
  String docId(String ns, String shortId) {
    return routing.docId(ns, shortId);
  }
}
