package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Candidate;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.store.InMemoryStore;
import io.memloop.store.IntentMatch;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import io.memloop.store.RetrievalRecord;
import io.memloop.store.RetrievalRecordDraft;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded random operations (inserts, recalls, saves, rewards, lookups, deletes) applied to the Lucene
 * store and to the in-memory reference store in lockstep, with clean reopens in between: every answer must be identical (ids, similarities, bit-exact
 * utilities). Namespaces stay under Lucene's 100-vector graph threshold, so both searches are exact.
 */
class ReferenceModelTest {
  static final int DIM = 8;
  static final String[] NAMESPACES = {"a", "b", "c"};

  @TempDir Path dir;

  @Test
  void randomOperations_matchTheInMemoryStore() {
    for (long seed = 1; seed <= 3; seed++) {
      run(seed, dir.resolve("store-" + seed));
    }
  }

  private void run(long seed, Path path) {
    SplittableRandom rnd = new SplittableRandom(seed);
    LuceneStoreOptions options = LuceneStoreOptions.builder().commitEveryInserts(9).refreshEveryInserts(4)
        .checkpointEveryBytes(8 << 10).build();
    InMemoryStore model = new InMemoryStore(DIM);
    MemoryStore store = LuceneStore.open(path, DIM, options);
    List<Memory> memories = new ArrayList<>();
    List<RetrievalRecord> retrievals = new ArrayList<>();
    Instant now = StoreFixtures.T0;
    try {
      for (int step = 0; step < 250; step++) {
        now = now.plusSeconds(rnd.nextInt(30));
        String ns = NAMESPACES[rnd.nextInt(NAMESPACES.length)];
        int op = rnd.nextInt(100);
        if (op < 35 || memories.isEmpty()) {
          float[] v = memories.isEmpty() || rnd.nextBoolean()
              ? StoreFixtures.randomUnit(rnd, DIM)
              : near(memories.get(rnd.nextInt(memories.size())).intentEmbedding(), rnd);
          NewMemory m = new NewMemory(ns, "intent " + step, v, "experience " + step,
              Outcome.values()[rnd.nextInt(3)], rnd.nextDouble(), now);
          Memory expected = model.insert(m, 0.9);
          assertThat(store.insert(m, 0.9)).isEqualTo(expected);
          memories.add(expected);
        } else if (op < 55) {
          float[] q = StoreFixtures.randomUnit(rnd, DIM);
          int k = 1 + rnd.nextInt(5);
          double gate = rnd.nextDouble() * 1.2 - 0.4;
          List<IntentMatch> expected = model.recall(ns, q, k, gate);
          assertThat(store.recall(ns, q, k, gate)).isEqualTo(expected);
        } else if (op < 72) {
          List<Candidate> candidates = new ArrayList<>();
          for (int c = rnd.nextInt(4); c > 0; c--) {
            String id = rnd.nextInt(10) == 0 ? "m-gone" : memories.get(rnd.nextInt(memories.size())).id();
            candidates.add(new Candidate(id, rnd.nextDouble(), rnd.nextDouble(), rnd.nextDouble(), rnd.nextBoolean(),
                rnd.nextDouble()));
          }
          RetrievalRecordDraft draft = new RetrievalRecordDraft(ns, now, now.plusSeconds(60 + rnd.nextInt(600)), candidates);
          RetrievalRecord expected = model.saveRetrieval(draft);
          assertThat(store.saveRetrieval(draft)).isEqualTo(expected);
          retrievals.add(expected);
        } else if (op < 90 && !retrievals.isEmpty()) {
          RetrievalRecord r = retrievals.get(rnd.nextInt(retrievals.size()));
          String target = rnd.nextInt(8) == 0 ? NAMESPACES[rnd.nextInt(3)] : r.namespace();
          double reward = rnd.nextDouble();
          io.memloop.store.UtilityUpdate rule = (id, u) -> new Utility(u.q() + 0.3 * (reward - u.q()), u.visits() + 1);
          assertThat(store.applyReward(target, r.id(), now, rule)).isEqualTo(model.applyReward(target, r.id(), now, rule));
        } else if (op < 93) {
          String id = rnd.nextInt(5) == 0 ? "m999999" : memories.get(rnd.nextInt(memories.size())).id();
          assertThat(store.get(ns, id)).isEqualTo(model.get(ns, id));
        } else if (op < 97) {
          // deletes, sometimes of a memory already deleted or of another namespace
          Memory victim = memories.get(rnd.nextInt(memories.size()));
          String target = rnd.nextInt(4) == 0 ? ns : victim.namespace();
          assertThat(store.delete(target, victim.id())).isEqualTo(model.delete(target, victim.id()));
        } else {
          store.close();
          store = LuceneStore.open(path, DIM, options);
        }
        if (step % 50 == 49) {
          assertSameContents(model, store, now);
        }
      }
      assertSameContents(model, store, now);
    } finally {
      store.close();
    }
  }

  private static void assertSameContents(MemoryStore model, MemoryStore store, Instant now) {
    assertThat(store.namespaces()).isEqualTo(model.namespaces());
    for (String ns : NAMESPACES) {
      List<Memory> expected = new ArrayList<>();
      List<Memory> actual = new ArrayList<>();
      model.forEachMemory(ns, expected::add);
      store.forEachMemory(ns, actual::add);
      assertThat(actual).isEqualTo(expected);
      assertThat(store.counts(ns, now)).isEqualTo(model.counts(ns, now));
    }
  }

  private static float[] near(float[] v, SplittableRandom rnd) {
    float[] out = v.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += (float) (0.1 * rnd.nextGaussian());
    }
    return Vectors.normalized(out, "near");
  }
}
