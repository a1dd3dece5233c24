package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.EmbeddingModel;
import io.memloop.Memory;
import io.memloop.Outcome;
import io.memloop.Vectors;
import io.memloop.cli.CliRun.Result;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.MiniLmEmbedder;
import io.memloop.store.NewMemory;
import io.memloop.store.lucene.LuceneStore;
import io.memloop.store.lucene.LuceneStoreOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 on the command line: a store opened with another {@code --embedder} than the one it was made with is
 * refused in one line naming both models and the fix (it silently found nothing); {@code migrate} refuses to copy
 * vectors between models unless {@code --re-embed}; {@code stats} shows the model.
 */
class ModelIdentityCliTest {
  static final int DIM = HashingEmbedder.DEFAULT_DIMENSION;
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  private String store(String name) {
    return dir.resolve(name).toString();
  }

  private static Result ok(String... args) {
    Result r = CliRun.run(args);
    assertThat(r.code()).as(r.err()).isZero();
    return r;
  }

  private static void assertOneReadableLine(Result r, int code, String... contains) {
    assertThat(r.code()).as("exit code, stderr=%s", r.err()).isEqualTo(code);
    assertThat(r.err().lines()).as("stderr").hasSize(1);
    assertThat(r.err()).startsWith("memloop: ").contains(contains).doesNotContain("Exception", "\tat ");
  }

  /** A store as MiniLM would have made it (without loading MiniLM): its model recorded, random vectors. */
  private void miniLmStore(String name, String... intents) {
    try (LuceneStore s = LuceneStore.open(Path.of(store(name)), DIM)) {
      s.recordModel(new EmbeddingModel(MiniLmEmbedder.MODEL_ID, DIM));
      SplittableRandom rnd = new SplittableRandom(11);
      for (String intent : intents) {
        float[] v = new float[DIM];
        for (int i = 0; i < DIM; i++) {
          v[i] = (float) rnd.nextGaussian();
        }
        s.insert(new NewMemory("team", intent, Vectors.normalized(v, "test"), "what worked for " + intent,
            Outcome.SUCCESS, 0.5, T0), 0.95);
      }
    }
  }

  private List<Memory> memories(String name, String ns) {
    List<Memory> out = new ArrayList<>();
    try (LuceneStore s = LuceneStore.open(Path.of(store(name)), LuceneStoreOptions.builder().build())) {
      s.forEachMemory(ns, out::add);
    }
    return out;
  }

  @Test
  void aStoreOpenedWithAnotherEmbedder_isRefusedInOneLine_namingBothModelsAndTheFix() {
    ok("remember", "--store", store("s"), "--embedder", "hashing", "--intent", "restart the web tier",
        "--experience", "drain first", "--outcome", "success");
    for (String command : List.of("retrieve", "stats")) {
      List<String> args = new ArrayList<>(List.of(command, "--store", store("s")));
      if (command.equals("retrieve")) {
        args.addAll(List.of("--intent", "restart the web tier"));
      }
      // the default --embedder is minilm (384-d like hashing): this used to answer with 0 candidates
      Result refused = CliRun.run(args);
      assertOneReadableLine(refused, MemLoopCli.CONFLICT, "'hashing-v1-384' (384-d)", "'all-minilm-l6-v2-q' (384-d)",
          "give --embedder hashing", "memloop migrate", "--re-embed --embedder minilm");
    }
    Result found = ok("retrieve", "--store", store("s"), "--embedder", "hashing", "--intent", "restart the web tier", "--json");
    assertThat(found.json().get("selected")).hasSize(1);
    Result stats = ok("stats", "--store", store("s"), "--embedder", "hashing", "--json");
    assertThat(stats.json().get("model").get("id").asText()).isEqualTo("hashing-v1-384");
    assertThat(stats.json().get("namespaces").get(0).get("model").get("dimension").asInt()).isEqualTo(DIM);
    assertThat(ok("stats", "--store", store("s"), "--embedder", "hashing").out()).contains("embedding model hashing-v1-384");
    // without a model nothing is checked: embeddings supplied by the caller
    assertThat(ok("stats", "--store", store("s"), "--embedder", "none").out()).contains("embedding model hashing-v1-384");
  }

  @Test
  void migrate_betweenModels_isRefusedNamingBoth_unlessReEmbed_whichEmbedsEveryIntentTextWithTheTargetsModel() {
    miniLmStore("from", "restart the web tier", "rotate the api keys");
    ok("remember", "--store", store("to"), "-n", "other", "--embedder", "hashing", "--intent", "x", "--experience", "y",
        "--outcome", "success");

    Result refused = CliRun.run("migrate", "--from", store("from"), "--to", store("to"), "--all");
    assertOneReadableLine(refused, MemLoopCli.USAGE, "'hashing-v1-384' (384-d)", "'all-minilm-l6-v2-q' (384-d)", "--re-embed");
    assertThat(memories("to", "team")).isEmpty();

    Result copied = ok("migrate", "--from", store("from"), "--to", store("to"), "--all", "--re-embed", "--embedder", "hashing");
    assertThat(copied.out()).contains("copied namespace team: 2 memories in 2 intent groups");
    List<Memory> before = memories("from", "team");
    List<Memory> after = memories("to", "team");
    assertThat(after).hasSize(2);
    HashingEmbedder hashing = new HashingEmbedder();
    for (int i = 0; i < after.size(); i++) {
      assertThat(after.get(i)).usingRecursiveComparison().ignoringFields("id", "intentId", "intentEmbedding")
          .isEqualTo(before.get(i));
      assertThat(after.get(i).intentEmbedding())
          .containsExactly(Vectors.normalized(hashing.embed(before.get(i).intentText()), "test"));
    }
    Result found = ok("retrieve", "--store", store("to"), "-n", "team", "--embedder", "hashing", "--intent", "rotate the api keys", "--json");
    assertThat(found.json().get("selected").get(0).get("experience").asText()).isEqualTo("what worked for rotate the api keys");
  }

  @Test
  void reEmbed_refusesMemoriesWithoutIntentText_namingHowMany_beforeCreatingTheTarget() {
    ok("remember", "--store", store("from"), "-n", "team", "--embedder", "hashing", "--intent", "has a text",
        "--experience", "e1", "--outcome", "success");
    ok("remember", "--store", store("from"), "-n", "team", "--embedder", "none", "--embedding", "@" + vectorFile(),
        "--experience", "e2", "--outcome", "success");
    Result refused = CliRun.run("migrate", "--from", store("from"), "--to", store("to"), "--all", "--re-embed",
        "--embedder", "hashing");
    assertOneReadableLine(refused, MemLoopCli.USAGE, "--re-embed: 1 memories have no intent text (team: 1)", "nothing was copied");
    assertThat(Files.exists(dir.resolve("to"))).isFalse();

    assertOneReadableLine(CliRun.run("migrate", "--from", store("from"), "--to", store("to"), "--all", "--re-embed"),
        MemLoopCli.USAGE, "--re-embed: needs --embedder");
    assertOneReadableLine(CliRun.run("migrate", "--from", store("from"), "--to", store("to"), "--all", "--embedder", "hashing"),
        MemLoopCli.USAGE, "--embedder: only goes with --re-embed");
  }

  private String vectorFile() {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < DIM; i++) {
      b.append(i == 0 ? "" : ",").append(i % 7 == 0 ? 1 : 0);
    }
    Path p = dir.resolve("v.json");
    try {
      Files.writeString(p, b.append(']').toString());
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
    return p.toString();
  }
}
