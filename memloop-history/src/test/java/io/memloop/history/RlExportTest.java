package io.memloop.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.MemLoopException;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.store.InMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RlExportTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final MemLoopConfig MEMRL = MemLoopConfig.preset(Preset.MEMRL);
  private static final String TASK = "Restart the billing service in staging";

  @TempDir Path dir;
  private Path log;

  /**
   * A small history: one seeded experience, then four episodes of one task (guided and free, linked explicitly
   * and by task text), one of another task with no remembered experience, and one retrieval by embedding only.
   */
  @BeforeEach
  void history() {
    log = dir.resolve("events");
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).config(MEMRL).events(new JsonlEventLog(log)).build()) {
      loop.remember("ops", Intent.ofText(TASK), "kubectl rollout restart deploy/billing -n staging", Outcome.SUCCESS);
      // 1: guided, success, linked by retrievalId
      Retrieval r1 = loop.retrieve("ops", Intent.ofText(TASK));
      assertThat(r1.selected()).hasSize(1);
      loop.reward("ops", r1.id(), 1);
      loop.remember("ops", Intent.ofText(TASK), "restarted with -n staging", Outcome.SUCCESS, r1.id());
      // 2: the agent used none of what it was shown (a free rollout), failure, linked by the task text
      Retrieval r2 = loop.retrieve("ops", Intent.ofText(TASK));
      loop.reward("ops", r2.id(), -1, List.of());
      loop.remember("ops", Intent.ofText(TASK), "tried -n prod: wrong cluster", Outcome.FAILURE);
      // 3: guided with the same single experience as 1, failure (pairs with 1 for DPO)
      Retrieval r3 = loop.retrieve("ops", Intent.ofText(TASK));
      loop.reward("ops", r3.id(), -1, List.of(r1.selected().getFirst().id()));
      loop.remember("ops", Intent.ofText(TASK), "restarted the wrong deployment", Outcome.FAILURE, r3.id());
      // 4: another task, rewarded, nothing remembered for it
      Retrieval r4 = loop.retrieve("ops", Intent.ofText("Rotate the billing API keys"));
      loop.reward("ops", r4.id(), 1);
      // 5: by embedding only: no task text to train on
      float[] v = new HashingEmbedder().embed("anything");
      Retrieval r5 = loop.retrieve("ops", Intent.ofEmbedding(v));
      loop.reward("ops", r5.id(), 1);
    }
  }

  private List<JsonNode> export(RlExport.Format format) throws IOException {
    Path out = dir.resolve(format + ".jsonl");
    RlExport.run(log, format, out, false, MEMRL);
    List<JsonNode> rows = new ArrayList<>();
    for (String line : Files.readAllLines(out)) {
      if (!line.isBlank()) {
        rows.add(MAPPER.readTree(line));
      }
    }
    return rows;
  }

  @Test
  void rolloutsCarryPromptCompletionRewardAndGroupAdvantage() throws IOException {
    List<JsonNode> rows = export(RlExport.Format.ROLLOUTS);
    assertThat(rows).hasSize(4); // the embedding-only retrieval has no task text
    JsonNode first = rows.getFirst();
    assertThat(first.get("task").asText()).isEqualTo(TASK);
    assertThat(first.get("guided").asBoolean()).isTrue();
    assertThat(first.get("prompt").get(0).get("role").asText()).isEqualTo("user");
    assertThat(first.get("prompt").get(0).get("content").asText()).isEqualTo(TASK
        + "\n\nExperiences from similar past tasks (use what applies):\n[1] (success) kubectl rollout restart deploy/billing -n staging");
    assertThat(first.get("completion").get(0).get("content").asText()).isEqualTo("restarted with -n staging");
    assertThat(first.get("completionSource").asText()).isEqualTo("retrievalId");
    assertThat(first.get("reward").asDouble()).isEqualTo(1.0);
    assertThat(first.get("success").asBoolean()).isTrue();

    JsonNode free = rows.get(1);
    assertThat(free.get("guided").asBoolean()).isFalse();
    assertThat(free.get("prompt").get(0).get("content").asText()).isEqualTo(TASK);
    assertThat(free.get("completion").get(0).get("content").asText()).isEqualTo("tried -n prod: wrong cluster");
    assertThat(free.get("completionSource").asText()).isEqualTo("same-task");

    // one group of three rewards (1, -1, -1): mean -1/3, sample std 2/sqrt(3)
    assertThat(rows.subList(0, 3)).allSatisfy(r -> assertThat(r.get("group").asText()).isEqualTo(first.get("group").asText()));
    assertThat(first.get("advantage").asDouble()).isCloseTo((1 + 1 / 3.0) / (2 / Math.sqrt(3)), org.assertj.core.data.Offset.offset(1e-9));
    double sum = rows.subList(0, 3).stream().mapToDouble(r -> r.get("advantage").asDouble()).sum();
    assertThat(sum).isCloseTo(0, org.assertj.core.data.Offset.offset(1e-9));
    JsonNode other = rows.get(3);
    assertThat(other.get("group").asText()).isNotEqualTo(first.get("group").asText());
    assertThat(other.get("completion").isNull()).isTrue();
    assertThat(other.get("advantage").asDouble()).isZero(); // a group of one
  }

  @Test
  void sftKeepsSuccessesWithACompletionKtoLabelsEveryOne() throws IOException {
    List<JsonNode> sft = export(RlExport.Format.SFT);
    assertThat(sft).singleElement().satisfies(r ->
        assertThat(r.get("completion").get(0).get("content").asText()).isEqualTo("restarted with -n staging"));
    List<JsonNode> kto = export(RlExport.Format.KTO);
    assertThat(kto).extracting(r -> r.get("label").asBoolean()).containsExactly(true, false, false);
  }

  @Test
  void dpoPairsOnlyRolloutsThatSawTheSamePrompt() throws IOException {
    List<JsonNode> dpo = export(RlExport.Format.DPO);
    assertThat(dpo).singleElement().satisfies(p -> {
      assertThat(p.get("chosen").get(0).get("content").asText()).isEqualTo("restarted with -n staging");
      assertThat(p.get("rejected").get(0).get("content").asText()).isEqualTo("restarted the wrong deployment");
      assertThat(p.get("prompt").get(0).get("content").asText()).contains("[1] (success)");
    });
  }

  @Test
  void grpoHasOneLinePerDistinctPromptWithItsLoggedRewards() throws IOException {
    List<JsonNode> grpo = export(RlExport.Format.GRPO);
    assertThat(grpo).hasSize(3); // guided task, free task, other task
    assertThat(grpo.getFirst().get("loggedRewards").toString()).isEqualTo("[1.0,-1.0]");
    assertThat(grpo.getFirst().get("loggedSuccessRate").asDouble()).isEqualTo(0.5);
  }

  @Test
  void reportsWhatItLeftOutAndMalformedLines() throws IOException {
    Path file;
    try (var s = Files.list(log)) {
      file = s.findFirst().orElseThrow();
    }
    Files.writeString(file, "{not json\n", StandardOpenOption.APPEND);
    RlExport.Result r = RlExport.run(log, RlExport.Format.SFT, dir.resolve("out.jsonl"), false, MEMRL);
    assertThat(r.rewardedRetrievals()).isEqualTo(5);
    assertThat(r.records()).isEqualTo(1);
    assertThat(r.leftOut()).containsEntry("the retrieval was given by embedding only (no task text)", 1)
        .containsEntry("no experience was remembered for the retrieval (nothing the agent did to train on)", 1);
    assertThat(r.skipped()).singleElement().satisfies(s -> assertThat(s.reason()).startsWith("not valid JSON"));
    Path strictOut = dir.resolve("strict.jsonl");
    assertThatThrownBy(() -> RlExport.run(log, RlExport.Format.SFT, strictOut, true, MEMRL))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("--strict");
    assertThat(strictOut).doesNotExist();
  }

  @Test
  void aLogWithoutRewardsIsRefused() throws IOException {
    Path empty = dir.resolve("empty.jsonl");
    Files.writeString(empty, Files.readAllLines(Files.list(log).findFirst().orElseThrow()).getFirst() + "\n");
    assertThatThrownBy(() -> RlExport.run(empty, RlExport.Format.ROLLOUTS, dir.resolve("x.jsonl"), false, MEMRL))
        .isInstanceOf(MemLoopException.class).hasMessageContaining("nothing to export");
  }

  @Test
  void aMergedNoteShownAsItsNewestAttempts_isExportedAsShown_notAsStored() throws IOException {
    Path notes = dir.resolve("notes");
    MemLoopConfig c = MemLoopConfig.preset(Preset.DEFAULT).toBuilder().k2(2).exploreBudget(0).build();
    java.util.Map<String, String> shownText = new java.util.HashMap<>();
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).config(c).seed(5).events(new JsonlEventLog(notes)).build()) {
      for (int i = 1; i <= 4; i++) {
        loop.remember("qa", Intent.ofText(TASK), "attempt " + i + " failed", Outcome.FAILURE);
      }
      for (int i = 0; i < 12; i++) { // the draw shows the four-attempt note whole or as its newest two
        Retrieval r = loop.retrieve("qa", Intent.ofText(TASK));
        shownText.put(r.id(), r.selected().getFirst().experience());
        loop.reward("qa", r.id(), -1);
      }
    }
    assertThat(shownText.values()).as("both depths were drawn").anyMatch(t -> t.startsWith("attempt 4 failed")
        && t.endsWith("attempt 3 failed")).anyMatch(t -> t.endsWith("attempt 1 failed"));
    Path out = dir.resolve("notes.jsonl");
    RlExport.run(notes, RlExport.Format.ROLLOUTS, out, true, c);
    int checked = 0;
    for (String line : Files.readAllLines(out)) {
      JsonNode row = MAPPER.readTree(line);
      assertThat(row.get("experiences").get(0).get("text").asText())
          .isEqualTo(shownText.get(row.get("retrievalId").asText()));
      checked++;
    }
    assertThat(checked).isEqualTo(12);
  }

  @Test
  void anEditedMemory_isExportedWithTheTextEachRetrievalShowed() throws IOException {
    Path edits = dir.resolve("edits");
    java.util.Map<String, String> shownText = new java.util.HashMap<>();
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).config(MEMRL).events(new JsonlEventLog(edits)).build()) {
      io.memloop.Memory m = loop.remember("ops", Intent.ofText(TASK), "restart it", Outcome.SUCCESS);
      for (int i = 0; i < 4; i++) {
        if (i == 2) {
          loop.edit("ops", m.id(), "kubectl rollout restart deploy/billing -n staging");
        }
        Retrieval r = loop.retrieve("ops", Intent.ofText(TASK));
        shownText.put(r.id(), r.selected().getFirst().experience());
        loop.reward("ops", r.id(), 1);
      }
    }
    assertThat(shownText.values()).containsOnly("restart it", "kubectl rollout restart deploy/billing -n staging");
    Path out = dir.resolve("edits.jsonl");
    RlExport.run(edits, RlExport.Format.ROLLOUTS, out, true, MEMRL);
    int checked = 0;
    for (String line : Files.readAllLines(out)) {
      JsonNode row = MAPPER.readTree(line);
      assertThat(row.get("experiences").get(0).get("text").asText()).isEqualTo(shownText.get(row.get("retrievalId").asText()));
      checked++;
    }
    assertThat(checked).isEqualTo(4);
  }
}
