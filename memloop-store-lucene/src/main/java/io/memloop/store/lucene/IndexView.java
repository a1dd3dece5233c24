package io.memloop.store.lucene;

import io.memloop.Vectors;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.KnnVectorValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.jspecify.annotations.Nullable;

/**
 * A point-in-time read view: a Lucene reader plus the tails holding what was inserted after it was
 * opened. Every acknowledged insert is in the reader or in one of the tails (possibly both, right
 * after a refresh; results are de-duplicated by id).
 *
 * <p>Thread safety: immutable apart from the tails (see {@link Tail}); callers get it from {@link
 * VectorIndex#acquire()} and {@link #release()} it when done, which keeps the reader open meanwhile.
 */
final class IndexView {
  static final String GROUP_VECTOR = "gvec";
  static final String GROUP_NAMESPACE = "gns";
  static final String GROUP_SEQ = "gseq";
  /** The group's sequence number as a term, for deletes (absent from documents of older builds). */
  static final String GROUP_ID = "gid";
  static final String MEMORY_SEQ = "mseq";
  static final String MEMORY_CONTENT = "mc";
  /** The memory's sequence number as a doc value, to map matching documents to memories. */
  static final String MEMORY_SEQ_VALUE = "mseqv";
  /** The words of the memory's intent text and experience ({@link io.memloop.MemoryQuery#words}), one term each. */
  static final String MEMORY_WORD = "mw";
  /** Lucene refuses terms over 32766 bytes; a longer word is indexed (and searched) by a prefix and its hash. */
  private static final int MAX_WORD_BYTES = 8192;

  /** One group within the similarity gate. */
  record GroupHit(int index, long seq, double similarity) {}

  /** {@link io.memloop.policy.Recall}: most similar first, ties to the lower sequence (the older group). */
  private static final Comparator<GroupHit> BEST_FIRST =
      (a, b) -> io.memloop.policy.Recall.compare(a.similarity(), a.seq(), b.similarity(), b.seq());

  final DirectoryReader reader;
  private final IndexSearcher searcher;
  /** Oldest first; the last one is the live tail that inserts append to. */
  final List<Tail> tails;
  /**
   * {@link VectorIndex#groupDeletes()} when {@code reader} was opened: the reader reflects those
   * deletes, and may still hold any group deleted since.
   */
  final long groupDeletesBefore;

  /** {@link VectorFormat#oversample()} of the graph's format: candidates asked of HNSW are multiplied by it. */
  private final int oversample;

  IndexView(DirectoryReader reader, List<Tail> tails, long groupDeletesBefore, int oversample) {
    this.oversample = oversample;
    this.reader = reader;
    this.searcher = new IndexSearcher(reader);
    this.tails = List.copyOf(tails);
    this.groupDeletesBefore = groupDeletesBefore;
  }

  Tail live() {
    return tails.get(tails.size() - 1);
  }

  boolean tryAcquire() {
    return reader.tryIncRef();
  }

  void release() throws IOException {
    reader.decRef();
  }

  /** Graphs of at most this many groups get the narrower HNSW search of {@link #candidates}. */
  static final int SMALL_GRAPH = 150_000;

  /**
   * How many candidates Lucene's HNSW search is asked for to return the best {@code k} groups of a graph of
   * {@code graphSize} groups: {@code max(3k, k + 25)} (30 for k = 5) up to {@link #SMALL_GRAPH} groups, and
   * {@code max(3k, k + 75)} (80) above. Measured recall@5 on the clustered stores (BENCHMARKS.md "Phase A
   * recall@5"): at 100k, 30 candidates 0.990 on the tuning queries (2026-11-26; 40 → 0.998, 20 → 0.982) and 0.995
   * held out; at 1M in one segment 32 → 0.85, 64 → 0.95, 80 → 0.97–0.99. The search is half of a served episode's
   * CPU (JFR), so it is not made wider than the recall target (0.95) needs with a margin.
   */
  static long candidates(int k, int graphSize) {
    return Math.max(3L * k, k + (graphSize <= SMALL_GRAPH ? 25L : 75L));
  }

  /**
   * The {@code k} groups of {@code ns} most similar to {@code query} with similarity at least {@code
   * minSimilarity}, best first in {@link io.memloop.policy.Recall} order. Lucene's HNSW search is asked for more than {@code k}
   * ({@link #candidates}) to raise recall; similarities are recomputed exactly so that the gate and ties match
   * the in-memory store. Deleted groups are never returned; {@code staleGroups} groups
   * deleted since the reader was opened may still be in it, so HNSW is asked for that many more.
   * Caller holds {@code ns}'s lock.
   *
   * @param filterByNamespace false when {@code ns} owns every group, which spares Lucene the filter
   * @param staleGroups {@code VectorIndex.groupDeletes() - groupDeletesBefore}, or any upper bound
   */
  List<GroupHit> searchGroups(NamespaceState ns, boolean filterByNamespace, float[] query, int k,
      double minSimilarity, GroupTable groups, long staleGroups) throws IOException {
    Map<Long, GroupHit> hits = new HashMap<>();
    long stale = Math.min(Math.max(0, staleGroups), Integer.MAX_VALUE / 4);
    int inNamespace = ns.groups.size();
    int kSearch = (int) Math.min(inNamespace + stale, oversample * candidates(k, groups.size()) + stale);
    if (kSearch > 0) {
      Query filter = filterByNamespace ? new TermQuery(new Term(GROUP_NAMESPACE, ns.name)) : null;
      TopDocs top = searcher.search(new KnnFloatVectorQuery(GROUP_VECTOR, query, kSearch, filter), kSearch);
      collectExact(top.scoreDocs, ns.id, query, minSimilarity, groups, hits);
    }
    for (Tail tail : tails) {
      for (Tail.TailGroup g : tail.groups(ns.id)) {
        double sim = Vectors.dot(g.vector(), query);
        if (sim >= minSimilarity && !groups.get(g.index()).deleted) {
          hits.putIfAbsent(g.seq(), new GroupHit(g.index(), g.seq(), sim));
        }
      }
    }
    List<GroupHit> out = new ArrayList<>(hits.values());
    out.sort(BEST_FIRST);
    return out.size() > k ? out.subList(0, k) : out;
  }

  private void collectExact(ScoreDoc[] scoreDocs, int namespaceId, float[] query, double minSimilarity, GroupTable groups,
      Map<Long, GroupHit> out) throws IOException {
    ScoreDoc[] byDoc = scoreDocs.clone();
    Arrays.sort(byDoc, Comparator.comparingInt(sd -> sd.doc));
    List<LeafReaderContext> leaves = reader.leaves();
    int leafIndex = -1;
    FloatVectorValues vectors = null;
    KnnVectorValues.DocIndexIterator it = null;
    NumericDocValues seqs = null;
    for (ScoreDoc sd : byDoc) {
      int li = ReaderUtil.subIndex(sd.doc, leaves);
      LeafReaderContext leaf = leaves.get(li);
      if (li != leafIndex) {
        leafIndex = li;
        vectors = leaf.reader().getFloatVectorValues(GROUP_VECTOR);
        it = vectors.iterator();
        seqs = leaf.reader().getNumericDocValues(GROUP_SEQ);
      }
      int doc = sd.doc - leaf.docBase;
      if (it.advance(doc) != doc || !seqs.advanceExact(doc)) {
        throw new IOException("group doc " + sd.doc + " lacks its vector or sequence number");
      }
      double sim = Vectors.dot(vectors.vectorValue(it.index()), query);
      long seq = seqs.longValue();
      if (sim >= minSimilarity) {
        int index = groups.find(seq);
        if (index < 0) {
          throw new IOException("index holds group i" + seq + " that the log does not know");
        }
        GroupTable.Group g = groups.get(index);
        // unfiltered searches may see other namespaces; a reader older than a delete, deleted groups
        if (g.namespace == namespaceId && !g.deleted) {
          out.put(seq, new GroupHit(index, seq, sim));
        }
      }
    }
  }

  /**
   * Contents of the memories at {@code slots} (whose sequence numbers are {@code seqs}), from the
   * tails or from Lucene's doc values.
   */
  MemoryContent[] contents(int[] slots, long[] seqs) throws IOException {
    MemoryContent[] out = new MemoryContent[slots.length];
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < slots.length; i++) {
      for (Tail tail : tails.reversed()) { // newest first: an edit's content is in a newer tail than its insert
        MemoryContent c = tail.memories.get(slots[i]);
        if (c != null) {
          out[i] = c;
          break;
        }
      }
      if (out[i] == null) {
        missing.add(i);
      }
    }
    if (!missing.isEmpty()) {
      missing.sort(Comparator.comparingLong(i -> seqs[i]));
      loadStored(missing, seqs, out);
    }
    return out;
  }

  private void loadStored(List<Integer> wanted, long[] seqs, MemoryContent[] out) throws IOException {
    for (LeafReaderContext leaf : reader.leaves()) {
      LeafReader lr = leaf.reader();
      Terms terms = lr.terms(MEMORY_SEQ);
      if (terms == null) {
        continue;
      }
      long min = seqOf(terms.getMin(), Long.MIN_VALUE);
      long max = seqOf(terms.getMax(), Long.MAX_VALUE);
      TermsEnum te = null;
      PostingsEnum postings = null;
      List<long[]> found = new ArrayList<>(); // (doc, i)
      for (int i : wanted) {
        if (out[i] != null || seqs[i] < min || seqs[i] > max) {
          continue;
        }
        if (te == null) {
          te = terms.iterator();
        }
        if (te.seekExact(seqTerm(seqs[i]))) {
          postings = te.postings(postings, PostingsEnum.NONE);
          // an edited memory's replaced document may still be in a segment, deleted: take the live one
          Bits live = lr.getLiveDocs();
          for (int d = postings.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = postings.nextDoc()) {
            if (live == null || live.get(d)) {
              found.add(new long[] {d, i});
              break;
            }
          }
        }
      }
      if (found.isEmpty()) {
        continue;
      }
      // doc values iterate forward only: visit the found documents in doc order
      found.sort(Comparator.comparingLong(f -> f[0]));
      BinaryDocValues values = lr.getBinaryDocValues(MEMORY_CONTENT);
      for (long[] f : found) {
        int i = (int) f[1];
        if (values == null || !values.advanceExact((int) f[0])) {
          throw new IOException("memory m" + seqs[i] + " has no stored content");
        }
        BytesRef b = values.binaryValue();
        try {
          out[i] = MemoryContent.decode(b.bytes, b.offset, b.length);
        } catch (ByteReader.Malformed e) {
          throw new IOException("memory m" + seqs[i] + " has malformed stored content: " + e.getMessage(), e);
        }
      }
    }
    for (int i : wanted) {
      if (out[i] == null) {
        throw new IOException("memory m" + seqs[i] + " is in the log but not in the index");
      }
    }
  }

  /** The term of word {@code w}: its UTF-8 bytes, or for a very long word a prefix plus the word's hash. */
  static BytesRef wordTerm(String w) {
    BytesRef b = new BytesRef(w);
    if (b.length <= MAX_WORD_BYTES) {
      return b;
    }
    java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
    crc.update(b.bytes, b.offset, b.length);
    byte[] out = java.util.Arrays.copyOf(b.bytes, MAX_WORD_BYTES + 9);
    out[MAX_WORD_BYTES] = (byte) 0xff; // not valid UTF-8: no real word ends this way
    for (int i = 0; i < 8; i++) {
      out[MAX_WORD_BYTES + 1 + i] = (byte) ((crc.getValue() ^ ((long) b.length << 32)) >>> (8 * i));
    }
    return new BytesRef(out);
  }

  /**
   * Hands {@code out} the sequence number of every memory document of this view's reader (not its tails) that
   * holds all of {@code words}.
   */
  void memoriesWithWords(List<String> words, java.util.function.LongConsumer out) throws IOException {
    org.apache.lucene.search.BooleanQuery.Builder q = new org.apache.lucene.search.BooleanQuery.Builder();
    for (String w : words) {
      q.add(new org.apache.lucene.search.TermQuery(new org.apache.lucene.index.Term(MEMORY_WORD, wordTerm(w))),
          org.apache.lucene.search.BooleanClause.Occur.FILTER);
    }
    org.apache.lucene.search.Weight weight = searcher.createWeight(searcher.rewrite(q.build()),
        org.apache.lucene.search.ScoreMode.COMPLETE_NO_SCORES, 1f);
    for (LeafReaderContext leaf : reader.leaves()) {
      org.apache.lucene.search.ScorerSupplier supplier = weight.scorerSupplier(leaf);
      if (supplier == null) {
        continue;
      }
      org.apache.lucene.search.DocIdSetIterator it = supplier.get(Long.MAX_VALUE).iterator();
      org.apache.lucene.util.Bits live = leaf.reader().getLiveDocs();
      org.apache.lucene.index.NumericDocValues seqs = leaf.reader().getNumericDocValues(MEMORY_SEQ_VALUE);
      for (int d = it.nextDoc(); d != org.apache.lucene.search.DocIdSetIterator.NO_MORE_DOCS; d = it.nextDoc()) {
        if ((live == null || live.get(d)) && seqs != null && seqs.advanceExact(d)) {
          out.accept(seqs.longValue());
        }
      }
    }
  }

  static BytesRef seqTerm(long seq) {
    byte[] b = new byte[8];
    for (int i = 7; i >= 0; i--) {
      b[i] = (byte) seq;
      seq >>>= 8;
    }
    return new BytesRef(b);
  }

  /** The sequence number a term encodes, or {@code otherwise} if it is not one (no pruning then). */
  static long seqOf(@Nullable BytesRef term, long otherwise) {
    if (term == null || term.length != 8) {
      return otherwise;
    }
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (term.bytes[term.offset + i] & 0xff);
    }
    return v;
  }
}
