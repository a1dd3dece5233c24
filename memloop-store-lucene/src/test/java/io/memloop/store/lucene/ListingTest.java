package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.MemoryPage;
import io.memloop.MemoryQuery;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecordDraft;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Edit and search on the Lucene store beyond the shared contract: crashes, stores of older builds, a reference model. */
class ListingTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  @TempDir Path tmp;

  private static NewMemory memory(SplittableRandom rnd, String ns, String intent, String experience, Outcome outcome,
      double q, Instant created) {
    return new NewMemory(ns, intent, StoreFixtures.randomUnit(rnd, DIM), experience, outcome, q, created);
  }

  private static void setUtility(MemoryStore store, String ns, String id, double q, long visits, Instant at) {
    var r = store.saveRetrieval(new RetrievalRecordDraft(ns, at, at.plus(Duration.ofHours(1)),
        List.of(new Candidate(id, 0.9, 0.0, 1.0, true, 1.0))));
    store.applyReward(ns, r.id(), at, (mid, u) -> new Utility(q, visits));
  }

  @Test
  void anEditLoggedButNeverCommittedToTheIndex_isReplayedOnOpen_textAndUpdatedAt() {
    Path dir = tmp.resolve("store");
    SplittableRandom rnd = new SplittableRandom(1);
    Memory m;
    LuceneStore store = LuceneStore.open(dir, DIM);
    m = store.insert(memory(rnd, "ns", "rotate keys", "old words", Outcome.FAILURE, 0.25, T0), 1.01);
    store.close(); // the insert is in the index commit; the edit below only in the log
    store = LuceneStore.open(dir, DIM);
    store.updateExperience("ns", m.id(), "fresh words", T0.plusSeconds(30)).orElseThrow();
    store.crashForTesting();
    try (LuceneStore reopened = LuceneStore.open(dir, DIM)) {
      Memory after = reopened.get("ns", m.id()).orElseThrow();
      assertThat(after.experience()).isEqualTo("fresh words");
      assertThat(after.updatedAt()).isEqualTo(T0.plusSeconds(30));
      assertThat(after.q()).isEqualTo(0.25);
      assertThat(reopened.search("ns", MemoryQuery.builder().text("fresh").build()).memories()).containsExactly(after);
      assertThat(reopened.search("ns", MemoryQuery.builder().text("old").build()).memories()).isEmpty();
    }
  }

  @Test
  void aStoreWrittenBeforeListing_opens_reindexesItsMemories_andListsThemByEveryFilter() throws Exception {
    Path dir = tmp.resolve("old");
    SplittableRandom rnd = new SplittableRandom(2);
    List<Memory> in = new ArrayList<>();
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      for (int i = 0; i < 30; i++) {
        in.add(store.insert(memory(rnd, "ns", "task " + i, (i % 2 == 0 ? "even" : "odd") + " step", Outcome.values()[i % 3],
            i / 30.0, T0.plusSeconds(i)), 1.01));
      }
    } // a clean close: a snapshot and an index commit
    makeOld(dir);
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      MemoryPage even = store.search("ns", MemoryQuery.builder().text("EVEN").limit(100).build());
      assertThat(even.memories()).extracting(Memory::id)
          .containsExactlyElementsOf(in.stream().filter(m -> m.experience().startsWith("even")).map(Memory::id).toList());
      assertThat(store.search("ns", MemoryQuery.builder().outcomes(Outcome.FAILURE).createdFrom(T0.plusSeconds(10))
          .limit(100).build()).memories()).extracting(Memory::id).containsExactlyElementsOf(in.stream()
          .filter(m -> m.outcome() == Outcome.FAILURE && !m.createdAt().isBefore(T0.plusSeconds(10))).map(Memory::id).toList());
    } // and the checkpoint of this close writes what the next open needs
    try (FSDirectory d = FSDirectory.open(dir.resolve(StoreFiles.INDEX_DIR))) {
      assertThat(SegmentInfos.readLatestCommit(d).getUserData()).containsEntry(VectorIndex.COMMIT_FIELDS, VectorIndex.FIELDS_VERSION);
    }
    try (LuceneStore store = LuceneStore.open(dir, DIM)) {
      assertThat(store.search("ns", MemoryQuery.builder().outcomes(Outcome.SUCCESS).text("odd").limit(100).build()).total())
          .isEqualTo(in.stream().filter(m -> m.outcome() == Outcome.SUCCESS && m.experience().startsWith("odd")).count());
    }
  }

  /**
   * Turns a store of this build into one of the build before listing: a v3 snapshot (no outcome, no created-at) and
   * memory documents of only their sequence term and content, committed without the fields marker.
   */
  private static void makeOld(Path dir) throws Exception {
    Path snapshot = StoreFiles.snapshots(dir).lastEntry().getValue();
    StoreState state = new StoreState(new RetrievalBook.Limits(1_000, 1 << 20), new RetrievalBook.Limits(1_000, 1 << 20));
    Snapshot.Position at = Snapshot.read(snapshot, DIM, state);
    Path v3 = snapshot.resolveSibling("v3.tmp");
    Snapshot.write(v3, state, DIM, at.segment(), at.lsn(), at.clean(), 3);
    Files.move(v3, snapshot, StandardCopyOption.REPLACE_EXISTING);
    try (FSDirectory d = FSDirectory.open(dir.resolve(StoreFiles.INDEX_DIR));
        IndexWriter w = new IndexWriter(d, new IndexWriterConfig().setOpenMode(IndexWriterConfig.OpenMode.APPEND))) {
      String lsn = SegmentInfos.readLatestCommit(d).getUserData().get(VectorIndex.COMMIT_LSN);
      try (DirectoryReader r = DirectoryReader.open(w)) {
        for (LeafReaderContext leaf : r.leaves()) {
          Terms terms = leaf.reader().terms(IndexView.MEMORY_SEQ);
          if (terms == null) {
            continue;
          }
          TermsEnum te = terms.iterator();
          for (BytesRef t = te.next(); t != null; t = te.next()) {
            BytesRef term = BytesRef.deepCopyOf(t);
            PostingsEnum p = te.postings(null, PostingsEnum.NONE);
            int doc = p.nextDoc();
            assertThat(doc).isNotEqualTo(DocIdSetIterator.NO_MORE_DOCS);
            BinaryDocValues v = leaf.reader().getBinaryDocValues(IndexView.MEMORY_CONTENT);
            assertThat(v.advanceExact(doc)).isTrue();
            Document old = new Document();
            old.add(new StringField(IndexView.MEMORY_SEQ, term, Field.Store.NO));
            old.add(new BinaryDocValuesField(IndexView.MEMORY_CONTENT, BytesRef.deepCopyOf(v.binaryValue())));
            w.updateDocument(new Term(IndexView.MEMORY_SEQ, term), old);
          }
        }
      }
      w.setLiveCommitData(Map.of(VectorIndex.COMMIT_LSN, lsn).entrySet());
      w.commit();
    }
    try (FSDirectory d = FSDirectory.open(dir.resolve(StoreFiles.INDEX_DIR)); DirectoryReader r = DirectoryReader.open(d)) {
      assertThat(r.leaves().stream().allMatch(l -> {
        try {
          return l.reader().terms(IndexView.MEMORY_WORD) == null;
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      })).as("no memory document holds words any more").isTrue();
    }
  }

  /**
   * The Lucene store against the in-memory reference on the same random history (inserts, rewards, edits, deletes,
   * reopens, refreshes) and random queries, page by page: the same memories, order, totals and page boundaries.
   */
  @Test
  void searchAgreesWithTheInMemoryReference_onRandomHistoriesAndQueries() {
    SplittableRandom rnd = new SplittableRandom(20251125);
    String[] vocabulary = {"deploy", "Deploy", "rotate", "KEYS", "v2", "api", "gateway", "42", "été", "ok", "x_y", "a.b"};
    LuceneStoreOptions small = LuceneStoreOptions.builder().commitEveryInserts(50).refreshEveryInserts(23).build();
    Path dir = tmp.resolve("random");
    LuceneStore lucene = LuceneStore.open(dir, DIM, small);
    InMemoryStore reference = new InMemoryStore(DIM);
    Map<String, String> ids = new HashMap<>(); // lucene id -> reference id
    List<String> live = new ArrayList<>();
    try {
      for (int step = 0; step < 600; step++) {
        int op = rnd.nextInt(10);
        if (op < 5 || live.isEmpty()) {
          String ns = rnd.nextInt(6) == 0 ? "other" : "ns";
          NewMemory m = memory(rnd, ns, words(rnd, vocabulary, 1 + rnd.nextInt(3)), words(rnd, vocabulary, 1 + rnd.nextInt(4)),
              Outcome.values()[rnd.nextInt(3)], rnd.nextInt(9) / 8.0 - 0.5, T0.plusSeconds(rnd.nextInt(50)));
          Memory a = lucene.insert(m, 1.01);
          Memory b = reference.insert(m, 1.01);
          ids.put(a.id(), b.id());
          live.add(a.id());
        } else {
          String id = live.get(rnd.nextInt(live.size()));
          String ns = lucene.get("ns", id).isPresent() ? "ns" : "other";
          if (op < 8) {
            double q = rnd.nextInt(9) / 8.0 - 0.5;
            long visits = rnd.nextInt(4);
            Instant at = T0.plusSeconds(rnd.nextInt(60));
            setUtility(lucene, ns, id, q, visits, at);
            setUtility(reference, ns, ids.get(id), q, visits, at);
          } else if (op < 9) {
            String text = words(rnd, vocabulary, 1 + rnd.nextInt(4));
            Instant at = T0.plusSeconds(rnd.nextInt(60));
            lucene.updateExperience(ns, id, text, at);
            reference.updateExperience(ns, ids.get(id), text, at);
          } else {
            lucene.delete(ns, id);
            reference.delete(ns, ids.get(id));
            live.remove(id);
          }
        }
        if (step % 150 == 149) {
          lucene.close();
          lucene = LuceneStore.open(dir, DIM, small);
        }
        if (step % 20 == 19) {
          for (int k = 0; k < 5; k++) {
            compare(lucene, reference, ids, randomQuery(rnd, vocabulary));
          }
        }
      }
    } finally {
      lucene.close();
    }
  }

  private static String words(SplittableRandom rnd, String[] vocabulary, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : rnd.nextBoolean() ? " " : ", ").append(vocabulary[rnd.nextInt(vocabulary.length)]);
    }
    return b.toString();
  }

  private static MemoryQuery randomQuery(SplittableRandom rnd, String[] vocabulary) {
    MemoryQuery.Builder b = MemoryQuery.builder().sort(MemoryQuery.Sort.values()[rnd.nextInt(4)])
        .descending(rnd.nextBoolean()).limit(1 + rnd.nextInt(15));
    if (rnd.nextInt(3) == 0) {
      b.text(words(rnd, vocabulary, 1 + rnd.nextInt(2)));
    }
    if (rnd.nextInt(3) == 0) {
      b.outcomes(Outcome.values()[rnd.nextInt(3)]);
    }
    if (rnd.nextInt(3) == 0) {
      double lo = rnd.nextInt(9) / 8.0 - 0.5;
      b.minQ(lo).maxQ(lo + rnd.nextInt(4) / 8.0);
    }
    if (rnd.nextInt(4) == 0) {
      b.minVisits(rnd.nextInt(2)).maxVisits(1 + rnd.nextInt(3));
    }
    if (rnd.nextInt(4) == 0) {
      b.createdFrom(T0.plusSeconds(rnd.nextInt(25))).createdTo(T0.plusSeconds(25 + rnd.nextInt(25)));
    }
    if (rnd.nextInt(4) == 0) {
      b.updatedFrom(T0.plusSeconds(rnd.nextInt(30))).updatedTo(T0.plusSeconds(30 + rnd.nextInt(40)));
    }
    return b.build();
  }

  /** Every page of {@code q} in both stores: the same memories (ids mapped), in the same order, with the same total. */
  private static void compare(LuceneStore lucene, InMemoryStore reference, Map<String, String> ids, MemoryQuery q) {
    MemoryQuery a = q;
    MemoryQuery b = q;
    while (true) {
      MemoryPage pa = lucene.search("ns", a);
      MemoryPage pb = reference.search("ns", b);
      assertThat(pa.memories().stream().map(m -> ids.get(m.id())).toList()).as(q.toString())
          .containsExactlyElementsOf(pb.memories().stream().map(Memory::id).toList());
      for (int i = 0; i < pa.memories().size(); i++) {
        Memory x = pa.memories().get(i);
        Memory y = pb.memories().get(i);
        assertThat(x.withExperience(y.experience()).q()).isEqualTo(y.q());
        assertThat(x.experience()).isEqualTo(y.experience());
        assertThat(x.updatedAt()).isEqualTo(y.updatedAt());
      }
      assertThat(pa.total()).as(q.toString()).isEqualTo(pb.total());
      assertThat(pa.next() == null).as(q.toString()).isEqualTo(pb.next() == null);
      if (pa.next() == null) {
        return;
      }
      a = a.after(pa.next());
      b = b.after(pb.next());
    }
  }
}
