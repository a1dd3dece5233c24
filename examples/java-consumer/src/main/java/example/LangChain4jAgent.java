package example;

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
import io.memloop.embeddings.MiniLmEmbedder;
import io.memloop.langchain4j.MemLoopContentRetriever;
import io.memloop.store.InMemoryStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * README's "With LangChain4j", offline: a retrieval-augmented chat loop whose retriever is MemLoop, with a
 * scripted chat model standing in for an LLM (no network, no key). The "model" follows the first experience in
 * its prompt, or guesses; a checker says whether its answer was right; the outcome is reported to MemLoop and
 * the answer remembered. It prints how many of the four questions were answered right in each round.
 */
public final class LangChain4jAgent {
  static final Map<String, String> TASKS = new LinkedHashMap<>(Map.of(
      "how do I restart the web server on staging?", "systemctl restart nginx",
      "how do I free disk space on the build machine?", "docker system prune -af",
      "how do I renew the TLS certificate of the api?", "certbot renew --cert-name api",
      "how do I rotate the database password?", "vault write -f database/rotate-root/main"));

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

  public static void main(String[] args) {
    try (MemLoop loop = MemLoop.builder().store(new InMemoryStore(MiniLmEmbedder.DIMENSION))
        .embedder(MiniLmEmbedder.create()).build()) {
      var retriever = MemLoopContentRetriever.builder().memLoop(loop).namespace("helpdesk").successesOnly(true).build();
      RetrievalAugmentor augmentor = DefaultRetrievalAugmentor.builder().contentRetriever(retriever).build();
      ChatModel model = new ScriptedModel();
      for (int round = 1; round <= 4; round++) {
        int right = 0;
        for (var task : TASKS.entrySet()) {
          String chatMemoryId = "round-" + round + "-" + task.getKey();
          UserMessage question = UserMessage.from(task.getKey());
          AugmentationResult augmented = augmentor.augment(
              new AugmentationRequest(question, Metadata.from(question, chatMemoryId, List.of())));
          String answer = model.chat(List.of(augmented.chatMessage())).aiMessage().text();
          boolean success = answer.equals(task.getValue());
          right += success ? 1 : 0;
          retriever.reportOutcome(chatMemoryId, success);           // rewards that conversation's retrievals
          retriever.remember(chatMemoryId, answer, success);         // stored under the conversation's question
        }
        System.out.printf("round %d: %d of %d questions answered right%n", round, right, TASKS.size());
      }
    }
  }
}
