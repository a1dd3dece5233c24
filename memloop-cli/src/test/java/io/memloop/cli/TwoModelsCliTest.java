package io.memloop.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.cli.CliRun.Result;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.embeddings.MiniLmEmbedder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --embedder minilm+hashing}: both models at once, 768-d vectors recorded as the store's model, and the default
 * configuration splitting them into the two models' blocks ({@code similarityBlocks} 0: as many as the embedder has).
 */
class TwoModelsCliTest {
  @TempDir Path dir;

  private static Result ok(String... args) {
    Result r = CliRun.run(args);
    assertThat(r.code()).as(r.err()).isZero();
    return r;
  }

  @Test
  void bothModelsAtOnce_areOneRecordedModel_andTheDefaultSplitsTheirBlocks() {
    String store = dir.resolve("s").toString();
    ok("remember", "--store", store, "--embedder", "minilm+hashing", "--intent", "Restart the billing service in staging",
        "--experience", "kubectl rollout restart deploy/billing -n staging", "--outcome", "success");
    Result found = ok("retrieve", "--store", store, "--embedder", "minilm+hashing", "--intent",
        "Restart billing in the staging cluster", "--json");
    assertThat(found.json().get("selected")).hasSize(1);
    String retrieval = found.json().get("retrievalId").asText();
    ok("reward", "--store", store, "--embedder", "minilm+hashing", "--retrieval", retrieval, "--reward", "1");

    Result stats = ok("stats", "--store", store, "--embedder", "minilm+hashing", "--json");
    assertThat(stats.json().get("model").get("id").asText())
        .isEqualTo(MiniLmEmbedder.MODEL_ID + "+" + new HashingEmbedder().modelId());
    assertThat(stats.json().get("namespaces").get(0).get("model").get("dimension").asInt())
        .isEqualTo(MiniLmEmbedder.DIMENSION + HashingEmbedder.DEFAULT_DIMENSION);

    // one model alone cannot read the pair's vectors
    Result refused = CliRun.run("retrieve", "--store", store, "--embedder", "hashing", "--intent", "restart billing");
    assertThat(refused.code()).as(refused.err()).isNotZero();
    assertThat(refused.err().lines()).hasSize(1);
    assertThat(refused.err()).contains("768-d", "384-d", "--embedder the store was made with").doesNotContain("Exception");
  }
}
