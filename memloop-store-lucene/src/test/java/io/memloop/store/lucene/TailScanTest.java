package io.memloop.store.lucene;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.store.InMemoryStore;
import io.memloop.store.MemoryStore;
import io.memloop.store.NewMemory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tails (everything inserted since the last refresh) are searched outside Lucene: recalls over them must equal
 * the in-memory store's exactly (ids, order, similarities), on seeded cases where the tail holds hundreds of groups,
 * far more than k, with near-duplicates and exact duplicates (ties), deletes, every gate from none to above every
 * similarity, and k from 1 to beyond the tail.
 */
class TailScanTest {
  static final int DIM = 48;

  @TempDir Path dir;

  @Test
  void recallsOverLargeTails_matchTheInMemoryStore() {
    for (long seed = 1; seed <= 4; seed++) {
      SplittableRandom rnd = new SplittableRandom(seed);
      // no refresh during the test: every group stays in the live tail
      LuceneStoreOptions options = LuceneStoreOptions.builder().refreshEveryInserts(100_000).build();
      InMemoryStore model = new InMemoryStore(DIM);
      try (MemoryStore store = LuceneStore.open(dir.resolve("s" + seed), DIM, options)) {
        List<float[]> inserted = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
          float[] v = inserted.isEmpty() || rnd.nextInt(3) == 0 ? StoreFixtures.randomUnit(rnd, DIM)
              : rnd.nextInt(10) == 0 ? inserted.get(rnd.nextInt(inserted.size())).clone() // an exact duplicate: a tie
              : near(inserted.get(rnd.nextInt(inserted.size())), rnd);
          NewMemory m = new NewMemory("ns", "intent " + i, v, "experience " + i, Outcome.SUCCESS, 0.0, StoreFixtures.T0);
          // a threshold above every cosine: no merging, each memory its own group
          String id = model.insert(m, 2.0).id();
          assertThat(store.insert(m, 2.0).id()).isEqualTo(id);
          inserted.add(v);
          ids.add(id);
        }
        for (int d = 0; d < 40; d++) {
          String id = ids.get(rnd.nextInt(ids.size()));
          assertThat(store.delete("ns", id)).isEqualTo(model.delete("ns", id));
        }
        for (int q = 0; q < 300; q++) {
          float[] query = rnd.nextBoolean() ? StoreFixtures.randomUnit(rnd, DIM) : near(inserted.get(rnd.nextInt(inserted.size())), rnd);
          int k = 1 + rnd.nextInt(rnd.nextInt(8) == 0 ? 500 : 12);
          double gate = rnd.nextInt(5) == 0 ? -1 : rnd.nextDouble() * 1.1 - 0.2;
          assertThat(store.recall("ns", query, k, gate)).as("seed %d query %d k %d gate %s", seed, q, k, gate)
              .isEqualTo(model.recall("ns", query, k, gate));
        }
      }
    }
  }

  private static float[] near(float[] v, SplittableRandom rnd) {
    float[] out = v.clone();
    for (int i = 0; i < out.length; i++) {
      out[i] += (float) (0.05 * rnd.nextGaussian());
    }
    return Vectors.normalized(out, "near");
  }
}
