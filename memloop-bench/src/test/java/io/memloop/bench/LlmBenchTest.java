package io.memloop.bench;

import static io.memloop.bench.Fixtures.env;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memloop.MemLoopException;
import io.memloop.Preset;
import io.memloop.bench.hardquestions.HardQuestionsEnvironment;
import io.memloop.bench.llm.LlmPolicy;
import io.memloop.bench.llm.Policy;
import io.memloop.bench.llm.ScriptedChatModel;
import io.memloop.bench.llm.Transcript;
import io.memloop.bench.ops.RecurringTasksEnvironment;
import io.memloop.bench.strategy.Strategy;
import io.memloop.chat.ChatModel;
import io.memloop.embeddings.HashingEmbedder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** The learning loop and the benchmark run with a language model as the policy ({@link LlmPolicy}). */
class LlmBenchTest {
  private static final HashingEmbedder EMBEDDER = new HashingEmbedder(64);

  @Test
  void learningLoop_withAReadingModel_learnsFromMemory_andKeepsEveryTranscript() {
    double memrl = 0;
    double none = 0;
    for (long seed : LongStream.rangeClosed(1, 3).toArray()) {
      RecurringTasksEnvironment env = env(seed, 8, 2, 0, 0.05);
      List<Transcript> transcripts = Collections.synchronizedList(new ArrayList<>());
      LlmPolicy llm = new LlmPolicy(new ReadingChatModel(), 2, transcripts::add);
      LearningLoop loop = new LearningLoop(env, IntentEmbeddings.of(EMBEDDER, env), 4, llm);
      memrl += Metrics.curve(loop.run(Strategy.preset(Preset.MEMRL), seed)).lastEpochAccuracy() / 3;
      none += Metrics.curve(loop.run(Strategy.noMemory(), seed)).lastEpochAccuracy() / 3;
      assertThat(transcripts).hasSize(2 * 4 * env.tasks().size());
      assertThat(transcripts.getFirst()).satisfies(t -> {
        assertThat(t.environment()).isEqualTo(RecurringTasksEnvironment.NAME);
        assertThat(t.strategy()).isEqualTo("memrl");
        assertThat(t.epoch()).isEqualTo(1);
        assertThat(t.taskId()).isEqualTo(env.tasks().getFirst().id());
        assertThat(t.messages()).hasSize(3);
      });
    }
    assertThat(none).isLessThan(0.4);
    assertThat(memrl).isGreaterThan(none + 0.3);
  }

  @Test
  void benchRun_stopsOnAModelFailure() {
    ChatModel down = new ScriptedChatModel((m, c) -> {
      throw new MemLoopException(MemLoopException.Reason.MODEL_FAILED, "", "POST http://127.0.0.1:1/v1/chat/completions failed");
    });
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(1L, 2L)).withEpochs(1)
        .withEnvironments(List.of(RecurringTasksEnvironment.NAME)).withStrategies(List.of("no-memory", "memrl"));
    assertThatThrownBy(() -> Bench.run(EMBEDDER, options, new LlmPolicy(down, 2, null), 2, (e, s, seed, ep, acc) -> {}))
        .isInstanceOfSatisfying(MemLoopException.class,
            e -> assertThat(e.reason()).isEqualTo(MemLoopException.Reason.MODEL_FAILED));
  }

  @Test
  void benchRun_resultsDoNotDependOnParallelism() {
    BenchOptions options = BenchOptions.quick().withSeeds(List.of(1L, 2L)).withEpochs(2)
        .withEnvironments(List.of(RecurringTasksEnvironment.NAME, HardQuestionsEnvironment.NAME))
        .withStrategies(List.of("no-memory", "similarity", "memp", "memrl", "oracle"));
    BenchReport one = Bench.run(EMBEDDER, options, Policy.FROZEN, 1, (e, s, seed, ep, acc) -> {});
    BenchReport three = Bench.run(EMBEDDER, options, Policy.FROZEN, 3, (e, s, seed, ep, acc) -> {});
    assertThat(three.environments()).usingRecursiveComparison().ignoringFieldsMatchingRegexes(".*wallSeconds.*")
        .isEqualTo(one.environments());
    assertThat(one.policy().id()).isEqualTo("frozen");
  }
}
