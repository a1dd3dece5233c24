package io.memloop.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.rag.AugmentationRequest;
import dev.langchain4j.rag.AugmentationResult;
import dev.langchain4j.rag.DefaultRetrievalAugmentor;
import dev.langchain4j.rag.RetrievalAugmentor;
import dev.langchain4j.rag.query.Metadata;
import io.memloop.MemLoop;
import io.memloop.embeddings.HashingEmbedder;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline example of the README: a LangChain4j retrieval-augmented chat loop whose retriever is
 * MemLoop, with a scripted chat model standing in for an LLM (no network). The "model" follows the first
 * experience injected into its prompt, or guesses; a checker says whether the answer was right; the
 * outcome is reported to MemLoop and the experience remembered. Success rises round after round.
 */
class OfflineAgentExampleTest {
  @TempDir Path dir;

  static final Map<String, String> TASKS = Map.of(
      "how do I restart the web server on staging?", "systemctl restart nginx",
      "how do I free disk space on the build machine?", "docker system prune -af",
      "how do I renew the TLS certificate of the api?", "certbot renew --cert-name api",
      "how do I rotate the database password?", "vault write -f database/rotate-root/main");

  /** A stand-in LLM: answers with the command of the first experience in its prompt, else guesses. */
  static final class ScriptedModel implements ChatModel {
    private final Random random = new Random(7);

    @Override
    public ChatResponse doChat(ChatRequest request) {
      String prompt = ((UserMessage) request.messages().getLast()).singleText();
      List<String> known = new ArrayList<>(TASKS.values());
      String answer = known.stream().filter(prompt::contains).findFirst()
          .orElse(known.get(random.nextInt(known.size())));
      return ChatResponse.builder().aiMessage(AiMessage.from(answer)).build();
    }
  }

  @Test
  void theAgentImprovesFromItsOutcomes() {
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(dir, HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).build()) {
      MemLoopContentRetriever retriever = MemLoopContentRetriever.builder().memLoop(loop).namespace("helpdesk")
          .successesOnly(true).build();
      RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder().contentRetriever(retriever).build();
      ChatModel model = new ScriptedModel();
      List<Integer> successes = new ArrayList<>();
      for (int round = 0; round < 4; round++) {
        int ok = 0;
        for (var task : TASKS.entrySet()) {
          String conversation = "round-" + round + "-" + task.getKey();
          UserMessage question = UserMessage.from(task.getKey());
          AugmentationResult augmented = augmentor.augment(
              new AugmentationRequest(question, Metadata.from(question, conversation, List.of())));
          String answer = model.chat(List.of(augmented.chatMessage())).aiMessage().text();
          boolean right = answer.equals(task.getValue());
          ok += right ? 1 : 0;
          retriever.reportOutcome(conversation, right);
          retriever.remember(conversation, answer, right);
          assertThat(retriever.pendingRetrievals(conversation)).isEmpty();
        }
        successes.add(ok);
      }
      assertThat(successes.getLast()).as("successes per round %s", successes).isEqualTo(TASKS.size());
      assertThat(successes.getFirst()).isLessThan(TASKS.size());
      assertThat(loop.stats("helpdesk").totalVisits()).isPositive();
    }
  }

  @Test
  void contentsCarryTheMemoryAndTheRetrieval() {
    try (MemLoop loop = MemLoop.builder().store(LuceneStore.open(dir, HashingEmbedder.DEFAULT_DIMENSION))
        .embedder(new HashingEmbedder()).build()) {
      MemLoopContentRetriever retriever = MemLoopContentRetriever.builder().memLoop(loop).namespace("helpdesk").build();
      var none = retriever.retrieve(dev.langchain4j.rag.query.Query.from("restart nginx"));
      assertThat(none).isEmpty();
      assertThat(retriever.remember(null, "systemctl restart nginx", true)).isPresent();
      assertThat(retriever.reportOutcome(null, false)).hasSize(1);
      var contents = retriever.retrieve(dev.langchain4j.rag.query.Query.from("restart nginx"));
      assertThat(contents).hasSize(1);
      var md = contents.getFirst().textSegment().metadata();
      assertThat(md.getString("memoryId")).isNotBlank();
      assertThat(md.getString("outcome")).isEqualTo("success");
      assertThat(md.getString("retrievalId")).isEqualTo(retriever.pendingRetrievals(null).getFirst());
      assertThat(contents.getFirst().textSegment().text()).isEqualTo("systemctl restart nginx");
    }
  }
}
