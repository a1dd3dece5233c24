package io.memloop.store.lucene;

import io.memloop.MemLoopException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * The Lucene side of the store: one index holding a document per intent group (its representative
 * vector in an HNSW field, its namespace and id) and a document per memory (its id and its {@link
 * MemoryContent} as one binary doc value: uncompressed and memory-mapped, so a lookup is a seek rather
 * than the block decompression stored fields need). Utilities are not here: they change too often.
 *
 * <p><b>Commits and the log:</b> commits are lazy. Each carries in its user data the LSN up to which
 * every logged insert is in the commit ({@value #COMMIT_LSN}); on open, inserts logged at or after it
 * are re-indexed. To keep that exact, inserts hold {@link #insertLock()} from their log append to
 * the end of their {@link #addDocuments}, and a commit takes the write side, reads the LSN and waits
 * for the log to be durable up to it before committing: an index commit never holds a document the
 * log could lose, nor misses one logged before its LSN.
 *
 * <p><b>Deletes</b> remove a memory's document (by its {@value IndexView#MEMORY_SEQ} term) and, when
 * its group empties, the group's document (by its {@value IndexView#GROUP_ID} term; indexes written
 * before that term existed fall back to a doc-values query). Like inserts, they hold {@link
 * #insertLock()} from their log append to the delete call, so commits stay exact. Until the next
 * refresh the current reader still holds deleted groups: searches ask HNSW for that many more
 * candidates ({@link #groupDeletes()}) and drop deleted groups by their flag.
 *
 * <p><b>Segments:</b> a {@value #RAM_BUFFER_MB} MB indexing buffer and a merge policy allowing
 * {@value #SEGMENTS_PER_TIER} segments per tier (Lucene's default is 10) keep the segment count low,
 * since every segment costs its own HNSW search; {@link #forceMerge} goes further after a bulk load.
 *
 * <p><b>Refresh:</b> a new reader is opened every {@code refreshEveryInserts} inserts. The live tail
 * is sealed under the write side of {@link #insertLock()} (so every document of a sealed tail has been
 * added), the reader is reopened outside it, then the view is swapped and the sealed tails dropped.
 *
 * <p>Thread safety: all methods may be called concurrently.
 */
final class VectorIndex implements Closeable {
  static final String COMMIT_LSN = "memloop.lsn";
  /**
   * Commit user data naming the memory document fields the index holds: absent in indexes written before memory
   * documents carried their words and sequence ({@value IndexView#MEMORY_WORD}, {@value IndexView#MEMORY_SEQ_VALUE});
   * such an index has every memory document re-indexed once when opened.
   */
  static final String COMMIT_FIELDS = "memloop.memoryFields";
  static final String FIELDS_VERSION = "2";
  /** Indexing buffer; refreshes flush earlier, so this matters for bulk loads. */
  static final double RAM_BUFFER_MB = 256;
  /** Lucene's default is 10; fewer segments mean fewer per-segment HNSW searches per query. */
  static final double SEGMENTS_PER_TIER = 4;

  private final Path path;
  private final VectorFormat format;
  /** HNSW candidates asked for, as a multiple of {@link IndexView#candidates}. */
  private final int oversample;
  private final Directory directory;
  private final IndexWriter writer;
  private final int refreshEveryInserts;
  private final ReentrantReadWriteLock insertLock = new ReentrantReadWriteLock();
  private final ReentrantLock refreshLock = new ReentrantLock();
  /** Groups deleted so far in this process (see {@link IndexView#groupDeletesBefore}). */
  private final AtomicLong groupDeletes = new AtomicLong();
  /** Whether some group document lacks the {@value IndexView#GROUP_ID} term (written by an older build). */
  private final boolean legacyGroupDocs;
  private volatile IndexView view;
  private volatile boolean closed;
  private final MergeFailures mergeFailures;

  private VectorIndex(Path path, Directory directory, VectorFormat format, int oversample, IndexWriter writer,
      int refreshEveryInserts, MergeFailures mergeFailures) throws IOException {
    this.path = path;
    this.format = format;
    this.oversample = oversample;
    this.mergeFailures = mergeFailures;
    this.directory = directory;
    this.writer = writer;
    this.refreshEveryInserts = refreshEveryInserts;
    DirectoryReader reader = DirectoryReader.open(writer);
    this.legacyGroupDocs = hasGroupDocsWithoutId(reader);
    this.view = new IndexView(reader, List.of(new Tail()), 0, oversample);
  }

  private static boolean hasGroupDocsWithoutId(DirectoryReader reader) throws IOException {
    for (LeafReaderContext leaf : reader.leaves()) {
      FloatVectorValues vectors = leaf.reader().getFloatVectorValues(IndexView.GROUP_VECTOR);
      Terms ids = leaf.reader().terms(IndexView.GROUP_ID);
      // both counts include deleted documents
      if ((vectors == null ? 0 : vectors.size()) > (ids == null ? 0 : ids.getDocCount())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The LSN recorded by the last commit of the index at {@code path}: -1 if there is no index yet.
   * Reads only.
   */
  static long committedLsn(Path path) throws IOException {
    if (!java.nio.file.Files.isDirectory(path)) {
      return -1;
    }
    try (Directory dir = FSDirectory.open(path)) {
      if (!DirectoryReader.indexExists(dir)) {
        return -1;
      }
      // After a checkpoint the index is the only copy of texts and vectors: every file of the commit is
      // checked against its checksum (a full read) before the store opens, so damage is refused, not
      // served. Nothing is written here, so a refused store keeps its files as found.
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        for (LeafReaderContext leaf : r.leaves()) {
          leaf.reader().checkIntegrity();
        }
      }
      Map<String, String> data = SegmentInfos.readLatestCommit(dir).getUserData();
      String lsn = data.get(COMMIT_LSN);
      if (lsn == null) {
        throw StoreFiles.corrupt(path, "index commit lacks " + COMMIT_LSN + " (not written by MemLoop?)");
      }
      try {
        return Long.parseLong(lsn);
      } catch (NumberFormatException e) {
        throw StoreFiles.corrupt(path, "index commit has bad " + COMMIT_LSN + " '" + lsn + "'");
      }
    }
  }

  /** Opens (or creates) the index and re-indexes {@code redo}, committing at {@code endLsn} if any. */
  static VectorIndex open(Path path, int dimension, VectorFormat format, boolean convert, LuceneStoreOptions options,
      List<Redo> redo, long endLsn, StoreIo io) throws IOException {
    Directory dir = io.indexDirectory().apply(FSDirectory.open(path));
    MergeFailures mergeFailures = new MergeFailures();
    IndexWriter writer = null;
    try {
      TieredMergePolicy merges = new TieredMergePolicy();
      merges.setSegmentsPerTier(SEGMENTS_PER_TIER);
      IndexWriterConfig cfg = new IndexWriterConfig()
          .setCodec(HnswFormat.codec(format, options.hnswMaxConn(), options.hnswBeamWidth()))
          .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
          .setRAMBufferSizeMB(RAM_BUFFER_MB)
          .setMergePolicy(new RewriteOnce(merges, convert))
          .setMergeScheduler(mergeFailures)
          .setCommitOnClose(false);
      writer = new IndexWriter(dir, cfg);
      try (DirectoryReader r = DirectoryReader.open(dir)) {
        FieldInfo vectors = FieldInfos.getMergedFieldInfos(r).fieldInfo(IndexView.GROUP_VECTOR);
        if (vectors != null && vectors.getVectorDimension() != dimension) {
          throw StoreFiles.corrupt(path, "index vectors have dimension " + vectors.getVectorDimension()
              + " but the store metadata says " + dimension);
        }
      } catch (org.apache.lucene.index.IndexNotFoundException fresh) {
        // a new store: nothing to check yet
      }
      boolean oldFields = DirectoryReader.indexExists(dir)
          && !FIELDS_VERSION.equals(SegmentInfos.readLatestCommit(dir).getUserData().get(COMMIT_FIELDS));
      if (!redo.isEmpty() || !DirectoryReader.indexExists(dir) || oldFields) {
        boolean legacy = false;
        if (redo.stream().anyMatch(r -> r instanceof Redo.Delete d && d.groupSeq() >= 0)) {
          try (DirectoryReader r = DirectoryReader.open(writer)) {
            legacy = hasGroupDocsWithoutId(r);
          }
        }
        for (Redo r : redo) {
          switch (r) {
            case Redo.Add a -> writer.addDocuments(documents(a.namespace(), a.memorySeq(), a.content(), a.vector(),
                a.groupSeq()));
            case Redo.Delete d -> delete(writer, d.memorySeq(), d.groupSeq(), legacy);
            case Redo.Update u -> writer.updateDocuments(memoryTerm(u.memorySeq()), documents("", u.memorySeq(), u.content(),
                null, -1));
          }
        }
        if (oldFields) {
          reindexMemories(writer);
        }
        commit(writer, endLsn);
      }
      if (convert && DirectoryReader.indexExists(dir)) {
        // one merge of every segment (even a lone one) rewrites them all with the writer's codec: the recorded format
        writer.forceMerge(1, true);
        commit(writer, endLsn);
      }
      int oversample = options.searchOversample() > 0 ? options.searchOversample() : format.oversample();
      return new VectorIndex(path, dir, format, oversample, writer, options.refreshEveryInserts(), mergeFailures);
    } catch (IOException | RuntimeException e) {
      if (writer != null) {
        writer.rollback();
      }
      dir.close();
      throw e;
    }
  }

  /**
   * The store's merge policy, except that the first forced merge after opening rewrites every segment in one merge
   * (Lucene skips an index already down to one segment): how an index is converted to another vector format.
   */
  private static final class RewriteOnce extends org.apache.lucene.index.FilterMergePolicy {
    private final java.util.concurrent.atomic.AtomicBoolean pending;

    RewriteOnce(org.apache.lucene.index.MergePolicy in, boolean rewrite) {
      super(in);
      this.pending = new java.util.concurrent.atomic.AtomicBoolean(rewrite);
    }

    @Override
    public MergeSpecification findForcedMerges(SegmentInfos infos, int maxSegmentCount,
        Map<org.apache.lucene.index.SegmentCommitInfo, Boolean> segmentsToMerge, MergeContext context) throws IOException {
      if (pending.get()) {
        List<org.apache.lucene.index.SegmentCommitInfo> all = new ArrayList<>();
        for (org.apache.lucene.index.SegmentCommitInfo s : infos) {
          if (segmentsToMerge.containsKey(s) && !context.getMergingSegments().contains(s)) {
            all.add(s);
          }
        }
        if (!all.isEmpty() && pending.compareAndSet(true, false)) {
          MergeSpecification spec = new MergeSpecification();
          spec.add(new OneMerge(all));
          return spec;
        }
      }
      return super.findForcedMerges(infos, maxSegmentCount, segmentsToMerge, context);
    }
  }

  /** A logged change the index commit does not hold, to redo on open. */
  sealed interface Redo {
    /** An insert; {@code vector} is null if it joined an existing group. */
    record Add(String namespace, long memorySeq, byte[] content, float @Nullable [] vector, long groupSeq)
        implements Redo {}

    /** A delete; {@code groupSeq} is the group that went with it, or -1. */
    record Delete(long memorySeq, long groupSeq) implements Redo {}

    /** An edit: the memory's document gets {@code content}. */
    record Update(long memorySeq, byte[] content) implements Redo {}
  }

  /**
   * Re-indexes every live memory document with the fields of {@link #documents} (an index written before they
   * existed): reads a point-in-time reader leaf by leaf, in document order, and replaces each document.
   */
  private static void reindexMemories(IndexWriter writer) throws IOException {
    try (DirectoryReader r = DirectoryReader.open(writer)) {
      for (LeafReaderContext leaf : r.leaves()) {
        org.apache.lucene.index.LeafReader lr = leaf.reader();
        Terms terms = lr.terms(IndexView.MEMORY_SEQ);
        if (terms == null) {
          continue;
        }
        org.apache.lucene.util.Bits live = lr.getLiveDocs();
        List<long[]> docs = new ArrayList<>(); // (doc, seq)
        org.apache.lucene.index.TermsEnum te = terms.iterator();
        org.apache.lucene.index.PostingsEnum postings = null;
        for (BytesRef t = te.next(); t != null; t = te.next()) {
          long seq = IndexView.seqOf(t, -1);
          postings = te.postings(postings, org.apache.lucene.index.PostingsEnum.NONE);
          for (int d = postings.nextDoc(); d != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
            if (live == null || live.get(d)) {
              docs.add(new long[] {d, seq});
            }
          }
        }
        docs.sort(java.util.Comparator.comparingLong(x -> x[0]));
        org.apache.lucene.index.BinaryDocValues values = lr.getBinaryDocValues(IndexView.MEMORY_CONTENT);
        for (long[] d : docs) {
          if (values == null || !values.advanceExact((int) d[0])) {
            throw new IOException("memory m" + d[1] + " has no stored content");
          }
          BytesRef b = values.binaryValue();
          byte[] content = java.util.Arrays.copyOfRange(b.bytes, b.offset, b.offset + b.length);
          writer.updateDocuments(memoryTerm(d[1]), documents("", d[1], content, null, -1));
        }
      }
    }
  }

  private static Term memoryTerm(long memorySeq) {
    return new Term(IndexView.MEMORY_SEQ, IndexView.seqTerm(memorySeq));
  }

  /**
   * Replaces memory {@code memorySeq}'s document by one holding {@code content} (an edit). Caller holds
   * {@link #insertLock()} and has logged the edit and put the new content in the live tail ({@link #putInTail}).
   */
  void update(long memorySeq, byte[] content) throws IOException {
    writer.updateDocuments(memoryTerm(memorySeq), documents("", memorySeq, content, null, -1));
    view.live().inserts.incrementAndGet(); // counts toward the next refresh, as inserts do
  }

  /** Makes reads see {@code content} for memory slot {@code slot} until a refresh. Caller holds {@link #insertLock()}. */
  void putInTail(int slot, MemoryContent content) {
    view.live().memories.put(slot, content);
  }

  /** Held (read side) by an insert from its log append to its {@link #add}. */
  Lock insertLock() {
    return insertLock.readLock();
  }

  /**
   * Makes a memory (and its new group when {@code vector} is non-null) visible to reads and merge
   * decisions through the live tail. Caller holds {@link #insertLock()} and the namespace's write lock.
   */
  void addToTail(NamespaceState ns, int slot, MemoryContent content, float @Nullable [] vector, int groupIndex,
      long groupSeq) {
    Tail live = view.live();
    if (vector != null) {
      live.addGroup(ns.id, new Tail.TailGroup(groupIndex, groupSeq, vector));
    }
    live.memories.put(slot, content);
    live.inserts.incrementAndGet();
  }

  /**
   * Adds the Lucene documents of a memory already in the tail (this builds its HNSW node, the costly
   * part, so it runs after the namespace lock is released). Caller still holds {@link #insertLock()}.
   */
  void addDocuments(String namespace, long memorySeq, byte[] contentBytes, float @Nullable [] vector, long groupSeq)
      throws IOException {
    writer.addDocuments(documents(namespace, memorySeq, contentBytes, vector, groupSeq));
  }

  /**
   * Adds the documents of many memories already in the tail with one {@code addDocuments} call; see
   * {@link #addDocuments(String, long, byte[], float[], long)}.
   */
  void addDocuments(List<Document> docs) throws IOException {
    writer.addDocuments(docs);
  }

  /**
   * Deletes memory {@code memorySeq}'s document, and group {@code groupSeq}'s if it is not -1. Caller
   * holds {@link #insertLock()} and has logged the delete.
   */
  void delete(long memorySeq, long groupSeq) throws IOException {
    delete(writer, memorySeq, groupSeq, legacyGroupDocs);
    if (groupSeq >= 0) {
      groupDeletes.incrementAndGet();
    }
    view.live().inserts.incrementAndGet(); // deletes count toward the next refresh too
  }

  private static void delete(IndexWriter writer, long memorySeq, long groupSeq, boolean legacy) throws IOException {
    writer.deleteDocuments(new Term(IndexView.MEMORY_SEQ, IndexView.seqTerm(memorySeq)));
    if (groupSeq >= 0) {
      Term id = new Term(IndexView.GROUP_ID, IndexView.seqTerm(groupSeq));
      if (legacy) {
        Query byDocValues = NumericDocValuesField.newSlowExactQuery(IndexView.GROUP_SEQ, groupSeq);
        writer.deleteDocuments(new BooleanQuery.Builder()
            .add(new TermQuery(id), BooleanClause.Occur.SHOULD)
            .add(byDocValues, BooleanClause.Occur.SHOULD)
            .build());
      } else {
        writer.deleteDocuments(id);
      }
    }
  }

  /** Groups deleted so far by this process: a reader opened earlier may still hold up to the difference. */
  long groupDeletes() {
    return groupDeletes.get();
  }

  static List<Document> documents(String namespace, long memorySeq, byte[] content,
      float @Nullable [] vector, long groupSeq) {
    List<Document> docs = new ArrayList<>(2);
    if (vector != null) {
      Document g = new Document();
      g.add(new StringField(IndexView.GROUP_NAMESPACE, namespace, Field.Store.NO));
      g.add(new StringField(IndexView.GROUP_ID, IndexView.seqTerm(groupSeq), Field.Store.NO));
      g.add(new KnnFloatVectorField(IndexView.GROUP_VECTOR, vector, VectorSimilarityFunction.DOT_PRODUCT));
      g.add(new NumericDocValuesField(IndexView.GROUP_SEQ, groupSeq));
      docs.add(g);
    }
    Document m = new Document();
    m.add(new StringField(IndexView.MEMORY_SEQ, IndexView.seqTerm(memorySeq), Field.Store.NO));
    m.add(new NumericDocValuesField(IndexView.MEMORY_SEQ_VALUE, memorySeq));
    m.add(new BinaryDocValuesField(IndexView.MEMORY_CONTENT, new BytesRef(content)));
    MemoryContent decoded;
    try {
      decoded = MemoryContent.decode(content, 0, content.length);
    } catch (ByteReader.Malformed e) {
      throw new IllegalStateException("memory m" + memorySeq + " has malformed content: " + e.getMessage(), e);
    }
    // the words MemoryQuery's text filter matches, indexed as they are (no analyzer: one definition of a word)
    java.util.Set<String> words = new java.util.LinkedHashSet<>(io.memloop.MemoryQuery.words(decoded.intentText()));
    words.addAll(io.memloop.MemoryQuery.words(decoded.experience()));
    for (String w : words) {
      m.add(new StringField(IndexView.MEMORY_WORD, IndexView.wordTerm(w), Field.Store.NO));
    }
    docs.add(m);
    return docs;
  }

  /** The current view, acquired; release it when done. */
  IndexView acquire() {
    while (true) {
      IndexView v = view;
      if (v.tryAcquire()) {
        return v;
      }
      if (closed) {
        throw new MemLoopException(MemLoopException.Reason.STORE_UNAVAILABLE, "", "store is closed");
      }
    }
  }

  boolean refreshDue() {
    return view.live().inserts.get() >= refreshEveryInserts;
  }

  /** Opens a reader that sees every insert so far and drops the tails it covers. */
  void refresh() throws IOException {
    refresh(false);
  }

  /** As {@link #refresh()}; {@code wait} waits for a running refresh and then refreshes again. */
  void refresh(boolean wait) throws IOException {
    if (wait) {
      refreshLock.lock();
    } else if (!refreshLock.tryLock()) {
      return; // another thread is refreshing; the tail keeps serving reads meanwhile
    }
    try {
      IndexView old = view;
      Tail live = new Tail();
      long deletesBefore;
      insertLock.writeLock().lock();
      try {
        List<Tail> tails = new ArrayList<>(old.tails);
        tails.add(live);
        view = new IndexView(old.reader, tails, old.groupDeletesBefore, oversample);
        deletesBefore = groupDeletes.get(); // every delete counted here has reached the writer
      } finally {
        insertLock.writeLock().unlock();
      }
      DirectoryReader next = DirectoryReader.openIfChanged(old.reader, writer);
      if (next == null) {
        next = old.reader;
        next.incRef();
      }
      view = new IndexView(next, List.of(live), deletesBefore, oversample);
      old.reader.decRef();
    } finally {
      refreshLock.unlock();
    }
  }

  /**
   * Commits everything indexed so far, recording {@code lsnSupplier}'s LSN. Blocks inserts meanwhile;
   * {@code durable} is called with the LSN and must return once the log is durable up to it. A negative LSN
   * skips the commit (the log cannot be made durable now without waiting for an open unit).
   */
  void commit(java.util.function.LongSupplier lsnSupplier, java.util.function.LongConsumer durable)
      throws IOException {
    insertLock.writeLock().lock();
    try {
      long lsn = lsnSupplier.getAsLong();
      if (lsn < 0) {
        return;
      }
      durable.accept(lsn);
      commit(writer, lsn);
    } finally {
      insertLock.writeLock().unlock();
    }
  }

  private static void commit(IndexWriter writer, long lsn) throws IOException {
    writer.setLiveCommitData(Map.of(COMMIT_LSN, Long.toString(lsn), COMMIT_FIELDS, FIELDS_VERSION).entrySet());
    writer.commit();
  }

  /** How the HNSW graph holds vectors (the store's recorded format). */
  VectorFormat format() {
    return format;
  }

  /**
   * Merges the index down to at most {@code maxSegments} segments (each costs its own HNSW search),
   * waiting for the merge; inserts and reads go on meanwhile. Does not commit.
   */
  void forceMerge(int maxSegments) throws IOException {
    writer.forceMerge(maxSegments, true);
  }

  /**
   * The first background merge failure not yet reported, or null; clears it. A failed merge loses
   * nothing (its segments stay in use), so it is reported once, not kept as a failure of the store.
   */
  @Nullable Throwable takeMergeFailure() {
    return mergeFailures.take();
  }

  /** Why Lucene closed the writer (a failed flush or merge on any thread), or null while it is open. */
  @Nullable Throwable writerFailure() {
    return writer.getTragicException();
  }

  /** Waits for running background merges (tests). */
  void awaitMerges() {
    mergeFailures.sync();
  }

  /** Segments of the current reader (tests and diagnostics). */
  int segmentCount() {
    return view.reader.leaves().size();
  }

  Path path() {
    return path;
  }

  /**
   * Closes after a clean checkpoint: lets running merges finish and commits them (under the
   * checkpoint's LSN, which nothing has passed since), so short-lived processes do not leave ever
   * more small segments behind; then closes without committing anything else.
   */
  @Override
  public void close() throws IOException {
    closed = true;
    try {
      if (writer.getConfig().getMergeScheduler() instanceof ConcurrentMergeScheduler merges) {
        merges.sync(); // waits for the merge threads, which run every pending merge before they stop
      }
      writer.commit();
      writer.close();
    } finally {
      try {
        view.reader.decRef();
      } finally {
        directory.close();
      }
    }
  }

  /** Discards everything since the last commit, as a crash would. */
  void abandon() throws IOException {
    closed = true;
    try {
      writer.rollback();
    } finally {
      try {
        view.reader.decRef();
      } finally {
        directory.close();
      }
    }
  }
}
