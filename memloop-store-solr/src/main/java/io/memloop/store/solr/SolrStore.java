package io.memloop.store.solr;

import io.memloop.Candidate;
import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.UtilityChange;
import io.memloop.Vectors;
import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.PageCursor;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import io.memloop.store.RewardOutcome;
import io.memloop.store.StoreCounts;
import io.memloop.store.TaskNote;
import io.memloop.store.UtilityUpdate;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.request.AbstractUpdateRequest;
import org.apache.solr.client.solrj.request.QueryRequest;
import org.apache.solr.client.solrj.request.UpdateRequest;
import org.apache.solr.client.solrj.response.QueryResponse;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.SolrInputDocument;
import org.apache.solr.common.params.CursorMarkParams;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;
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
 * Searches — {@link #recall}, {@link #counts}, {@link #page}, {@link #forEachMemory}, {@link #namespaces} and
 * {@link #evictionCandidate} — see a write once the collection's next soft commit opens a new searcher
 * ({@code memloop.autoSoftCommit.maxTime}, 1 s in the shipped config set), unless the store was opened with
 * {@link SolrStoreOptions.Visibility#IMMEDIATE}. A Q value inside a recall result may therefore be up to that
 * long old. An intent group this process created is remembered until searches can see it, so memories this
 * process inserts in quick succession still join the same group.
 *
 * <p><b>Durability.</b> A write is acknowledged once the shard leader has it in its update log and has forwarded
 * it to the shard's replicas. A reward is applied in two steps: the retrieval is claimed (exactly once across all
 * processes, by its version), then its memories' utilities are written in one request, each under its own version;
 * those that lost a race with another process's update are read again and retried. A process that dies between
 * the two steps leaves that one reward (which it never acknowledged) claimed with its utilities unchanged.
 *
 * <p>Thread-safe.
 */
public final class SolrStore implements MemoryStore {
  private static final String META_ID = "_memloop!meta";
  private static final String SEQUENCE_ID = "_memloop!sequence";
  /** The document recording the embedding model: {@code payload} its id, {@code dimension} its dimension. */
  private static final String MODEL_ID = "_memloop!model";
  private static final int SEQUENCE_BLOCK = 64;
  private static final int PAGE = 500;
  private static final int MAX_CONFLICT_RETRIES = 1_000;
  private static final int READ_ATTEMPTS = 3;
  private static final String TOLERANT_CHAIN = "memloop-tolerant";
  private static final String MEMORY_FIELDS =
      "id,intent,intent_text,embedding,experience,outcome,created,q,visits,updated";

  private final SolrClient client;
  private final SolrStoreOptions options;
  private final String collection;
  private final int dimension;
  /** Whether the schema has the listing fields (schema 2); a collection of an older build is listed by scanning. */
  private final boolean listingFields;
  private final Map<String, Object> namespaceLocks = new ConcurrentHashMap<>();
  private final Map<String, List<RecentIntent>> recentIntents = new ConcurrentHashMap<>();
  private final long recentIntentNanos;
  /** Bits of a document's hash taken from its namespace (16: one shard per namespace), as the collection records. */
  private int tenantBits = 16;
  private final UpdateBatcher updates = new UpdateBatcher(this::sendBatch);
  private long sequenceNext;
  private long sequenceEnd;
  private volatile boolean closed;
  /** The recorded model once read (a recorded model is never replaced, so it is read from Solr until found). */
  private volatile @Nullable EmbeddingModel model;

  /** An intent group this process created, kept until searches are sure to see it. */
  private record RecentIntent(String intentId, long seq, float[] embedding, long createdNanos) {}

  private SolrStore(SolrClient client, SolrStoreOptions options, int dimension, long softCommitMillis,
      boolean listingFields) {
    this.client = client;
    this.listingFields = listingFields;
    this.options = options;
    this.collection = options.collection();
    this.dimension = dimension;
    this.recentIntentNanos = TimeUnit.MILLISECONDS.toNanos(2 * softCommitMillis + 2_000);
  }

  /**
   * Opens the MemLoop collection named by {@code options}. An existing collection keeps its dimension ({@code
   * dimensionForNew} is then ignored; the engine checks the embeddings it is given); a missing one is created with {@code dimensionForNew} from the
   * config set MemLoop ships (uploaded as {@code memloop-v2-d<dimension>} if the cluster does not have it yet), or,
   * without a dimension, the call fails with {@link MemLoopException.Reason#NOT_FOUND}.
   */
  public static SolrStore open(SolrStoreOptions options, OptionalInt dimensionForNew) {
    JdkCloudSolrClient client = SolrClusterAdmin.connect(options);
    try {
      int dimension = SolrClusterAdmin.ensureCollection(client, options, dimensionForNew);
      long softCommit = SolrClusterAdmin.softCommitMillis(client, options.collection());
      SolrStore store = new SolrStore(client, options, dimension, softCommit,
          SolrClusterAdmin.hasListingFields(client, options.collection()));
      store.checkMeta(dimension);
      return store;
    } catch (RuntimeException e) {
      closeQuietly(client);
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
    return insert(memory, mergeThreshold, null, false);
  }

  @Override
  public Memory insert(NewMemory memory, double mergeThreshold, @Nullable String nearestIntentId) {
    return insert(memory, mergeThreshold, nearestIntentId, true);
  }

  private Memory insert(NewMemory m, double mergeThreshold, @Nullable String hint, boolean hinted) {
    checkOpen();
    String ns = m.namespace();
    synchronized (lock(ns)) {
      Set<String> gone = new TreeSet<>();
      String intentId = hinted ? hint : nearestIntent(ns, m.intentEmbedding(), mergeThreshold, gone);
      for (int attempt = 0; ; attempt++) {
        long seq = nextSequence();
        String memoryId = "m" + seq;
        UpdateRequest req = new UpdateRequest();
        String joined = intentId;
        if (joined == null) {
          long intentSeq = nextSequence();
          joined = "i" + intentSeq;
          SolrInputDocument intent = intentDoc(ns, joined, intentSeq, m.intentEmbedding(), 1);
          intent.addField("_version_", -1L); // must not exist
          req.add(intent);
        } else {
          req.add(membersDelta(ns, joined, 1));
        }
        req.add(memoryDoc(ns, seq, joined, m));
        try {
          write(req);
        } catch (VersionConflict e) {
          if (attempt >= 3 || joined == null) {
            throw unavailable("insert", e);
          }
          // the group was deleted after it was found: decide again without it
          gone.add(joined);
          forgetRecent(ns, joined);
          intentId = nearestIntent(ns, m.intentEmbedding(), mergeThreshold, gone);
          continue;
        }
        if (intentId == null) {
          remember(ns, new RecentIntent(joined, seqOf(joined), m.intentEmbedding().clone(), System.nanoTime()));
        }
        return stored(ns, memoryId, joined, m);
      }
    }
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
    Map<String, List<Integer>> byNamespace = new LinkedHashMap<>();
    for (int i = 0; i < memories.size(); i++) {
      byNamespace.computeIfAbsent(memories.get(i).namespace(), x -> new ArrayList<>()).add(i);
    }
    Memory[] out = new Memory[memories.size()];
    for (var e : byNamespace.entrySet()) {
      List<NewMemory> batch = e.getValue().stream().map(memories::get).toList();
      List<Memory> stored = insertBatch(e.getKey(), batch, mergeThreshold);
      for (int j = 0; j < stored.size(); j++) {
        out[e.getValue().get(j)] = stored.get(j);
      }
    }
    return List.of(out);
  }

  private List<Memory> insertBatch(String ns, List<NewMemory> batch, double threshold) {
    synchronized (lock(ns)) {
      // above 1 no cosine reaches the threshold: every memory starts its own group, without searching
      List<IntentHit> searched = threshold > 1 ? Collections.nCopies(batch.size(), null) : searchAll(ns, batch);
      List<RecentIntent> known = recent(ns);
      String[] groupOf = new String[batch.size()];
      List<RecentIntent> created = new ArrayList<>();
      Set<String> createdIds = new HashSet<>();
      Map<String, Integer> joinedExisting = new LinkedHashMap<>();
      Set<String> gone = new TreeSet<>();
      for (int round = 0; ; round++) {
        created.clear();
        createdIds.clear();
        joinedExisting.clear();
        for (int j = 0; j < batch.size(); j++) {
          float[] v = batch.get(j).intentEmbedding();
          IntentHit best = best(v, searched.get(j), threshold, gone, known, created);
          if (best == null) {
            long seq = nextSequence();
            created.add(new RecentIntent("i" + seq, seq, v.clone(), System.nanoTime()));
            createdIds.add("i" + seq);
            groupOf[j] = "i" + seq;
          } else {
            if (!createdIds.contains(best.intentId)) {
              joinedExisting.merge(best.intentId, 1, Integer::sum);
            }
            groupOf[j] = best.intentId;
          }
        }
        Set<String> failed = raiseMembers(ns, joinedExisting);
        if (failed.isEmpty()) {
          break;
        }
        if (round >= 3) {
          throw unavailable("insert", new IllegalStateException("intent groups kept disappearing: " + failed));
        }
        // groups deleted since they were found: undo the other raises, and decide again without them
        Map<String, Integer> undo = new LinkedHashMap<>();
        joinedExisting.forEach((id, n) -> {
          if (!failed.contains(id)) {
            undo.put(id, -n);
          }
        });
        raiseMembers(ns, undo);
        gone.addAll(failed);
      }
      UpdateRequest req = new UpdateRequest();
      Map<String, Integer> newMembers = new HashMap<>();
      for (String g : groupOf) {
        newMembers.merge(g, 1, Integer::sum);
      }
      for (RecentIntent r : created) {
        req.add(intentDoc(ns, r.intentId, r.seq, r.embedding, newMembers.get(r.intentId)));
      }
      List<Memory> out = new ArrayList<>(batch.size());
      for (int j = 0; j < batch.size(); j++) {
        NewMemory m = batch.get(j);
        long seq = nextSequence();
        out.add(stored(ns, "m" + seq, groupOf[j], m));
        req.add(memoryDoc(ns, seq, groupOf[j], m));
      }
      write(req);
      created.forEach(r -> remember(ns, r));
      return out;
    }
  }

  /** Adds {@code delta} members to each existing group in one request; returns the groups that no longer exist. */
  private Set<String> raiseMembers(String ns, Map<String, Integer> delta) {
    if (delta.isEmpty()) {
      return Set.of();
    }
    UpdateRequest req = new UpdateRequest();
    delta.forEach((id, n) -> req.add(membersDelta(ns, id, n)));
    req.setParam("update.chain", TOLERANT_CHAIN);
    Set<String> failed = new TreeSet<>();
    for (String id : tolerantErrors(write(req, false))) {
      failed.add(shortId(id));
    }
    return failed;
  }

  /** The nearest existing intent of each memory's embedding (null where the namespace has none), searched concurrently. */
  private List<IntentHit> searchAll(String ns, List<NewMemory> batch) {
    List<Callable<IntentHit>> tasks = new ArrayList<>(batch.size());
    for (NewMemory m : batch) {
      tasks.add(() -> {
        List<IntentHit> hits = searchIntents(ns, m.intentEmbedding(), 1);
        return hits.isEmpty() ? null : hits.getFirst();
      });
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(8, batch.size()));
    try {
      List<IntentHit> out = new ArrayList<>(batch.size());
      for (var f : pool.invokeAll(tasks)) {
        out.add(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw unavailable("search", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : unavailable("search", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  /** An in-place change of a group's member count; fails (version conflict) if the group no longer exists. */
  private SolrInputDocument membersDelta(String ns, String intentId, int delta) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", docId(ns, intentId));
    d.addField("members", Map.of("inc", delta));
    d.addField("_version_", 1L); // must exist: a deleted group is not brought back by this update
    return d;
  }

  private SolrInputDocument intentDoc(String ns, String intentId, long seq, float[] embedding, int members) {
    SolrInputDocument d = doc(ns, intentId, "i", seq);
    d.addField("vector", floats(embedding));
    d.addField("members", members);
    return d;
  }

  /** The memory {@link #memoryDoc} stores, as the caller gets it back. */
  private static Memory stored(String ns, String memoryId, String intentId, NewMemory m) {
    return new Memory(memoryId, ns, intentId, m.intentText(), m.intentEmbedding().clone(), m.experience(), m.outcome(),
        m.initialQ(), 0, m.createdAt(), m.createdAt());
  }

  private SolrInputDocument memoryDoc(String ns, long seq, String intentId, NewMemory m) {
    SolrInputDocument doc = doc(ns, "m" + seq, "m", seq);
    doc.addField("intent", intentId);
    doc.addField("intent_text", m.intentText());
    doc.addField("embedding", bytes(m.intentEmbedding()));
    doc.addField("experience", m.experience());
    doc.addField("outcome", m.outcome().name());
    doc.addField("created", m.createdAt().toString());
    doc.addField("q", m.initialQ());
    doc.addField("visits", 0L);
    doc.addField("updated", nanos(m.createdAt()));
    if (listingFields) {
      doc.addField("oc", m.outcome().name());
      doc.addField("created_at", nanos(m.createdAt()));
      doc.addField("words", words(m.intentText(), m.experience()));
    }
    return doc;
  }

  /** The distinct words of a memory's texts, as {@link MemoryQuery#words} defines them, as {@link #term}s. */
  private static List<String> words(String intentText, String experience) {
    Set<String> out = new java.util.LinkedHashSet<>(MemoryQuery.words(intentText));
    out.addAll(MemoryQuery.words(experience));
    return out.stream().map(SolrStore::term).toList();
  }

  /** Longest word indexed as it is; Lucene refuses terms over 32,766 bytes (a char is at most 3 UTF-8 bytes). */
  private static final int MAX_WORD_CHARS = 4096;

  /**
   * The indexed term of a word: the word, or for a very long one its start, {@code '#'} (never part of a word) and a
   * hash of the whole word, so that long words still match exactly (up to a 64-bit hash collision).
   */
  static String term(String word) {
    if (word.length() <= MAX_WORD_CHARS) {
      return word;
    }
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < word.length(); i++) {
      h = (h ^ word.charAt(i)) * 0x100000001b3L;
    }
    return word.substring(0, MAX_WORD_CHARS) + "#" + Long.toHexString(h) + "." + word.length();
  }

  // ---------------------------------------------------------------- edit and search

  /**
   * An atomic update of the memory's document under its version (the experience, its words and updated-at; Q,
   * visits and the rest are kept from the document); a reward in between is a version conflict, read again.
   */
  @Override
  public Optional<Memory> updateExperience(String namespace, String memoryId, String experience, Instant now) {
    checkOpen();
    if (MemoryStore.sequenceOf(memoryId) < 0) {
      return Optional.empty();
    }
    String id = docId(namespace, memoryId);
    for (int attempt = 0; ; attempt++) {
      SolrDocument d = realTimeGet(id, "id,intent_text,_version_");
      if (d == null) {
        return Optional.empty();
      }
      SolrInputDocument u = new SolrInputDocument();
      u.addField("id", id);
      u.addField("experience", Map.of("set", experience));
      u.addField("updated", Map.of("set", nanos(now)));
      if (listingFields) {
        u.addField("words", Map.of("set", words((String) d.getFieldValue("intent_text"), experience)));
      }
      u.addField("_version_", version(d));
      UpdateRequest req = new UpdateRequest();
      req.add(u);
      try {
        write(req);
        break;
      } catch (VersionConflict e) { // rewarded or deleted in between: read it again
        if (attempt >= MAX_CONFLICT_RETRIES) {
          throw unavailable("edit", e);
        }
      }
    }
    return get(namespace, memoryId);
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
    PageCursor.Position from = PageCursor.decode(namespace, query);
    ModifiableSolrParams p = namespaceQuery(namespace, "m");
    for (String w : query.words()) {
      p.add("fq", "{!term f=words}" + term(w));
    }
    if (!query.outcomes().isEmpty()) {
      p.add("fq", "{!terms f=oc}" + String.join(",", query.outcomes().stream().map(Enum::name).sorted().toList()));
    }
    if (query.minQ() != Double.NEGATIVE_INFINITY || query.maxQ() != Double.POSITIVE_INFINITY) {
      p.add("fq", "q:[" + bound(query.minQ()) + " TO " + bound(query.maxQ()) + "]");
    }
    if (query.minVisits() != 0 || query.maxVisits() != Long.MAX_VALUE) {
      p.add("fq", "visits:[" + query.minVisits() + " TO " + query.maxVisits() + "]");
    }
    instantRange(p, "created_at", query.createdFrom(), query.createdTo());
    instantRange(p, "updated", query.updatedFrom(), query.updatedTo());
    String dir = query.descending() ? " desc" : " asc";
    String key = switch (query.sort()) {
      case CREATED -> null;
      case UPDATED -> "updated";
      case Q -> "q";
      case VISITS -> "visits";
    };
    p.set("sort", (key == null ? "" : key + dir + ",") + "seq" + dir);
    if (from != null) {
      String seqAfter = query.descending() ? "seq:[* TO " + from.seq() + "}" : "seq:{" + from.seq() + " TO *]";
      String value = key == null ? null : switch (query.sort()) {
        case UPDATED -> Long.toString(nanos(PageCursor.instantOf(from)));
        case Q -> Double.toString(PageCursor.qOf(from.key()));
        default -> Long.toString(from.key());
      };
      p.add("fq", "{!tag=after}" + (value == null ? seqAfter
          : "(" + key + (query.descending() ? ":[* TO " + value + "}" : ":{" + value + " TO *]") + ") OR (" + key + ":["
              + value + " TO " + value + "] AND " + seqAfter + ")"));
      p.set("facet", true);
      p.set("facet.query", "{!ex=after key=total}*:*");
    }
    p.set("fl", MEMORY_FIELDS);
    p.set("rows", query.limit() + 1);
    QueryResponse r = query(p);
    List<Memory> out = new ArrayList<>();
    for (SolrDocument d : r.getResults()) {
      out.add(memory(namespace, d));
    }
    long total = from == null ? r.getResults().getNumFound() : r.getFacetQuery().get("total");
    return PageCursor.page(namespace, query, out, total);
  }

  private static String bound(double v) {
    return Double.isInfinite(v) ? "*" : Double.toString(v);
  }

  /** An fq keeping {@code field} (nanoseconds) in [from, to). */
  private static void instantRange(ModifiableSolrParams p, String field, @Nullable Instant from, @Nullable Instant to) {
    if (from != null || to != null) {
      p.add("fq", field + ":[" + (from == null ? "*" : Long.toString(nanos(from))) + " TO "
          + (to == null ? "*" : Long.toString(nanos(to))) + "}");
    }
  }

  /** The most similar intent of {@code ns} with cosine ≥ {@code threshold}, searched and just created, or null. */
  private @Nullable String nearestIntent(String ns, float[] embedding, double threshold, Set<String> excluded) {
    if (threshold > 1) {
      return null; // no cosine reaches it: a new group, without searching
    }
    IntentHit searched = searchIntents(ns, embedding, 1 + excluded.size()).stream()
        .filter(h -> !excluded.contains(h.intentId)).findFirst().orElse(null);
    IntentHit best = best(embedding, searched, threshold, excluded, recent(ns));
    return best == null ? null : best.intentId;
  }

  /**
   * The intent {@code embedding} joins: the most similar at cosine ≥ {@code threshold} among {@code searched} (the
   * search's nearest, or null) and the groups in {@code pools} (created here, maybe not searchable yet), ties to the
   * older; none of {@code excluded}. Null if none qualifies.
   */
  @SafeVarargs
  private static @Nullable IntentHit best(float[] embedding, @Nullable IntentHit searched, double threshold,
      Set<String> excluded, List<RecentIntent>... pools) {
    IntentHit best = searched != null && searched.similarity >= threshold && !excluded.contains(searched.intentId)
        ? searched : null;
    for (List<RecentIntent> pool : pools) {
      for (RecentIntent r : pool) {
        double sim = Vectors.dot(embedding, r.embedding);
        if (!excluded.contains(r.intentId) && sim >= threshold
            && (best == null || sim > best.similarity || (sim == best.similarity && r.seq < best.seq))) {
          best = new IntentHit(r.intentId, r.seq, sim);
        }
      }
    }
    return best;
  }

  // ---------------------------------------------------------------- recall and reads

  private record IntentHit(String intentId, long seq, double similarity) {}

  @Override
  public List<IntentMatch> recall(String namespace, float[] query, int k, double minSimilarity) {
    checkOpen();
    if (k <= 0) {
      return List.of();
    }
    // Two requests: the kNN search, then the memories of the groups found. (One request with a [subquery] transformer
    // fetching each group's memories measured 2.8x slower here.)
    List<IntentHit> hits = new ArrayList<>();
    for (IntentHit h : searchIntents(namespace, query, k)) {
      if (h.similarity >= minSimilarity) {
        hits.add(h);
      }
    }
    if (hits.isEmpty()) {
      return List.of();
    }
    Map<String, List<Memory>> members = new HashMap<>();
    List<String> ids = hits.stream().map(IntentHit::intentId).toList();
    ModifiableSolrParams p = namespaceQuery(namespace, "m");
    p.add("fq", "{!terms f=intent}" + String.join(",", ids));
    p.set("fl", MEMORY_FIELDS);
    p.set("sort", "seq asc");
    forEachResult(p, d -> {
      Memory m = memory(namespace, d);
      members.computeIfAbsent(m.intentId(), x -> new ArrayList<>()).add(m);
    });
    List<IntentMatch> out = new ArrayList<>(hits.size());
    for (IntentHit h : hits) {
      List<Memory> ms = members.get(h.intentId);
      if (ms != null) { // a group whose last memory was deleted may still be searchable until the next soft commit
        out.add(new IntentMatch(h.intentId, h.similarity, ms));
      }
    }
    return out;
  }

  /** The {@code k} intents of {@code ns} most similar to {@code query}, most similar first, ties by age. */
  private List<IntentHit> searchIntents(String ns, float[] query, int k) {
    // HNSW searches as wide as topK: ask for more than k, as the embedded store does, or the nearest is often missed
    int candidates = Math.max(3 * k, k + 35);
    ModifiableSolrParams p = namespaceQuery(ns, "i");
    p.set("q", "{!knn f=vector topK=" + candidates + "}" + vectorLiteral(query));
    p.set("fl", "id,seq,score");
    p.set("rows", candidates);
    QueryResponse r = query(p);
    List<IntentHit> hits = new ArrayList<>(r.getResults().size());
    for (SolrDocument d : r.getResults()) {
      // Lucene scores cosine as (1 + cos) / 2
      double cos = 2.0 * ((Number) d.getFieldValue("score")).doubleValue() - 1.0;
      String id = shortId((String) d.getFieldValue("id"));
      hits.add(new IntentHit(id, ((Number) d.getFieldValue("seq")).longValue(), Math.max(-1, Math.min(1, cos))));
    }
    hits.sort(Comparator.comparingDouble(IntentHit::similarity).reversed().thenComparingLong(IntentHit::seq));
    return hits.size() > k ? List.copyOf(hits.subList(0, k)) : hits;
  }

  @Override
  public Optional<Memory> get(String namespace, String memoryId) {
    checkOpen();
    if (MemoryStore.sequenceOf(memoryId) < 0) {
      return Optional.empty();
    }
    SolrDocument d = realTimeGet(docId(namespace, memoryId), MEMORY_FIELDS);
    return d == null ? Optional.empty() : Optional.of(memory(namespace, d));
  }

  @Override
  public void forEachMemory(String namespace, Consumer<Memory> visitor) {
    checkOpen();
    ModifiableSolrParams p = namespaceQuery(namespace, "m");
    p.set("fl", MEMORY_FIELDS);
    p.set("sort", "seq asc,id asc");
    forEachResult(p, d -> visitor.accept(memory(namespace, d)));
  }

  @Override
  public List<Memory> page(String namespace, @Nullable String afterId, int limit) {
    checkOpen();
    if (limit <= 0) {
      return List.of();
    }
    long after = afterId == null ? -1 : MemoryStore.sequenceOf(afterId);
    ModifiableSolrParams p = namespaceQuery(namespace, "m");
    p.add("fq", "seq:{" + after + " TO *]");
    p.set("fl", MEMORY_FIELDS);
    p.set("sort", "seq asc");
    p.set("rows", Math.min(limit, 10_000));
    List<Memory> out = new ArrayList<>();
    for (SolrDocument d : query(p).getResults()) {
      out.add(memory(namespace, d));
    }
    return out;
  }

  @Override
  public Optional<String> evictionCandidate(String namespace, String keepId) {
    checkOpen();
    ModifiableSolrParams p = namespaceQuery(namespace, "m");
    p.add("fq", "-{!term f=id}" + docId(namespace, keepId));
    p.set("fl", "id");
    p.set("sort", "q asc,visits asc,seq asc");
    p.set("rows", 1);
    SolrDocumentList r = query(p).getResults();
    return r.isEmpty() ? Optional.empty() : Optional.of(shortId((String) r.getFirst().getFieldValue("id")));
  }

  @Override
  public StoreCounts counts(String namespace, Instant now) {
    checkOpen();
    ModifiableSolrParams p = namespaceQuery(namespace, null);
    p.set("rows", 0);
    p.set("facet", true);
    p.set("facet.field", "kind");
    p.set("facet.limit", -1);
    p.set("facet.mincount", 1);
    p.add("facet.query", "{!key=pending}(+kind:r +rewarded:0 +expires:[" + nanos(now) + " TO *])");
    QueryResponse r = query(p);
    long memories = 0;
    long intents = 0;
    var field = r.getFacetField("kind");
    if (field != null) {
      for (var c : field.getValues()) {
        if (c.getName().equals("m")) {
          memories = c.getCount();
        } else if (c.getName().equals("i")) {
          intents = c.getCount();
        }
      }
    }
    Integer pending = r.getFacetQuery() == null ? null : r.getFacetQuery().get("pending");
    return new StoreCounts(memories, intents, pending == null ? 0 : pending);
  }

  @Override
  public Set<String> namespaces() {
    checkOpen();
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("q", "*:*");
    p.add("fq", "kind:(m OR i OR r OR s OR l)");
    p.set("rows", 0);
    p.set("facet", true);
    p.set("facet.field", "tenant");
    p.set("facet.limit", -1);
    p.set("facet.mincount", 1);
    p.set("facet.sort", "index");
    Set<String> out = new TreeSet<>();
    var field = query(p).getFacetField("tenant");
    if (field != null) {
      field.getValues().forEach(c -> out.add(c.getName()));
    }
    return out;
  }

  // ---------------------------------------------------------------- delete

  @Override
  public boolean delete(String namespace, String memoryId) {
    checkOpen();
    if (MemoryStore.sequenceOf(memoryId) < 0) {
      return false;
    }
    synchronized (lock(namespace)) {
      String id = docId(namespace, memoryId);
      String intentId;
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = realTimeGet(id, "id,intent,_version_");
        if (d == null) {
          return false;
        }
        intentId = (String) d.getFieldValue("intent");
        UpdateRequest req = new UpdateRequest();
        req.deleteById(id, version(d));
        try {
          write(req);
          break;
        } catch (VersionConflict e) { // rewarded in between: read it again
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw unavailable("delete", e);
          }
        }
      }
      // one member fewer; the group goes with its last memory, unless a memory joins it in between
      String groupId = docId(namespace, intentId);
      UpdateRequest dec = new UpdateRequest();
      dec.add(membersDelta(namespace, intentId, -1));
      try {
        write(dec);
        SolrDocument group = realTimeGet(groupId, "id,members,_version_");
        if (group != null && ((Number) group.getFieldValue("members")).longValue() <= 0) {
          UpdateRequest drop = new UpdateRequest();
          drop.deleteById(groupId, version(group));
          write(drop);
          forgetRecent(namespace, intentId);
        }
      } catch (VersionConflict e) {
        // the group is already gone, or a memory joined it after the count was read: it stays
      }
      return true;
    }
  }

  // ---------------------------------------------------------------- retrievals and rewards

  @Override
  public RetrievalRecord saveRetrieval(RetrievalRecordDraft draft) {
    checkOpen();
    long seq = nextSequence();
    RetrievalRecord record = draft.withId("r" + seq);
    SolrInputDocument d = doc(draft.namespace(), record.id(), "r", seq);
    d.addField("payload", Payloads.retrieval(record));
    d.addField("expires", nanos(record.expiresAt()));
    d.addField("rewarded", 0L);
    d.addField("claim", 0L);
    UpdateRequest req = new UpdateRequest();
    req.add(d);
    write(req);
    return record;
  }

  @Override
  public Optional<RetrievalRecord> retrieval(String namespace, String retrievalId) {
    checkOpen();
    if (MemoryStore.sequenceOf(retrievalId, 'r') < 0) {
      return Optional.empty();
    }
    SolrDocument r = realTimeGet(docId(namespace, retrievalId), "id,payload");
    if (r == null || r.getFieldValue("payload") == null) {
      return Optional.empty();
    }
    return Optional.of(Payloads.retrieval(retrievalId, namespace, (String) r.getFieldValue("payload")));
  }

  @Override
  public RewardOutcome applyReward(String namespace, String retrievalId, Instant now, UtilityUpdate update) {
    checkOpen();
    if (MemoryStore.sequenceOf(retrievalId, 'r') < 0) {
      return new RewardOutcome.Unknown();
    }
    String rid = docId(namespace, retrievalId);
    SolrDocument r = realTimeGet(rid, "id,payload,rewarded,_version_");
    if (r == null || r.getFieldValue("payload") == null) {
      return new RewardOutcome.Unknown();
    }
    long rewarded = ((Number) r.getFieldValue("rewarded")).longValue();
    if (rewarded != 0) {
      return new RewardOutcome.AlreadyRewarded(instant(rewarded));
    }
    RetrievalRecord record = Payloads.retrieval(retrievalId, namespace, (String) r.getFieldValue("payload"));
    if (now.isAfter(record.expiresAt())) {
      return new RewardOutcome.Expired(record.expiresAt());
    }
    update.check(record);
    List<String> selected = new ArrayList<>(new LinkedHashSet<>(record.selectedIds()));
    // compute every new utility before anything changes: a rule that throws leaves all as it was
    Map<String, SolrDocument> current = memoriesById(namespace, selected);
    Map<String, Utility> after = new LinkedHashMap<>();
    List<UtilityChange> changes = new ArrayList<>();
    for (String id : selected) {
      SolrDocument d = current.get(id);
      if (d != null) {
        Utility before = utility(d);
        Utility next = update.apply(id, before);
        after.put(id, next);
        changes.add(new UtilityChange(id, before.q(), next.q(), next.visits()));
      }
    }
    // claim: exactly once across every process sharing the collection
    long token = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    SolrInputDocument claim = new SolrInputDocument();
    claim.addField("id", rid);
    long at = nanos(now);
    claim.addField("rewarded", Map.of("set", at == 0 ? 1L : at)); // 0 means "not rewarded"
    claim.addField("claim", Map.of("set", token));
    claim.addField("_version_", version(r));
    if (!updates.write(List.of(claim)).isEmpty()) { // another process or thread claimed it first
      SolrDocument again = realTimeGet(rid, "id,rewarded");
      long first = again == null ? 0 : ((Number) again.getFieldValue("rewarded")).longValue();
      return first != 0 ? new RewardOutcome.AlreadyRewarded(instant(first)) : new RewardOutcome.Unknown();
    }
    List<UtilityChange> applied = writeUtilities(namespace, current, after, changes, update, now);
    return new RewardOutcome.Applied(record, applied);
  }

  /**
   * Writes the new utilities in one request, each under the version it was computed from; a memory another
   * process updated in between is read again, recomputed and written again until it goes through.
   */
  private List<UtilityChange> writeUtilities(String ns, Map<String, SolrDocument> read, Map<String, Utility> after,
      List<UtilityChange> changes, UtilityUpdate update, Instant now) {
    if (after.isEmpty()) {
      return changes;
    }
    List<SolrInputDocument> docs = new ArrayList<>();
    for (var e : after.entrySet()) {
      docs.add(utilityDoc(ns, e.getKey(), e.getValue(), now, version(read.get(e.getKey()))));
    }
    Set<String> failed = new TreeSet<>();
    for (String docId : updates.write(docs)) {
      failed.add(shortId(docId));
    }
    if (failed.isEmpty()) {
      return changes;
    }
    Map<String, UtilityChange> byId = new LinkedHashMap<>();
    changes.forEach(c -> byId.put(c.memoryId(), c));
    for (String id : failed) {
      byId.remove(id);
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = realTimeGet(docId(ns, id), "id,q,visits,_version_");
        if (d == null) {
          break; // deleted in between: nothing to update
        }
        Utility before = utility(d);
        Utility next = update.apply(id, before);
        UpdateRequest one = new UpdateRequest();
        one.add(utilityDoc(ns, id, next, now, version(d)));
        try {
          write(one);
          byId.put(id, new UtilityChange(id, before.q(), next.q(), next.visits()));
          break;
        } catch (VersionConflict e) {
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw unavailable("reward", e);
          }
        }
      }
    }
    List<UtilityChange> out = new ArrayList<>();
    for (UtilityChange c : changes) { // in selection order
      UtilityChange applied = byId.get(c.memoryId());
      if (applied != null) {
        out.add(applied);
      }
    }
    return out;
  }

  private SolrInputDocument utilityDoc(String ns, String memoryId, Utility u, Instant now, long version) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", docId(ns, memoryId));
    d.addField("q", Map.of("set", u.q()));
    d.addField("visits", Map.of("set", u.visits()));
    d.addField("updated", Map.of("set", nanos(now)));
    d.addField("_version_", version);
    return d;
  }

  /** One request carrying version-checked updates of many callers ({@link UpdateBatcher}); returns the conflicts. */
  private Set<String> sendBatch(List<SolrInputDocument> docs) {
    UpdateRequest req = new UpdateRequest();
    req.add(docs);
    req.setParam("update.chain", TOLERANT_CHAIN);
    return new HashSet<>(tolerantErrors(write(req, true)));
  }

  private static List<String> tolerantErrors(NamedList<Object> response) {
    Object header = response.get("responseHeader");
    if (!(header instanceof NamedList<?> h) || !(h.get("errors") instanceof List<?> errors)) {
      return List.of();
    }
    List<String> ids = new ArrayList<>();
    for (Object e : errors) {
      Object id = SolrClusterAdmin.entry(e, "id");
      Object type = SolrClusterAdmin.entry(e, "type");
      Object message = SolrClusterAdmin.entry(e, "message");
      if (id == null || !"ADD".equals(String.valueOf(type)) || message == null || !message.toString().contains("version conflict")) {
        throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "store",
            "Solr rejected a utility update: " + e);
      }
      ids.add(id.toString());
    }
    return ids;
  }

  private Map<String, SolrDocument> memoriesById(String ns, List<String> ids) {
    Map<String, SolrDocument> out = new HashMap<>();
    if (ids.isEmpty()) {
      return out;
    }
    List<String> docIds = new ArrayList<>(ids.size());
    for (String id : ids) {
      if (MemoryStore.sequenceOf(id) >= 0) {
        docIds.add(docId(ns, id));
      }
    }
    if (docIds.isEmpty()) {
      return out;
    }
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("fl", "id,q,visits,_version_");
    for (SolrDocument d : read("read", () -> client.getById(collection, docIds, p))) {
      out.put(shortId((String) d.getFieldValue("id")), d);
    }
    return out;
  }

  // ---------------------------------------------------------------- embedding model

  @Override
  public Optional<EmbeddingModel> model() {
    checkOpen();
    EmbeddingModel known = model;
    if (known != null) {
      return Optional.of(known);
    }
    SolrDocument d = realTimeGet(MODEL_ID, "id,payload,dimension");
    if (d == null) {
      return Optional.empty();
    }
    Object id = d.getFieldValue("payload");
    Object dim = d.getFieldValue("dimension");
    try {
      known = new EmbeddingModel(id instanceof String text ? text : "", dim instanceof Number n ? n.intValue() : 0);
    } catch (MemLoopException e) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "--store",
          "--store: collection " + collection + " records an unreadable embedding model (" + e.getMessage() + ")", e);
    }
    model = known;
    return Optional.of(known);
  }

  /**
   * Records the model in a document of its own, created only if absent ({@code _version_ = -1}): of two processes
   * recording at once, the first wins and the other answers with its model.
   */
  @Override
  public EmbeddingModel recordModel(EmbeddingModel m) {
    checkOpen();
    m.requireFits(dimension);
    Optional<EmbeddingModel> recorded = model();
    if (recorded.isPresent()) {
      return recorded.get();
    }
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", MODEL_ID);
    d.addField("kind", "model");
    d.addField("payload", m.id());
    d.addField("dimension", m.dimension());
    d.addField("_version_", -1L);
    UpdateRequest req = new UpdateRequest();
    req.add(d);
    try {
      write(req);
    } catch (VersionConflict e) {
      return model().orElseThrow(() -> unavailable("model", e)); // another process recorded one first
    }
    model = m;
    return m;
  }

  // ---------------------------------------------------------------- settings and ledger

  @Override
  public Optional<Map<String, String>> settings(String namespace) {
    checkOpen();
    SolrDocument d = realTimeGet(docId(namespace, "s"), "id,payload");
    return d == null ? Optional.empty() : Optional.of(Payloads.settings((String) d.getFieldValue("payload")));
  }

  @Override
  public void saveSettings(String namespace, Map<String, String> settings) {
    checkOpen();
    SolrInputDocument d = doc(namespace, "s", "s", 0);
    d.addField("payload", Payloads.settings(settings));
    UpdateRequest req = new UpdateRequest();
    req.add(d);
    write(req);
  }

  @Override
  public Map<String, double[]> ledger(String namespace, Collection<String> keys) {
    checkOpen();
    Map<String, String> byDocId = new LinkedHashMap<>();
    for (String k : keys) {
      byDocId.put(ledgerId(namespace, k), k);
    }
    Map<String, double[]> out = new HashMap<>();
    if (byDocId.isEmpty()) {
      return out;
    }
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("fl", "id,payload");
    for (SolrDocument d : read("ledger", () -> client.getById(collection, byDocId.keySet(), p))) {
      String key = byDocId.get((String) d.getFieldValue("id"));
      if (key != null) {
        out.put(key, Payloads.numbers((String) d.getFieldValue("payload")));
      }
    }
    return out;
  }

  @Override
  public void putLedger(String namespace, Map<String, double[]> values) {
    checkOpen();
    if (values.isEmpty()) {
      return;
    }
    UpdateRequest req = new UpdateRequest();
    for (var e : values.entrySet()) {
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", ledgerId(namespace, e.getKey()));
      d.addField("kind", "l");
      d.addField("tenant", namespace);
      d.addField("payload", Payloads.numbers(e.getValue()));
      req.add(d);
    }
    write(req);
  }

  private String ledgerId(String ns, String key) {
    // '!' would make the key a routing prefix: encode it (and everything else unusual)
    return docId(ns, "l" + URLEncoder.encode(key, StandardCharsets.UTF_8).replace("!", "%21"));
  }

  // ---------------------------------------------------------------- lifecycle

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    closeQuietly(client);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("store is closed");
    }
  }

  /** Reads the collection's record of itself (writing it first for a new collection): dimension and routing. */
  private void checkMeta(int expected) {
    SolrDocument meta = realTimeGet(META_ID, "id,dimension,tenant_bits");
    if (meta == null) {
      SolrInputDocument d = new SolrInputDocument();
      d.addField("id", META_ID);
      d.addField("kind", "meta");
      d.addField("dimension", expected);
      d.addField("tenant_bits", options.tenantBits());
      d.addField("_version_", -1L);
      UpdateRequest req = new UpdateRequest();
      req.add(d);
      try {
        write(req);
        tenantBits = options.tenantBits();
        return;
      } catch (VersionConflict e) {
        meta = realTimeGet(META_ID, "id,dimension,tenant_bits"); // another process wrote it first
      }
    }
    int actual = meta == null ? expected : ((Number) meta.getFieldValue("dimension")).intValue();
    Object bits = meta == null ? null : meta.getFieldValue("tenant_bits");
    tenantBits = bits == null ? 16 : ((Number) bits).intValue();
    if (actual != expected) {
      throw new MemLoopException(MemLoopException.Reason.STORE_CORRUPT, "--store",
          "--store: collection " + collection + " records " + actual + "-d memories but its schema holds " + expected + "-d vectors");
    }
  }


  /** Ids come from one counter per collection, taken in blocks: unique across processes, never reused. */
  private synchronized long nextSequence() {
    if (sequenceNext >= sequenceEnd) {
      for (int attempt = 0; ; attempt++) {
        SolrDocument d = realTimeGet(SEQUENCE_ID, "id,next,_version_");
        long start = d == null ? 1 : ((Number) d.getFieldValue("next")).longValue();
        SolrInputDocument next = new SolrInputDocument();
        next.addField("id", SEQUENCE_ID);
        if (d == null) {
          next.addField("kind", "sequence");
          next.addField("next", start + SEQUENCE_BLOCK);
          next.addField("_version_", -1L);
        } else {
          next.addField("next", Map.of("set", start + SEQUENCE_BLOCK));
          next.addField("_version_", version(d));
        }
        UpdateRequest req = new UpdateRequest();
        req.add(next);
        try {
          write(req, false);
          sequenceNext = start;
          sequenceEnd = start + SEQUENCE_BLOCK;
          break;
        } catch (VersionConflict e) {
          if (attempt >= MAX_CONFLICT_RETRIES) {
            throw unavailable("id sequence", e);
          }
        }
      }
    }
    return sequenceNext++;
  }

  // ---------------------------------------------------------------- recent intents

  private void remember(String ns, RecentIntent r) {
    if (options.visibility() == SolrStoreOptions.Visibility.IMMEDIATE) {
      return; // searches already see it
    }
    List<RecentIntent> list = recentIntents.computeIfAbsent(ns, x -> new ArrayList<>());
    synchronized (list) {
      list.add(r);
    }
  }

  private List<RecentIntent> recent(String ns) {
    List<RecentIntent> list = recentIntents.get(ns);
    if (list == null) {
      return List.of();
    }
    long now = System.nanoTime();
    synchronized (list) {
      list.removeIf(r -> now - r.createdNanos > recentIntentNanos);
      return List.copyOf(list);
    }
  }

  private void forgetRecent(String ns, String intentId) {
    List<RecentIntent> list = recentIntents.get(ns);
    if (list != null) {
      synchronized (list) {
        list.removeIf(r -> r.intentId.equals(intentId));
      }
    }
  }

  private Object lock(String ns) {
    return namespaceLocks.computeIfAbsent(ns, x -> new Object());
  }

  // ---------------------------------------------------------------- Solr plumbing

  /** Thrown by {@link #write} when a document's {@code _version_} check failed (HTTP 409). */
  private static final class VersionConflict extends RuntimeException {
    VersionConflict(Throwable cause) {
      super(cause.getMessage(), cause);
    }
  }

  private NamedList<Object> write(UpdateRequest req) {
    return write(req, true);
  }

  private NamedList<Object> write(UpdateRequest req, boolean commitIfImmediate) {
    if (commitIfImmediate && options.visibility() == SolrStoreOptions.Visibility.IMMEDIATE) {
      req.setAction(AbstractUpdateRequest.ACTION.COMMIT, false, true, true);
    }
    try {
      return client.request(req, collection);
    } catch (SolrException e) {
      if (e.code() == 409) {
        throw new VersionConflict(e);
      }
      throw unavailable("write", e);
    } catch (SolrServerException | IOException e) {
      Throwable c = e.getCause();
      if (c instanceof SolrException se && se.code() == 409) {
        throw new VersionConflict(se);
      }
      throw unavailable("write", e);
    }
  }

  private @Nullable SolrDocument realTimeGet(String docId, String fields) {
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("fl", fields);
    return read("read", () -> client.getById(collection, docId, p));
  }

  private QueryResponse query(ModifiableSolrParams p) {
    return read("search", () -> new QueryRequest(p, SolrRequest.METHOD.POST).process(client, collection));
  }

  /** A read from Solr. */
  @FunctionalInterface
  private interface SolrRead<T> {
    T run() throws SolrServerException, IOException;
  }

  /**
   * Runs a read, again up to {@value #READ_ATTEMPTS} times in all when the connection failed (the JDK's HTTP/1.1 client
   * now and then hands out a pooled connection the server side has just closed); reads have no effect to repeat.
   * A request Solr answered with an error is not retried.
   */
  private <T> T read(String what, SolrRead<T> call) {
    for (int attempt = 1; ; attempt++) {
      try {
        return call.run();
      } catch (SolrServerException | IOException e) {
        if (attempt >= READ_ATTEMPTS) {
          throw unavailable(what, e);
        }
      } catch (SolrException e) {
        throw unavailable(what, e);
      }
    }
  }

  /** Every result of {@code p}, in its sort order (which must end with a unique field for the cursor). */
  private void forEachResult(ModifiableSolrParams p, Consumer<SolrDocument> visitor) {
    String sort = p.get("sort");
    if (!sort.contains("id ")) {
      p.set("sort", sort + ",id asc");
    }
    p.set("rows", PAGE);
    String cursor = CursorMarkParams.CURSOR_MARK_START;
    while (true) {
      p.set(CursorMarkParams.CURSOR_MARK_PARAM, cursor);
      QueryResponse r = query(p);
      r.getResults().forEach(visitor);
      String next = r.getNextCursorMark();
      // a short page is the last: asking again would only confirm it with an empty one
      if (next == null || next.equals(cursor) || r.getResults().size() < PAGE) {
        return;
      }
      cursor = next;
    }
  }

  /** A query over one namespace's documents (of {@code kind}, or all), routed to the namespace's shard. */
  private ModifiableSolrParams namespaceQuery(String ns, @Nullable String kind) {
    ModifiableSolrParams p = new ModifiableSolrParams();
    p.set("q", "*:*");
    p.add("fq", "{!term f=tenant}" + ns);
    if (kind != null) {
      p.add("fq", "{!term f=kind}" + kind);
    }
    p.set("_route_", route(ns));
    return p;
  }

  private SolrInputDocument doc(String ns, String shortId, String kind, long seq) {
    SolrInputDocument d = new SolrInputDocument();
    d.addField("id", docId(ns, shortId));
    d.addField("kind", kind);
    d.addField("tenant", ns);
    if (seq > 0) {
      d.addField("seq", seq);
    }
    return d;
  }

  private Memory memory(String ns, SolrDocument d) {
    return new Memory(
        shortId((String) d.getFieldValue("id")),
        ns,
        (String) d.getFieldValue("intent"),
        (String) d.getFieldValue("intent_text"),
        floats((byte[]) d.getFieldValue("embedding")),
        (String) d.getFieldValue("experience"),
        Outcome.valueOf((String) d.getFieldValue("outcome")),
        ((Number) d.getFieldValue("q")).doubleValue(),
        ((Number) d.getFieldValue("visits")).longValue(),
        Instant.parse((String) d.getFieldValue("created")),
        instant(((Number) d.getFieldValue("updated")).longValue()));
  }

  private static Utility utility(SolrDocument d) {
    return new Utility(((Number) d.getFieldValue("q")).doubleValue(), ((Number) d.getFieldValue("visits")).longValue());
  }

  private static long version(SolrDocument d) {
    return ((Number) d.getFieldValue("_version_")).longValue();
  }

  /** A document's compositeId: the namespace's routing prefix, then the store's own id. */
  String docId(String ns, String shortId) {
    return route(ns) + shortId;
  }

  /**
   * The routing prefix of a namespace's documents: {@code ns!} keeps all of them on one shard; {@code ns/B!} (a
   * collection created with {@code tenantBits=B} below 16) spreads a large namespace over 2^(16 − B) times as much of
   * the hash range, and its searches go to every shard it covers.
   */
  private String route(String ns) {
    return tenantBits >= 16 ? ns + "!" : ns + "/" + tenantBits + "!";
  }

  private static String shortId(String docId) {
    return docId.substring(docId.lastIndexOf('!') + 1);
  }

  private static long seqOf(String shortId) {
    return Long.parseLong(shortId.substring(1));
  }

  /** Epoch nanoseconds (saturated), how instants live in numeric fields. */
  static long nanos(Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    } catch (ArithmeticException e) {
      return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }

  static Instant instant(long nanos) {
    return Instant.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
  }

  private static List<Float> floats(float[] v) {
    List<Float> out = new ArrayList<>(v.length);
    for (float f : v) {
      out.add(f);
    }
    return out;
  }

  private static String vectorLiteral(float[] v) {
    StringBuilder b = new StringBuilder(v.length * 12).append('[');
    for (int i = 0; i < v.length; i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(v[i]);
    }
    return b.append(']').toString();
  }

  private static byte[] bytes(float[] v) {
    ByteBuffer b = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(v);
    return b.array();
  }

  private static float[] floats(byte[] b) {
    float[] v = new float[b.length / Float.BYTES];
    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    return v;
  }

  static MemLoopException unavailable(String what, Throwable e) {
    Throwable cause = e instanceof VersionConflict v ? v.getCause() : e;
    return new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "store",
        "store: Solr " + what + " failed: " + cause.getMessage(), cause);
  }

  static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception e) {
      // closing: nothing useful to do
    }
  }
}
