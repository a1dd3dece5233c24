package example;

import io.memloop.Intent;
import io.memloop.MemLoop;
import io.memloop.MemLoopConfig;
import io.memloop.Outcome;
import io.memloop.Preset;
import io.memloop.Retrieval;
import io.memloop.embeddings.MiniLmEmbedder;
import io.memloop.store.lucene.LuceneStore;
import java.nio.file.Path;
import java.util.List;

/**
 * README's "Using it from Java", as a program of its own: three rounds of the same four tasks with a toy agent
 * that succeeds when it is shown the right command for its task, printing its success per round.
 */
public final class Quickstart {
  /** The toy agent: a task succeeds when an experience it is shown holds the command the task needs. */
  record Agent(List<String> tasks, List<String> commands) {
    boolean run(String task, List<io.memloop.Memory> shown) {
      String needed = commands.get(tasks.indexOf(task));
      return shown.stream().anyMatch(m -> m.experience().contains(needed));
    }
  }

  public static void main(String[] args) throws Exception {
    List<String> tasks = List.of("Restart the billing service in staging", "Rotate the TLS certificate of the API gateway",
        "Free disk space on the build agents", "Roll back the last deploy of the web tier");
    List<String> commands = List.of("kubectl rollout restart deploy/billing -n staging", "certbot renew --cert-name api-gw",
        "docker system prune -af on each agent", "helm rollback web 0");
    Agent agent = new Agent(tasks, commands);
    for (int round = 1; round <= 3; round++) {
      int solved = 0;
      for (String task : tasks) {
        String distilled = commands.get(tasks.indexOf(task));   // what the agent learned doing the task
        boolean solvedNow = episode(task, agent, distilled);
        solved += solvedNow ? 1 : 0;
      }
      System.out.printf("round %d: %d of %d tasks solved%n", round, solved, tasks.size());
    }
  }

  static boolean episode(String task, Agent agent, String distilled) {
    boolean result;
    // --- README: Using it from Java ---
    try (MemLoop loop = MemLoop.builder()
            .store(LuceneStore.open(Path.of("memloop-data"), MiniLmEmbedder.DIMENSION)) // or new InMemoryStore(384)
            .embedder(MiniLmEmbedder.create())
            .config(MemLoopConfig.preset(Preset.MEMRL).toBuilder().k2(5).build())
            .build()) {
      Retrieval r = loop.retrieve("team-a", Intent.ofText(task));
      boolean ok = agent.run(task, r.selected());                 // show the selected experiences
      loop.reward("team-a", r.id(), ok ? 1 : -1);                  // learn from the outcome
      loop.remember("team-a", Intent.ofText(task), distilled, ok ? Outcome.SUCCESS : Outcome.FAILURE);
    // --- end ---
      result = ok;
    }
    return result;
  }
}
