package io.memloop.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.Candidate;
import io.memloop.EmbeddingModel;
import io.memloop.MemLoopException;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Utility;
import io.memloop.Vectors;
import io.memloop.embed.Embedder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StoreCopyTest {
  private static final int DIM = 8;
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static float[] random(SplittableRandom rnd) {
    float[] v = new float[DIM];
    for (int i = 0; i < DIM; i++) {
      v[i] = (float) rnd.nextGaussian();
    }
    return Vectors.normalized(v, "test");
  }

  @Test
  void copiesEachMemorysAnnotations_toItsCopy_acrossBatches() {
    MemoryStore from = new InMemoryStore(DIM);
    SplittableRandom rnd = new SplittableRandom(5);
    List<Memory> source = new ArrayList<>();
    Map<String, Annotations> annotated = new HashMap<>();
    for (int i = 0; i < StoreCopy.UTILITY_BATCH + 20; i++) { // more than one batch
      Memory m = from.insert(new NewMemory("team", "task " + i, random(rnd), "e" + i, Outcome.SUCCESS, 0, T0), 0.95);
      source.add(m);
      if (i % 3 == 0) {
        annotated.put(m.id(), Annotations.of("seen", 1, new byte[] {(byte) i}));
      }
    }
    from.annotate("team", annotated);
    MemoryStore to = new InMemoryStore(DIM);
    StoreCopy.copy(from, to, "team", n -> {});
    List<Memory> after = new ArrayList<>();
    to.forEachMemory("team", after::add);
    Map<String, Annotations> expected = new HashMap<>();
    for (int i = 0; i < source.size(); i++) {
      Annotations a = annotated.get(source.get(i).id());
      if (a != null) {
        expected.put(after.get(i).id(), a);
      }
    }
    assertThat(to.annotations("team", after.stream().map(Memory::id).toList())).isEqualTo(expected).hasSize(92);
  }

  @Test
  void copiesMemoriesGroupsUtilitiesAndSettingsExactly_intoAnotherStore() {
    MemoryStore from = new InMemoryStore(DIM);
    SplittableRandom rnd = new SplittableRandom(3);
    List<Memory> source = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      float[] center = random(rnd);
      // groups of one to three memories; the later ones close to the first
      for (int j = 0; j <= i % 3; j++) {
        float[] v = center.clone();
        v[j] += 0.01f;
        source.add(from.insert(new NewMemory("team", "task " + i, Vectors.normalized(v, "test"), "experience " + i + "." + j,
            j == 0 ? Outcome.SUCCESS : Outcome.FAILURE, 0.1 * j, T0.plusSeconds(i)), 0.95));
      }
    }
    from.insert(new NewMemory("other", "elsewhere", random(rnd), "not copied", Outcome.SUCCESS, 0, T0), 0.95);
    // some memories rewarded, at different times
    for (int r = 0; r < 30; r++) {
      Memory m = source.get(rnd.nextInt(source.size()));
      RetrievalRecord rec = from.saveRetrieval(new RetrievalRecordDraft("team", T0, T0.plus(Duration.ofDays(1)),
          List.of(new Candidate(m.id(), 1, 0, 0, true, 1))));
      from.applyReward("team", rec.id(), T0.plusSeconds(1000 + r), (id, u) -> new Utility(u.q() * 0.5 + 0.25, u.visits() + 1));
    }
    from.saveSettings("team", Map.of("preset", "default", "k1", "7"));
    List<Memory> before = new ArrayList<>();
    from.forEachMemory("team", before::add);

    MemoryStore to = new InMemoryStore(DIM);
    List<Long> progress = new ArrayList<>();
    StoreCopy.Result result = StoreCopy.copy(from, to, "team", progress::add);

    assertThat(result).isEqualTo(new StoreCopy.Result("team", before.size(), 40, 0, true));
    assertThat(progress).hasSize(before.size()).last().isEqualTo((long) before.size());
    List<Memory> after = new ArrayList<>();
    to.forEachMemory("team", after::add);
    assertThat(after).hasSize(before.size());
    Map<String, String> groupMap = new HashMap<>();
    for (int i = 0; i < before.size(); i++) {
      Memory a = before.get(i);
      Memory b = after.get(i);
      assertThat(b).usingRecursiveComparison().ignoringFields("id", "intentId").isEqualTo(a);
      // the same grouping: one target group per source group, and never two source groups in one
      assertThat(groupMap.computeIfAbsent(a.intentId(), x -> b.intentId())).isEqualTo(b.intentId());
    }
    assertThat(groupMap.values()).doesNotHaveDuplicates();
    assertThat(to.settings("team")).contains(Map.of("preset", "default", "k1", "7"));
    assertThat(to.namespaces()).containsExactly("team");
    assertThat(to.counts("team", T0).pendingRetrievals()).isZero();
  }

  @Test
  void refusesATargetNamespaceThatHoldsMemories_orAnotherDimension() {
    MemoryStore from = new InMemoryStore(DIM);
    from.insert(new NewMemory("team", "t", random(new SplittableRandom(1)), "e", Outcome.SUCCESS, 0, T0), 0.9);
    MemoryStore busy = new InMemoryStore(DIM);
    busy.insert(new NewMemory("team", "t", random(new SplittableRandom(2)), "mine", Outcome.SUCCESS, 0, T0), 0.9);
    assertThatThrownBy(() -> StoreCopy.copy(from, busy, "team", n -> {}))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("already holds memories");
    List<Memory> kept = new ArrayList<>();
    busy.forEachMemory("team", kept::add);
    assertThat(kept).extracting(Memory::experience).containsExactly("mine");
    assertThatThrownBy(() -> StoreCopy.copy(from, new InMemoryStore(DIM + 1), "team", n -> {}))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("holds 9-d vectors, the source 8-d");
  }

  /** A deterministic model: a text's vector is seeded by the text and the model's name. */
  private static Embedder model(String id, int dimension) {
    return new Embedder() {
      @Override public int dimension() { return dimension; }
      @Override public String modelId() { return id; }
      @Override public List<float[]> embedAll(List<String> texts) {
        List<float[]> out = new ArrayList<>();
        for (String t : texts) {
          SplittableRandom rnd = new SplittableRandom((id + "\n" + t).hashCode());
          float[] v = new float[dimension];
          for (int i = 0; i < dimension; i++) {
            v[i] = (float) rnd.nextGaussian();
          }
          out.add(v);
        }
        return out;
      }
    };
  }

  private static MemoryStore storeOf(String modelId, int dimension) {
    MemoryStore s = new InMemoryStore(dimension);
    s.recordModel(new EmbeddingModel(modelId, dimension));
    return s;
  }

  /** Issue 25: migrate copied one model's vectors among another's without a word, and searches found nothing. */
  @Test
  void copy_refusesStoresOfAnotherModel_namingBoth_andANewTargetAdoptsTheSourcesModel() {
    MemoryStore from = storeOf("model-a", DIM);
    from.insert(new NewMemory("team", "t", random(new SplittableRandom(1)), "e", Outcome.SUCCESS, 0, T0), 0.9);
    MemoryStore other = storeOf("model-b", DIM);
    assertThatThrownBy(() -> StoreCopy.copy(from, other, "team", n -> {}))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("--to"))
        .hasMessageContainingAll("'model-b' (8-d)", "'model-a' (8-d)", "--re-embed");
    assertThat(other.namespaces()).isEmpty();

    MemoryStore unrecorded = new InMemoryStore(DIM);
    unrecorded.insert(new NewMemory("team", "t", random(new SplittableRandom(1)), "e", Outcome.SUCCESS, 0, T0), 0.9);
    assertThatThrownBy(() -> StoreCopy.copy(unrecorded, other, "team", n -> {}))
        .hasMessageContainingAll("'model-b' (8-d)", "a model it does not record");

    MemoryStore fresh = new InMemoryStore(DIM);
    StoreCopy.copy(from, fresh, "team", n -> {});
    assertThat(fresh.model()).contains(new EmbeddingModel("model-a", DIM));
  }

  @Test
  void reEmbed_embedsEveryIntentTextWithTheTargetsModel_keepingTextsUtilitiesAndGroups() {
    MemoryStore from = storeOf("model-a", DIM);
    SplittableRandom rnd = new SplittableRandom(5);
    for (int i = 0; i < 100; i++) { // more than one embedding batch
      float[] center = random(rnd);
      from.insert(new NewMemory("team", "task " + i, center, "first " + i, Outcome.SUCCESS, 0.1, T0.plusSeconds(i)), 0.95);
      from.insert(new NewMemory("team", "task " + i + " again", center, "second " + i, Outcome.FAILURE, 0.2, T0.plusSeconds(i)), 0.95);
    }
    List<Memory> before = new ArrayList<>();
    from.forEachMemory("team", before::add);
    Embedder b = model("model-b", 12);
    MemoryStore to = new InMemoryStore(12);

    StoreCopy.Result r = StoreCopy.reEmbed(from, to, "team", b, n -> {});

    assertThat(r).isEqualTo(new StoreCopy.Result("team", 200, 100, 0, false));
    assertThat(to.model()).contains(new EmbeddingModel("model-b", 12));
    List<Memory> after = new ArrayList<>();
    to.forEachMemory("team", after::add);
    assertThat(after).hasSize(200);
    for (int i = 0; i < before.size(); i++) {
      Memory x = before.get(i);
      Memory y = after.get(i);
      assertThat(y).usingRecursiveComparison().ignoringFields("id", "intentId", "intentEmbedding").isEqualTo(x);
      assertThat(y.intentEmbedding()).containsExactly(Vectors.normalized(b.embed(x.intentText()), "test"));
      assertThat(y.intentId()).isEqualTo(after.get(i - i % 2).intentId()); // pairs stay grouped
    }
    // a search with the new model finds the group by its first memory's text
    assertThat(to.recall("team", Vectors.normalized(b.embed("task 7"), "q"), 1, 0.99).getFirst().memories())
        .extracting(Memory::experience).containsExactlyInAnyOrder("first 7", "second 7");
  }

  @Test
  void reEmbed_refusesMemoriesWithoutIntentText_beforeWritingAnything_andATargetOfAnotherModel() {
    MemoryStore from = storeOf("model-a", DIM);
    from.insert(new NewMemory("team", "has text", random(new SplittableRandom(1)), "e1", Outcome.SUCCESS, 0, T0), 0.9);
    from.insert(new NewMemory("team", "", random(new SplittableRandom(2)), "e2", Outcome.SUCCESS, 0, T0), 0.9);
    from.insert(new NewMemory("team", "", random(new SplittableRandom(3)), "e3", Outcome.SUCCESS, 0, T0), 0.9);
    MemoryStore to = new InMemoryStore(12);
    assertThatThrownBy(() -> StoreCopy.reEmbed(from, to, "team", model("model-b", 12), n -> {}))
        .isInstanceOfSatisfying(MemLoopException.class, e -> assertThat(e.field()).isEqualTo("--re-embed"))
        .hasMessageContainingAll("2 memories of namespace team have no intent text", "nothing was copied");
    assertThat(to.namespaces()).isEmpty();
    assertThat(to.model()).isEmpty();

    assertThatThrownBy(() -> StoreCopy.reEmbed(from, storeOf("model-c", 12), "team", model("model-b", 12), n -> {}))
        .hasMessageContainingAll("'model-c' (12-d)", "'model-b' (12-d)");
    assertThatThrownBy(() -> StoreCopy.reEmbed(from, new InMemoryStore(DIM), "team", model("model-b", 12), n -> {}))
        .hasMessageContaining("holds 8-d vectors but model 'model-b' (12-d) gives 12-d vectors");
  }

  @Test
  void copiesTheLedger_renamingEachMemorysEntriesToItsCopy_acrossBatches_andLeavesTheGoneMemoriesEntries() {
    MemoryStore from = new InMemoryStore(DIM);
    SplittableRandom rnd = new SplittableRandom(9);
    List<Memory> source = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      source.add(from.insert(new NewMemory("team", "task " + i, random(rnd), "e" + i, Outcome.SUCCESS, 0, T0), 0.95));
    }
    Memory gone = source.removeLast();
    assertThat(from.delete("team", gone.id())).isTrue();
    Map<String, double[]> ledger = new HashMap<>();
    for (int i = 0; i < source.size(); i++) { // three entries a memory, 357 in all: two batches
      String id = source.get(i).id();
      ledger.put("p:t" + (i % 7) + ":" + id, new double[] {i});
      ledger.put("c:" + id, new double[] {i, 1});
      ledger.put("u:" + id, new double[] {i, 0.5, 0.9});
    }
    ledger.put("p:t1:" + gone.id(), new double[] {-1}); // left for the source's next sweep
    ledger.put("c:" + gone.id(), new double[] {0, 2});
    ledger.put("t:t1", new double[] {0, 2, 17});
    ledger.put("n", new double[] {3, 1, 4, 2});
    ledger.put("b", new double[] {5, 3, 1, 0.5, -0.5});
    from.putLedger("team", ledger);
    from.putLedger("other", Map.of("n", new double[] {1, 1, 1, 1}));

    MemoryStore to = new InMemoryStore(DIM);
    StoreCopy.Result r = StoreCopy.copy(from, to, "team", n -> {});

    List<Memory> copies = new ArrayList<>();
    to.forEachMemory("team", copies::add);
    Map<String, double[]> expected = new HashMap<>();
    for (int i = 0; i < source.size(); i++) {
      String id = copies.get(i).id();
      expected.put("p:t" + (i % 7) + ":" + id, new double[] {i});
      expected.put("c:" + id, new double[] {i, 1});
      expected.put("u:" + id, new double[] {i, 0.5, 0.9});
    }
    expected.put("t:t1", new double[] {0, 2, 17});
    expected.put("n", new double[] {3, 1, 4, 2});
    expected.put("b", new double[] {5, 3, 1, 0.5, -0.5});
    assertThat(r.ledgerEntries()).isEqualTo(expected.size()).isEqualTo(3 * 119 + 3);
    assertThat(new java.util.HashSet<>(to.ledgerKeys("team"))).isEqualTo(expected.keySet());
    Map<String, double[]> copied = to.ledger("team", expected.keySet());
    expected.forEach((key, value) -> assertThat(copied.get(key)).as(key).containsExactly(value));
    assertThat(to.ledgerKeys("other")).isEmpty();
  }

  @Test
  void reEmbed_leavesTheLedgerEntriesOfTheOldModelsVectorsBehind() {
    MemoryStore from = storeOf("model-a", DIM);
    Memory m = from.insert(new NewMemory("team", "task", random(new SplittableRandom(1)), "e", Outcome.SUCCESS, 0, T0), 0.9);
    from.putLedger("team", Map.of("p:t1:" + m.id(), new double[] {1}, "c:" + m.id(), new double[] {1, 0},
        "u:" + m.id(), new double[] {4, 0.5, 0.9}, "b", new double[] {5, 3, 1, 0.5, -0.5}, "r", new double[] {9, 2},
        "x", new double[] {40, 32}, "x:7", new double[DIM], "X", new double[] {32, 1, DIM, -0.5}, "X:0", new double[DIM],
        "v", new double[] {10, 4, 12, 7}));
    MemoryStore to = new InMemoryStore(12);

    StoreCopy.Result r = StoreCopy.reEmbed(from, to, "team", model("model-b", 12), n -> {});

    String copy = to.page("team", null, 1).getFirst().id();
    assertThat(r.ledgerEntries()).isEqualTo(3);
    assertThat(to.ledgerKeys("team")).containsExactlyInAnyOrder("p:t1:" + copy, "c:" + copy, "r");
  }
}
